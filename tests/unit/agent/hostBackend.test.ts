import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostBackend } from '../../../src/agent/backends/host/backend';
import { ffmpegArgs, sourceKind } from '../../../src/agent/backends/host/ffmpegCamera';
import { parseNvidiaSmi, parseTegrastats } from '../../../src/agent/backends/host/gpu';
import type { Backend, I420Frame } from '../../../src/agent/backends/types';
import { silentLogger } from '../../../src/agent/log';

const hasFfmpeg = (() => {
  try {
    execFileSync('ffmpeg', ['-hide_banner', '-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const QVGA = { pixel_format: 'I420', width: 320, height: 240, fps: 30 };

describe('host backend tools', () => {
  it('tells camera source kinds apart and asks ffmpeg for raw I420 at the chosen size', () => {
    expect([sourceKind('rtsp://u:p@cam/1'), sourceKind('/dev/video2'), sourceKind('clip.mp4')]).toEqual([
      'rtsp',
      'v4l2',
      'file',
    ]);
    const args = ffmpegArgs('/dev/video0', QVGA);
    expect(args.join(' ')).toContain('-f v4l2 -i /dev/video0');
    expect(args.join(' ')).toContain('-f rawvideo -pix_fmt yuv420p -s 320x240 -r 30 pipe:1');
  });

  it('reads GPUs from nvidia-smi CSV', () => {
    expect(parseNvidiaSmi('NVIDIA RTX A2000, 37, 1024, 12282, 550.54.15\n')).toEqual([
      {
        name: 'NVIDIA RTX A2000',
        utilisation: 37,
        memory_used_mb: 1024,
        memory_total_mb: 12282,
        driver_version: '550.54.15',
      },
    ]);
  });

  it('reads GPU load, power and temperatures from a tegrastats line', () => {
    const t = parseTegrastats(
      'RAM 2034/7620MB (lfb 4x4MB) GR3D_FREQ 12% cpu@45.5C gpu@44C tj@46.1C VDD_IN 4242mW/4242mW',
    );
    expect(t).toEqual({
      gpu_utilisation: 12,
      ram_used_mb: 2034,
      ram_total_mb: 7620,
      power_mw: 4242,
      temperatures_c: { CPU: 45.5, GPU: 44, TJ: 46.1 },
    });
  });

  it('reports real usage of this machine', async () => {
    const backend = createHostBackend({ cameraSources: [], logger: silentLogger });
    const u = await backend.usages(0);
    expect(u.memory_total_mb).toBeGreaterThan(0);
    expect(u.cpu).toBeGreaterThanOrEqual(0);
    const info = await backend.systemInformation();
    expect(info.cpu_cores).toBeGreaterThan(0);
    await backend.close();
  });
});

describe.skipIf(!hasFfmpeg)('host camera through ffmpeg', () => {
  let dir: string;
  let backend: Backend;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'agent-ffmpeg-'));
    const clip = path.join(dir, 'clip.mp4');
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=640x480:rate=30',
      '-t',
      '1',
      '-pix_fmt',
      'yuv420p',
      clip,
    ]);
    backend = createHostBackend({ cameraSources: [clip], logger: silentLogger });
  });

  afterAll(async () => {
    await backend?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the source as a physical camera', () => {
    expect(backend.cameras.map((c) => [c.cameraId, c.cameraType])).toEqual([['cam-1', 'physical']]);
  });

  it('grabs one frame of exactly width*height*1.5 bytes', async () => {
    const frame = await backend.cameras[0]!.grabFrame(QVGA);
    expect([frame.width, frame.height, frame.data.byteLength]).toEqual([320, 240, 320 * 240 * 1.5]);
  });

  it('decodes frames continuously until stopped', async () => {
    const frames: I420Frame[] = [];
    const handle = backend.cameras[0]!.startCapture(
      QVGA,
      (f) => frames.length < 5 && frames.push({ ...f, data: f.data.slice() }),
    );
    await expect.poll(() => frames.length, { timeout: 10_000 }).toBe(5);
    handle.stop();
    expect(frames.every((f) => f.data.byteLength === 320 * 240 * 1.5)).toBe(true);
  });
});
