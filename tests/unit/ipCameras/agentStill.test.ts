/**
 * The device's IP camera still (src/agent/ipCameras/; issue 16 §2 "a test that fetches a still through the
 * device that will reach it"): a real http snapshot with basic auth (a local server serving a JPEG made by
 * ffmpeg), a wrong password, not an image, nothing listening, a timeout, sim:// stills, rtsp without ffmpeg;
 * every picture fits one link message.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/agent/log';
import { createIpCameraReach, type IpCameraReach } from '../../../src/agent/ipCameras';
import type { AgentPartDeps } from '../../../src/agent/parts';
import { SNAPSHOT_MAX_CHARS } from '../../../src/agent/commands/snapshot';

const hasFfmpeg = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0;
const deps = { log: silentLogger } as unknown as AgentPartDeps;
let server: Server;
let base = '';
let jpeg: Buffer = Buffer.alloc(0);

beforeAll(async () => {
  if (hasFfmpeg) {
    jpeg = spawnSync(
      'ffmpeg',
      [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=640x480',
        '-frames:v',
        '1',
        '-f',
        'image2pipe',
        '-c:v',
        'mjpeg',
        'pipe:1',
      ],
      { maxBuffer: 10_000_000 },
    ).stdout;
  }
  server = createServer((req, res) => {
    const ok = req.headers.authorization === `Basic ${Buffer.from('admin:right-pw').toString('base64')}`;
    if (req.url === '/slow') return; // never answers
    if (req.url === '/text') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
      return;
    }
    if (!ok) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="cam"' }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server?.closeAllConnections();
  server?.close();
});

const pngOk = (image: string) => {
  expect(image.startsWith('data:image/png;base64,')).toBe(true);
  expect(image.length).toBeLessThanOrEqual(SNAPSHOT_MAX_CHARS);
};

describe('IP camera still', () => {
  const reach: IpCameraReach = createIpCameraReach(deps, { timeoutMs: 1500 });

  it.skipIf(!hasFfmpeg)('fetches an http snapshot with basic auth, scaled to fit one message', async () => {
    const still = await reach.still({ url: `${base}/snap.jpg`, username: 'admin', password: 'right-pw' });
    pngOk(still.image);
    expect(still.width).toBeGreaterThanOrEqual(80);
  });

  it('a wrong password is ip_camera_auth_failed', async () => {
    await expect(
      reach.still({ url: `${base}/snap.jpg`, username: 'admin', password: 'wrong' }),
    ).rejects.toMatchObject({ code: 'ip_camera_auth_failed' });
  });

  it('an answer that is not an image is ip_camera_not_an_image', async () => {
    await expect(reach.still({ url: `${base}/text` })).rejects.toMatchObject({
      code: 'ip_camera_not_an_image',
    });
  });

  it('nothing listening is ip_camera_unreachable; no answer is ip_camera_timeout', async () => {
    await expect(reach.still({ url: 'http://127.0.0.1:1/snap.jpg' })).rejects.toMatchObject({
      code: 'ip_camera_unreachable',
    });
    await expect(reach.still({ url: `${base}/slow` })).rejects.toMatchObject({ code: 'ip_camera_timeout' });
  });

  it('sim:// gives a still of the simulated camera', async () => {
    const still = await reach.still({ url: 'sim://door' });
    pngOk(still.image);
  });

  it('rtsp without ffmpeg says so', async () => {
    const noFfmpeg = createIpCameraReach(deps, { ffmpeg: null });
    await expect(noFfmpeg.still({ url: 'rtsp://10.0.0.9/stream' })).rejects.toMatchObject({
      code: 'ip_camera_needs_ffmpeg',
      message: expect.stringContaining('RTSP stills need ffmpeg on the device'),
    });
  });

  it.skipIf(!hasFfmpeg)(
    'rtsp with nothing listening is ip_camera_unreachable, never showing the password',
    async () => {
      const err = await reach
        .still({ url: 'rtsp://127.0.0.1:1/stream', username: 'u', password: 'pw-secret-1' })
        .catch((e: Error & { code: string }) => e);
      expect((err as { code: string }).code).toMatch(/ip_camera_(unreachable|timeout)/);
      expect((err as Error).message).not.toContain('pw-secret-1');
    },
  );
});
