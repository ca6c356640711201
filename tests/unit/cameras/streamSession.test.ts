import { describe, expect, it } from 'vitest';
import { DeviceCommandError } from '../../../src/console/platform/deviceRpc';
import type { CallDevice } from '../../../src/console/platform/peerLink';
import { createStreamSessions } from '../../../src/console/features/cameras/streamSession';
import { makeCamera } from '../machines/fixtures';

/** A fake RTCPeerConnection: gathers ICE when the local description is set, fires a track on the answer. */
class FakePeerConnection extends EventTarget {
  iceGatheringState: RTCIceGatheringState = 'new';
  connectionState: RTCPeerConnectionState = 'new';
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  transceivers: Array<{ kind: string; direction: string }> = [];
  closed = false;
  constructor(readonly config: RTCConfiguration) {
    super();
  }
  addTransceiver(kind: string, init: { direction: string }) {
    this.transceivers.push({ kind, direction: init.direction });
  }
  async createOffer() {
    return { type: 'offer' as const, sdp: 'v=0 offer' };
  }
  async setLocalDescription(d: RTCSessionDescriptionInit) {
    this.localDescription = { type: d.type, sdp: `${d.sdp} +candidates` };
    setTimeout(() => {
      this.iceGatheringState = 'complete';
      this.dispatchEvent(new Event('icegatheringstatechange'));
    }, 1);
  }
  async setRemoteDescription(d: RTCSessionDescriptionInit) {
    this.remoteDescription = d;
    setTimeout(() => {
      const ev = new Event('track') as Event & { streams: unknown[]; track: unknown };
      ev.streams = [{ id: 'media-1', getTracks: () => [] }];
      this.dispatchEvent(ev);
    }, 1);
  }
  close() {
    this.closed = true;
  }
}

interface DeviceAnswers {
  /** pause-stream's reply (or 'error': the call fails). */
  pause?: boolean | 'error';
  /** resume-stream's reply. */
  resume?: boolean;
}

function setup(answer: 'ok' | 'engine-error' = 'ok', device: DeviceAnswers = {}) {
  const calls: Array<{ process: string; payload: unknown }> = [];
  const pcs: FakePeerConnection[] = [];
  const callDevice = (async (_deviceId: string, process: string, payload: unknown) => {
    calls.push({ process, payload });
    if (process === 'send-sdp') {
      if (answer === 'engine-error')
        throw new DeviceCommandError('inferenceEngineError', 'engine down', process);
      return {
        callId: 'c1',
        sdp: { type: 'answer', sdp: 'v=0 answer' },
        resolution: { pixel_format: 'I420', width: 640, height: 480, fps: 15 },
      };
    }
    if (process === 'pause-stream') {
      if (device.pause === 'error')
        throw new DeviceCommandError('unknownProcess', 'no such process', process);
      return { paused: device.pause ?? true };
    }
    if (process === 'resume-stream') return { resumed: device.resume ?? true };
    return { stopped: true };
  }) as unknown as CallDevice;
  const sessions = createStreamSessions({
    callDevice,
    getIceServers: () => [{ urls: 'stun:stun.test' }],
    createPeerConnection: (config) => {
      const pc = new FakePeerConnection(config);
      pcs.push(pc);
      return pc as unknown as RTCPeerConnection;
    },
  });
  return { sessions, calls, pcs };
}

const request = { streamId: 'web-x-1', deviceId: 'dev-1', camera: makeCamera('dev-1'), resolution: null };

describe('stream sessions', () => {
  it('offers recvonly video after ICE gathering, sends send-sdp and resolves with the first track', async () => {
    const { sessions, calls, pcs } = setup();
    const started = await sessions.start(request);
    expect(started.mediaStream).toMatchObject({ id: 'media-1' });
    expect(started.resolution).toMatchObject({ width: 640, height: 480 });
    expect(pcs[0]!.config.iceServers).toEqual([{ urls: 'stun:stun.test' }]);
    expect(pcs[0]!.transceivers).toEqual([{ kind: 'video', direction: 'recvonly' }]);
    expect(calls[0]).toEqual({
      process: 'send-sdp',
      payload: { camera_id: 'cam0', callId: 'web-x-1', sdp: { type: 'offer', sdp: 'v=0 offer +candidates' } },
    });
    expect(pcs[0]!.remoteDescription).toEqual({ type: 'answer', sdp: 'v=0 answer' });
  });

  it('release sends stop-stream and closes the peer connection, once', async () => {
    const { sessions, calls, pcs } = setup();
    await sessions.start(request);
    sessions.release(request.streamId);
    sessions.release(request.streamId);
    expect(calls.filter((c) => c.process === 'stop-stream')).toEqual([
      { process: 'stop-stream', payload: { callId: 'web-x-1' } },
    ]);
    expect(pcs[0]!.closed).toBe(true);
    expect(sessions.has(request.streamId)).toBe(false);
  });

  it("rejects with the device's inferenceEngineError and leaves nothing open", async () => {
    const { sessions, pcs } = setup('engine-error');
    await expect(sessions.start(request)).rejects.toMatchObject({ code: 'inferenceEngineError' });
    expect(pcs[0]!.closed).toBe(true);
    expect(sessions.has(request.streamId)).toBe(false);
  });

  it('releases everything when the start is aborted', async () => {
    const { sessions, pcs } = setup();
    const abort = new AbortController();
    const started = sessions.start(request, abort.signal);
    abort.abort();
    await expect(started).rejects.toThrow();
    expect(pcs[0]!.closed).toBe(true);
  });

  it('hold sends pause-stream and keeps the peer connection; resume sends resume-stream on it', async () => {
    const { sessions, calls, pcs } = setup();
    await sessions.start(request);
    sessions.hold(request.streamId);
    await new Promise((r) => setTimeout(r, 5));
    expect(calls.at(-1)).toEqual({ process: 'pause-stream', payload: { callId: 'web-x-1' } });
    expect(pcs[0]!.closed).toBe(false);
    expect(sessions.has(request.streamId)).toBe(true);
    await expect(sessions.resume(request.streamId)).resolves.toBe(true);
    expect(calls.at(-1)).toEqual({ process: 'resume-stream', payload: { callId: 'web-x-1' } });
    expect(pcs).toHaveLength(1);
    expect(pcs[0]!.closed).toBe(false);
  });

  it('a hold the device refuses or cannot do releases the session instead', async () => {
    for (const pause of [false, 'error'] as const) {
      const { sessions, calls, pcs } = setup('ok', { pause });
      await sessions.start(request);
      sessions.hold(request.streamId);
      await new Promise((r) => setTimeout(r, 5));
      expect(calls.map((c) => c.process)).toEqual(['send-sdp', 'pause-stream', 'stop-stream']);
      expect(pcs[0]!.closed).toBe(true);
      await expect(sessions.resume(request.streamId)).resolves.toBe(false);
    }
  });

  it('resume answers false and releases when the device no longer has the stream or the pc failed', async () => {
    const gone = setup('ok', { resume: false });
    await gone.sessions.start(request);
    gone.sessions.hold(request.streamId);
    await expect(gone.sessions.resume(request.streamId)).resolves.toBe(false);
    expect(gone.pcs[0]!.closed).toBe(true);
    expect(gone.sessions.has(request.streamId)).toBe(false);

    const failed = setup();
    await failed.sessions.start(request);
    failed.pcs[0]!.connectionState = 'failed';
    await expect(failed.sessions.resume(request.streamId)).resolves.toBe(false);
    expect(failed.calls.map((c) => c.process)).not.toContain('resume-stream');
    expect(failed.pcs[0]!.closed).toBe(true);
  });
});
