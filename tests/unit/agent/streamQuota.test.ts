/**
 * Issue 15 "The device enforces its own stream quota": the StreamManager with real wrtc peer connections on
 * loopback and a quota of 16 (the free tier, README "Stream quota") refuses a 17th send-sdp with
 * STREAM_QUOTA_ERROR and the quota in its words, and stopping one stream frees its slot.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/agent/log';
import { StreamManager } from '../../../src/agent/streams/manager';
import { wrtc } from '../../../src/agent/wrtc';
import {
  STREAM_QUOTA_ERROR,
  parseStreamQuotaMessage,
  streamQuotaMessage,
} from '../../../src/protocol/streams';
import { CountingCamera } from './helpers';

const QVGA = { pixel_format: 'I420', width: 320, height: 240, fps: 15 };
const pcs: RTCPeerConnection[] = [];
let manager: StreamManager | null = null;

afterEach(() => {
  manager?.closeAll();
  manager = null;
  for (const pc of pcs.splice(0)) pc.close();
});

/** A browser's recvonly offer after ICE gathering (non-trickle, as the console sends it). */
async function offer(): Promise<string> {
  const pc = new wrtc.RTCPeerConnection({ iceServers: [] }) as unknown as RTCPeerConnection;
  pcs.push(pc);
  pc.addTransceiver('video', { direction: 'recvonly' });
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') resolve();
    pc.onicecandidate = (e: RTCPeerConnectionIceEvent) => !e.candidate && resolve();
  });
  return pc.localDescription!.sdp;
}

const start = async (m: StreamManager, i: number) =>
  m.start({
    callId: `call-${i}`,
    cameraId: 'cam-1',
    offerSdp: await offer(),
    resolution: QVGA,
    browserId: 'web-viewer',
    linkId: 'link-1',
  });

describe('the stream quota on the device', () => {
  it('refuses a 17th stream on a quota of 16, and a stopped stream frees its slot', async () => {
    const camera = new CountingCamera('dev-quota', 1);
    let quota = 16;
    const m = new StreamManager(
      { find: (id) => (id === camera.cameraId ? camera : undefined) },
      { iceServers: () => [], logger: silentLogger, maxStreams: () => quota },
    );
    manager = m;
    for (let i = 1; i <= 16; i++) await start(m, i);
    expect(m.count).toBe(16);

    const refused = await start(m, 17).then(
      () => null,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(refused).toMatchObject({ code: STREAM_QUOTA_ERROR, message: streamQuotaMessage(16) });
    expect(parseStreamQuotaMessage(refused!.message)).toBe(16);
    expect(m.count).toBe(16);

    // Closing one frees a slot: the 17th starts now, and an 18th is refused again.
    expect(m.stop('call-3', 'web-viewer')).toBe(true);
    await expect(start(m, 17)).resolves.toMatchObject({ sdp: { type: 'answer' } });
    expect(m.count).toBe(16);
    await expect(start(m, 18)).rejects.toMatchObject({ code: STREAM_QUOTA_ERROR });

    // The same viewer restarting one of its streams (same callId) is not a new stream: it is not refused.
    await expect(start(m, 17)).resolves.toMatchObject({ sdp: { type: 'answer' } });

    // A raised quota (a licence bought, device/me read again) is applied to the next start.
    quota = 17;
    await expect(start(m, 18)).resolves.toMatchObject({ sdp: { type: 'answer' } });
    expect(m.count).toBe(17);
  }, 60_000);

  it('parseStreamQuotaMessage reads only its own text', () => {
    expect(parseStreamQuotaMessage(streamQuotaMessage(32))).toBe(32);
    expect(parseStreamQuotaMessage('Camera cam-1 does not exist on this device')).toBeNull();
    expect(parseStreamQuotaMessage(null)).toBeNull();
  });
});
