/**
 * Issue 3 "The agent sends a keyframe when a viewer subscribes, shares one capture between viewers of one
 * camera, and stops capturing when the last viewer leaves": the StreamManager with real wrtc peer connections
 * on loopback (receivers decode with RTCVideoSink), and a camera that counts its captures.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CameraDevice } from '../../../src/agent/backends/types';
import { silentLogger } from '../../../src/agent/log';
import { StreamManager } from '../../../src/agent/streams/manager';
import { nonstandard, wrtc } from '../../../src/agent/wrtc';
import { CountingCamera } from './helpers';

const QVGA = { pixel_format: 'I420', width: 320, height: 240, fps: 30 };

interface Viewer {
  callId: string;
  frames(): number;
  /** ms from send-sdp to the first decoded frame. */
  firstFrame: Promise<number>;
  /** The receiver's inbound-rtp video stats. */
  inbound(): Promise<Record<string, unknown>>;
  close(): void;
}

const open: Viewer[] = [];
afterEach(() => {
  for (const v of open.splice(0)) v.close();
});

/** What a browser does for one stream, with the manager answering directly (no data channel). */
async function view(
  manager: StreamManager,
  cameraId: string,
  callId: string,
  browserId: string,
): Promise<Viewer> {
  const pc = new wrtc.RTCPeerConnection({ iceServers: [] }) as unknown as RTCPeerConnection;
  pc.addTransceiver('video', { direction: 'recvonly' });
  let count = 0;
  let sink: { stop(): void } | null = null;
  let t0 = 0;
  let first: (ms: number) => void = () => {};
  const firstFrame = new Promise<number>((resolve) => (first = resolve));
  pc.ontrack = (e: RTCTrackEvent) => {
    const s = new nonstandard.RTCVideoSink(e.track);
    sink = s;
    s.onframe = () => {
      if (count++ === 0) first(performance.now() - t0);
    };
  };
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') resolve();
    pc.onicecandidate = (e: RTCPeerConnectionIceEvent) => !e.candidate && resolve();
  });
  t0 = performance.now();
  const answer = await manager.start({
    callId,
    cameraId,
    offerSdp: pc.localDescription!.sdp,
    resolution: QVGA,
    browserId,
    linkId: `link-${browserId}`,
  });
  await pc.setRemoteDescription(answer.sdp);
  const viewer: Viewer = {
    callId,
    frames: () => count,
    firstFrame,
    inbound: async () => {
      let found: Record<string, unknown> = {};
      (await pc.getStats()).forEach((r: Record<string, unknown>) => {
        if (r.type === 'inbound-rtp') found = r;
      });
      return found;
    },
    close: () => {
      sink?.stop();
      pc.close();
    },
  };
  open.push(viewer);
  return viewer;
}

function setup() {
  const camera = new CountingCamera('dev-share', 1);
  const cameras: CameraDevice[] = [camera];
  const manager = new StreamManager(
    { find: (id) => cameras.find((c) => c.cameraId === id) },
    { iceServers: () => [], logger: silentLogger },
  );
  return { camera, manager };
}

describe('viewers of one camera', () => {
  it('share one capture, each starting with a picture of its own, and the capture stops with the last viewer', async () => {
    const { camera, manager } = setup();
    try {
      const a = await view(manager, 'cam-1', 'call-a', 'web-viewer-a');
      await a.firstFrame;
      expect(camera.started).toBe(1);

      // A second viewer subscribes while the first watches: same capture, its own track and encoder, so its
      // first frame is a keyframe it can decode at once.
      const b = await view(manager, 'cam-1', 'call-b', 'web-viewer-b');
      const bFirstMs = await b.firstFrame;
      console.info(`second viewer: first decoded frame ${bFirstMs.toFixed(0)} ms after send-sdp`);
      // Its first decoded frame was a keyframe the agent sent unasked: no keyframe request (PLI/FIR) was needed.
      await expect
        .poll(async () => (await b.inbound()).keyFramesDecoded, { timeout: 5_000 })
        .toBeGreaterThanOrEqual(1);
      expect(await b.inbound()).toMatchObject({ pliCount: 0, firCount: 0 });
      expect(camera.started).toBe(1);
      expect(camera.running).toBe(1);
      expect(
        manager
          .streamsOfCamera('cam-1')
          .map((s) => s.callId)
          .sort(),
      ).toEqual(['call-a', 'call-b']);

      // The first viewer leaves: the second keeps receiving from the same capture.
      expect(manager.stop('call-a', 'web-viewer-a')).toBe(true);
      const before = b.frames();
      await expect.poll(() => b.frames(), { timeout: 5_000 }).toBeGreaterThan(before + 5);
      expect(camera.running).toBe(1);

      // The last viewer leaves: nothing captures any more.
      expect(manager.stop('call-b', 'web-viewer-b')).toBe(true);
      expect(camera.running).toBe(0);
      expect(manager.count).toBe(0);

      // A new viewer starts a fresh capture.
      const c = await view(manager, 'cam-1', 'call-c', 'web-viewer-c');
      await c.firstFrame;
      expect(camera.started).toBe(2);
    } finally {
      manager.closeAll();
    }
    expect(camera.running).toBe(0);
  });

  it('stops the capture when the last viewer’s link closes or the camera is taken over', async () => {
    const { camera, manager } = setup();
    try {
      await (
        await view(manager, 'cam-1', 'call-1', 'web-viewer-a')
      ).firstFrame;
      await (
        await view(manager, 'cam-1', 'call-2', 'web-viewer-b')
      ).firstFrame;
      expect(manager.killCamera('cam-1', 'web-viewer-b')).toBe(1);
      expect(camera.running).toBe(1);
      expect(manager.stopLink('link-web-viewer-b')).toBe(1);
      expect(camera.running).toBe(0);
    } finally {
      manager.closeAll();
    }
  });
});

