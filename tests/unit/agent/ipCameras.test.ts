/**
 * IP cameras (§3 IP camera: listed by the server, streamed through the device that reaches them): URL forms,
 * the camera catalog's updates, the simulated network camera, a network camera that cannot be opened, and
 * the whole path on loopback (camera-list, send-sdp, error replies, refresh).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FfmpegCamera, ffmpegArgs, redactSource } from '../../../src/agent/backends/host/ffmpegCamera';
import { createIpCamera, ipSourceKind } from '../../../src/agent/backends/ipCameras';
import { SimCamera } from '../../../src/agent/backends/sim/camera';
import { SimIpCamera } from '../../../src/agent/backends/sim/ipCamera';
import { silentLogger } from '../../../src/agent/log';
import { CameraCatalog } from '../../../src/agent/streams/catalog';
import { openStream, startLoopback } from './loopback';
import type { Loopback, TestStream } from './loopback';

const VGA = { pixel_format: 'I420', width: 640, height: 480, fps: 30 };

describe('IP camera sources', () => {
  it('reads rtsp, http(s) and files with ffmpeg, sim:// with the simulator, and nothing else', () => {
    expect(
      [
        'rtsp://cam/1',
        'RTSPS://cam/1',
        'http://cam/mjpg',
        'https://cam/x.m3u8',
        '/videos/a.mp4',
        'file:///a.mp4',
      ].map(ipSourceKind),
    ).toEqual(['ffmpeg', 'ffmpeg', 'ffmpeg', 'ffmpeg', 'ffmpeg', 'ffmpeg']);
    expect(['sim://parking', 'sim://a.b_c-1/'].map(ipSourceKind)).toEqual(['sim', 'sim']);
    expect(['ftp://cam/1', 'sim://', 'sim://bad name', 'relative.mp4', ''].map(ipSourceKind)).toEqual([
      'unsupported',
      'unsupported',
      'unsupported',
      'unsupported',
      'unsupported',
    ]);
  });

  it('pulls RTSP over TCP with a read time-out and never shows URL credentials', () => {
    expect(ffmpegArgs('rtsp://u:p@cam/1', VGA).join(' ')).toContain(
      '-rtsp_transport tcp -timeout 10000000 -i',
    );
    expect(redactSource('rtsp://admin:secret@10.0.0.5:554/s1')).toBe('rtsp://10.0.0.5:554/s1');
    const cam = createIpCamera(
      { id: 'ip-1', label: 'Mast', url: 'rtsp://admin:secret@10.0.0.5/s1' },
      silentLogger,
    );
    expect(cam).toMatchObject({
      cameraId: 'ip-1',
      name: 'Mast',
      cameraType: 'ip',
      uniqueId: 'ip:rtsp://10.0.0.5/s1',
    });
  });

  it('gives a simulated network camera its own picture, the same for the same name', async () => {
    const a = new SimIpCamera('ip-a', 'Parking', 'parking');
    const b = new SimIpCamera('ip-b', 'Parking again', 'parking');
    const own = new SimCamera('dev-1', 1);
    const fa = await a.grabFrame(VGA);
    const fb = await b.grabFrame(VGA);
    const fo = await own.grabFrame(VGA);
    expect(a.scene).toEqual(b.scene);
    expect(a.scene).not.toEqual(own.scene);
    // Same scene: the pictures differ at most in the caption (its clock and the instant of drawing).
    const differing = fa.data.reduce((n, v, i) => n + (v !== fb.data[i] ? 1 : 0), 0);
    expect(differing).toBeLessThan(fa.data.length / 50);
    expect(Buffer.compare(Buffer.from(fa.data), Buffer.from(fo.data))).not.toBe(0);
  });

  it('reports a network camera that refuses the connection with ffmpeg’s reason', async () => {
    const cam = new FfmpegCamera('rtsp://127.0.0.1:1/live', 0, silentLogger, {
      cameraId: 'ip-x',
      name: 'Dead camera',
      uniqueId: 'ip:x',
      cameraType: 'ip',
    });
    const handle = cam.startCapture(VGA, () => {});
    try {
      await expect(handle.ready).rejects.toThrow(
        /Could not read Dead camera \(rtsp:\/\/127\.0\.0\.1:1\/live\): .+/,
      );
    } finally {
      handle.stop();
      cam.close();
    }
  });
});

describe('camera catalog', () => {
  const physical = [new SimCamera('dev-1', 1)];
  const make = (e: { id: string; label: string; url: string }) => createIpCamera(e, silentLogger);

  it('lists physical cameras first, then the server’s IP cameras, and reports what changed', () => {
    const catalog = new CameraCatalog(physical, make, silentLogger);
    expect(
      catalog.setIpCameras([
        { id: 'ip-1', label: 'Lot', url: 'sim://lot' },
        { id: 'ip-2', label: 'Door', url: 'sim://door' },
      ]),
    ).toEqual({ added: ['ip-1', 'ip-2'], removed: [] });
    expect(catalog.list().map((c) => [c.cameraId, c.cameraType])).toEqual([
      ['cam-1', 'physical'],
      ['ip-1', 'ip'],
      ['ip-2', 'ip'],
    ]);
    const kept = catalog.find('ip-1');
    // Unchanged cameras stay (their streams go on); a changed URL replaces one; a missing one goes.
    expect(
      catalog.setIpCameras([
        { id: 'ip-1', label: 'Lot', url: 'sim://lot' },
        { id: 'ip-3', label: 'Yard', url: 'sim://yard' },
      ]),
    ).toEqual({ added: ['ip-3'], removed: ['ip-2'] });
    expect(catalog.find('ip-1')).toBe(kept);
    expect(
      catalog.setIpCameras([
        { id: 'ip-1', label: 'Lot', url: 'sim://lot2' },
        { id: 'ip-3', label: 'Yard', url: 'sim://yard' },
      ]),
    ).toEqual({
      added: ['ip-1'],
      removed: ['ip-1'],
    });
  });

  it('skips an IP camera whose id another camera already has', () => {
    const catalog = new CameraCatalog(physical, make, silentLogger);
    catalog.setIpCameras([
      { id: 'cam-1', label: 'Clash', url: 'sim://a' },
      { id: 'ip-1', label: 'A', url: 'sim://a' },
      { id: 'ip-1', label: 'B', url: 'sim://b' },
    ]);
    expect(catalog.list().map((c) => c.name)).toEqual([physical[0]!.name, 'A']);
  });
});

describe('IP cameras through the agent (loopback)', () => {
  const PORT = 18250 + Math.floor(Math.random() * 25);
  const DEVICE = 'dev-1pca0000000000aa';
  const BROWSER = 'web-ipcamerabrowser01';
  let lb: Loopback;
  const streams: TestStream[] = [];

  beforeAll(async () => {
    lb = await startLoopback(PORT, DEVICE, { ipCameraRefreshMs: 200 }, [
      { id: 'ip-parking', label: 'Parking entrance (IP)', url: 'sim://parking' },
      { id: 'ip-ftp', label: 'Old NVR', url: 'ftp://nvr/1' },
      { id: 'ip-missing', label: 'Missing clip', url: '/nonexistent/clip.mp4' },
    ]);
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await lb?.close();
  });

  it('lists the IP cameras after its own, with camera_type ip and the server’s id', async () => {
    const link = await lb.greeted(await lb.browser(BROWSER), BROWSER);
    const list = await link.call('camera-list', {});
    const cams = (
      list as { data: { cameras: { id: string; camera_id: string; camera_type: string; label: string }[] } }
    ).data.cameras;
    expect(cams.map((c) => [c.id, c.camera_id, c.camera_type])).toEqual([
      ['cam-1', 'cam-1', 'physical'],
      ['cam-2', 'cam-2', 'physical'],
      ['ip-parking', 'ip-parking', 'ip'],
      ['ip-ftp', 'ip-ftp', 'ip'],
      ['ip-missing', 'ip-missing', 'ip'],
    ]);
    expect(cams[2]!.label).toBe('Parking entrance (IP)');
  });

  it('streams a simulated IP camera like any camera, and ends it when the server drops the camera', async () => {
    const peer = await lb.browser('web-ipcamerabrowser02');
    const link = await lb.greeted(peer, 'web-ipcamerabrowser02');
    const s = await openStream(link, 'ip-parking', 'ip-call-1', VGA);
    streams.push(s);
    expect(s.reply).toMatchObject({ ok: true, data: { resolution: { width: 640, height: 480 } } });
    await s.firstFrame;
    expect(s.lastSize()).toEqual({ width: 640, height: 480 });

    lb.api.ipCameraList = lb.api.ipCameraList.filter((c) => c.id !== 'ip-parking');
    await expect(link.next((m) => m.type === 'event', 'stream.status event')).resolves.toMatchObject({
      name: 'stream.status',
      data: { callId: 'ip-call-1', camera_id: 'ip-parking', status: 'closed', reason: 'camera-removed' },
    });
    const list = await link.call('camera-list', {});
    expect((list as { data: { cameras: { id: string }[] } }).data.cameras.map((c) => c.id)).not.toContain(
      'ip-parking',
    );
  });

  it('answers send-sdp for a URL it cannot open with inferenceEngineError and a clear message', async () => {
    const peer = await lb.browser('web-ipcamerabrowser03');
    const link = await lb.greeted(peer, 'web-ipcamerabrowser03');
    const ftp = await openStream(link, 'ip-ftp', 'ip-call-2');
    streams.push(ftp);
    expect(ftp.reply).toMatchObject({
      ok: false,
      error: { code: 'inferenceEngineError', message: expect.stringMatching(/unsupported URL .*rtsp:\/\//) },
    });
    const missing = await openStream(link, 'ip-missing', 'ip-call-3');
    streams.push(missing);
    expect(missing.reply).toMatchObject({
      ok: false,
      error: { code: 'inferenceEngineError', message: expect.stringMatching(/Missing clip.*No such file/) },
    });
    await expect(link.call('check-health', {})).resolves.toMatchObject({ ok: true, data: { streams: 0 } });
  });
});
