import { describe, expect, it } from 'vitest';
import { DeviceCommandError } from '../../../src/console/platform/deviceRpc';
import type { CallDevice } from '../../../src/console/platform/peerLink';
import { openStreamSession, type SessionReport } from '../../../src/console/features/cameras/streamSession';
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

const request = { streamId: 'web-x-1', deviceId: 'dev-1', camera: makeCamera('dev-1'), resolution: null };

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
  const reports: SessionReport[] = [];
  const session = openStreamSession(
    {
      callDevice,
      getIceServers: () => [{ urls: 'stun:stun.test' }],
      createPeerConnection: (config) => {
        const pc = new FakePeerConnection(config);
        pcs.push(pc);
        return pc as unknown as RTCPeerConnection;
      },
    },
    request,
    (report) => reports.push(report),
  );
  /** Waits until the session reported `type` (its latest such report). */
  const reported = async <T extends SessionReport['type']>(type: T) => {
    for (let i = 0; i < 100; i++) {
      const hit = reports.findLast((r) => r.type === type);
      if (hit) return hit as Extract<SessionReport, { type: T }>;
      await new Promise((r) => setTimeout(r, 2));
    }
    throw new Error(`no ${type} report; got ${reports.map((r) => r.type).join(', ')}`);
  };
  return { session, calls, pcs, reports, reported };
}

describe('stream session', () => {
  it('offers recvonly video after ICE gathering, sends send-sdp and reports the first track', async () => {
    const { calls, pcs, reported } = setup();
    const started = await reported('session.started');
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

  it('close sends stop-stream and closes the peer connection, once', async () => {
    const { session, calls, pcs, reported } = setup();
    await reported('session.started');
    session.close();
    session.close();
    expect(calls.filter((c) => c.process === 'stop-stream')).toEqual([
      { process: 'stop-stream', payload: { callId: 'web-x-1' } },
    ]);
    expect(pcs[0]!.closed).toBe(true);
    expect(session.peerConnection()).toBeNull();
  });

  it("reports the device's inferenceEngineError and leaves nothing open", async () => {
    const { session, pcs, reported } = setup('engine-error');
    const failed = await reported('session.failed');
    expect(failed.error).toMatchObject({ code: 'inferenceEngineError' });
    expect(pcs[0]!.closed).toBe(true);
    expect(session.peerConnection()).toBeNull();
  });

  it('closing during the negotiation closes everything and reports nothing', async () => {
    const { session, pcs, reports, calls } = setup();
    session.close();
    await new Promise((r) => setTimeout(r, 20));
    expect(pcs[0]!.closed).toBe(true);
    expect(reports).toEqual([]);
    expect(calls.map((c) => c.process)).not.toContain('send-sdp');
  });

  it('hold sends pause-stream and keeps the peer connection; resume sends resume-stream on it', async () => {
    const { session, calls, pcs, reported } = setup();
    await reported('session.started');
    session.command({ type: 'session.hold' });
    await new Promise((r) => setTimeout(r, 5));
    expect(calls.at(-1)).toEqual({ process: 'pause-stream', payload: { callId: 'web-x-1' } });
    expect(pcs[0]!.closed).toBe(false);
    session.command({ type: 'session.resume' });
    expect(await reported('session.resumed')).toEqual({ type: 'session.resumed', resumed: true });
    expect(calls.at(-1)).toEqual({ process: 'resume-stream', payload: { callId: 'web-x-1' } });
    expect(pcs).toHaveLength(1);
    expect(pcs[0]!.closed).toBe(false);
  });

  it('a hold the device refuses or cannot do closes the session instead', async () => {
    for (const pause of [false, 'error'] as const) {
      const { session, calls, pcs, reported } = setup('ok', { pause });
      await reported('session.started');
      session.command({ type: 'session.hold' });
      await new Promise((r) => setTimeout(r, 5));
      expect(calls.map((c) => c.process)).toEqual(['send-sdp', 'pause-stream', 'stop-stream']);
      expect(pcs[0]!.closed).toBe(true);
      session.command({ type: 'session.resume' });
      expect(await reported('session.resumed')).toEqual({ type: 'session.resumed', resumed: false });
    }
  });

  it('resume answers false and closes when the device no longer has the stream or the pc failed', async () => {
    const gone = setup('ok', { resume: false });
    await gone.reported('session.started');
    gone.session.command({ type: 'session.hold' });
    gone.session.command({ type: 'session.resume' });
    expect(await gone.reported('session.resumed')).toEqual({ type: 'session.resumed', resumed: false });
    expect(gone.pcs[0]!.closed).toBe(true);
    expect(gone.session.peerConnection()).toBeNull();

    const failed = setup();
    await failed.reported('session.started');
    failed.pcs[0]!.connectionState = 'failed';
    failed.session.command({ type: 'session.resume' });
    expect(await failed.reported('session.resumed')).toEqual({ type: 'session.resumed', resumed: false });
    expect(failed.calls.map((c) => c.process)).not.toContain('resume-stream');
    expect(failed.pcs[0]!.closed).toBe(true);
  });

  it('reports stream.ended when the playing connection fails', async () => {
    const { pcs, reported } = setup();
    await reported('session.started');
    pcs[0]!.connectionState = 'failed';
    pcs[0]!.dispatchEvent(new Event('connectionstatechange'));
    expect(await reported('stream.ended')).toEqual({
      type: 'stream.ended',
      error: 'Stream connection failed.',
    });
  });
});