describe('a held stream (pause-stream / resume-stream)', () => {
  it('stops sending and capturing while held, and plays again on the same connection when resumed', async () => {
    const { camera, manager } = setup();
    try {
      const a = await view(manager, 'cam-1', 'call-a', 'web-viewer-a');
      await a.firstFrame;
      expect(await manager.pause('call-a', 'web-viewer-b')).toBe(false); // not this viewer's stream
      expect(await manager.pause('call-a', 'web-viewer-a')).toBe(true);
      expect(await manager.pause('call-a', 'web-viewer-a')).toBe(true); // idempotent
      expect(manager.count).toBe(0);
      expect(manager.pausedCount).toBe(1);
      expect(camera.running).toBe(0);
      // Nothing arrives while held (a frame already on its way may still land).
      await new Promise((r) => setTimeout(r, 200));
      const held = a.frames();
      await new Promise((r) => setTimeout(r, 500));
      expect(a.frames()).toBe(held);

      const t0 = performance.now();
      expect(await manager.resume('call-a', 'web-viewer-a')).toBe(true);
      await expect.poll(() => a.frames(), { timeout: 5_000 }).toBeGreaterThan(held + 5);
      console.info(`held stream: frames again ${(performance.now() - t0).toFixed(0)} ms after resume`);
      expect(camera.running).toBe(1);
      expect(camera.started).toBe(2);
      expect(manager.count).toBe(1);
      expect(manager.pausedCount).toBe(0);
      // Held, then ended: the feed is not released twice and the stream is gone.
      expect(await manager.pause('call-a', 'web-viewer-a')).toBe(true);
      expect(manager.stop('call-a', 'web-viewer-a')).toBe(true);
      expect(await manager.resume('call-a', 'web-viewer-a')).toBe(false);
      expect(manager.pausedCount).toBe(0);
    } finally {
      manager.closeAll();
    }
    expect(camera.running).toBe(0);
  });

  it('keeps the shared capture for the other viewers while one is held', async () => {
    const { camera, manager } = setup();
    try {
      const a = await view(manager, 'cam-1', 'call-a', 'web-viewer-a');
      const b = await view(manager, 'cam-1', 'call-b', 'web-viewer-b');
      await Promise.all([a.firstFrame, b.firstFrame]);
      expect(await manager.pause('call-a', 'web-viewer-a')).toBe(true);
      expect(camera.running).toBe(1);
      const before = b.frames();
      await expect.poll(() => b.frames(), { timeout: 5_000 }).toBeGreaterThan(before + 5);
      expect(await manager.resume('call-a', 'web-viewer-a')).toBe(true);
      expect(camera.started).toBe(1);
      const aBefore = a.frames();
      await expect.poll(() => a.frames(), { timeout: 5_000 }).toBeGreaterThan(aBefore + 5);
    } finally {
      manager.closeAll();
    }
  });
});

describe('the device going off the air and back (a simulated reboot)', () => {
  it('ends every stream, then streams again; closeAll refuses new streams for good', async () => {
    const { camera, manager } = setup();
    try {
      await (
        await view(manager, 'cam-1', 'call-a', 'web-viewer-a')
      ).firstFrame;
      manager.endAll();
      expect(manager.count).toBe(0);
      expect(camera.running).toBe(0);
      // Back on the air: a new viewer plays.
      await (
        await view(manager, 'cam-1', 'call-b', 'web-viewer-b')
      ).firstFrame;
      expect(manager.count).toBe(1);
      manager.closeAll();
      await expect(view(manager, 'cam-1', 'call-c', 'web-viewer-c')).rejects.toThrow(/shutting down/);
    } finally {
      manager.closeAll();
    }
  });
});
