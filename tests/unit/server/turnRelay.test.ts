/**
 * Issue 15 "Relayed WebRTC", the agent's half on the real parts: Debian's coturn (`turnserver`, started here on
 * loopback with `use-auth-secret`) accepts the credentials the server mints (src/server/signalling/turn.ts), and
 * two Node WebRTC peers (@roamhq/wrtc, as the agent uses) with `iceTransportPolicy: 'relay'` connect through
 * it: a data channel message arrives and both selected candidate pairs are relay/relay. Credentials signed
 * with another secret, or expired, get no relayed candidate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrtc } from '../../../src/agent/wrtc';
import { waitForIceGathering } from '../../../src/agent/streams/manager';
import type { IceServer } from '../../../src/protocol';
import { mintTurnCredentials, type TurnConfig } from '../../../src/server/signalling/turn';
import { startTurnServer, type TestTurnServer } from '../../coturn';

let dir = '';
let turn: TestTurnServer | null = null;
let config: TurnConfig;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'turn-unit-'));
  turn = await startTurnServer(dir);
  config = { urls: [turn.url], secret: turn.secret, ttlS: 600 };
}, 20_000);

afterAll(async () => {
  await turn?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Pc = RTCPeerConnection;
const newPc = (iceServers: IceServer[]) =>
  new wrtc.RTCPeerConnection({ iceServers, iceTransportPolicy: 'relay' }) as unknown as Pc;

/** Candidate types of the selected pair (local, remote). */
async function selectedTypes(pc: Pc): Promise<{ local?: string; remote?: string }> {
  const stats = await pc.getStats();
  let pair: RTCIceCandidatePairStats | undefined;
  stats.forEach((s: RTCIceCandidatePairStats & { type: string; selectedCandidatePairId?: string }) => {
    if (s.type === 'transport' && s.selectedCandidatePairId) pair = stats.get(s.selectedCandidatePairId);
    if (!pair && s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded') pair = s;
  });
  return {
    local: pair && stats.get(pair.localCandidateId)?.candidateType,
    remote: pair && stats.get(pair.remoteCandidateId)?.candidateType,
  };
}

describe('relay-only WebRTC through coturn with minted credentials', () => {
  it('two wrtc peers connect relay/relay and exchange a message', async () => {
    const a = newPc([mintTurnCredentials(config, 'web-relaytest00000001').server]);
    const b = newPc([mintTurnCredentials(config, 'dev-0123456789abcdef').server]);
    try {
      const dc = a.createDataChannel('relay');
      const received = new Promise<string>((resolve) =>
        b.addEventListener('datachannel', (e) =>
          (e as RTCDataChannelEvent).channel.addEventListener('message', (m) => resolve(String(m.data))),
        ),
      );
      await a.setLocalDescription(await a.createOffer());
      await waitForIceGathering(a, 5_000, false);
      expect(a.localDescription!.sdp).toMatch(/typ relay/);
      expect(a.localDescription!.sdp).not.toMatch(/typ host/);
      await b.setRemoteDescription(a.localDescription!);
      await b.setLocalDescription(await b.createAnswer());
      await waitForIceGathering(b, 5_000, false);
      await a.setRemoteDescription(b.localDescription!);
      await new Promise<void>((resolve) => {
        if (dc.readyState === 'open') resolve();
        else dc.addEventListener('open', () => resolve());
      });
      dc.send('over the relay');
      expect(await received).toBe('over the relay');
      expect(await selectedTypes(a)).toEqual({ local: 'relay', remote: 'relay' });
      expect(await selectedTypes(b)).toEqual({ local: 'relay', remote: 'relay' });
      expect(turn!.allocations()).toBeGreaterThanOrEqual(2);
    } finally {
      a.close();
      b.close();
    }
  }, 30_000);

  it('credentials of another secret or past their expiry get no relayed candidate', async () => {
    const wrong = mintTurnCredentials({ ...config, secret: 'not-the-secret' }, 'dev-0123456789abcdef').server;
    const expired = mintTurnCredentials(config, 'dev-0123456789abcdef', Date.now() - 3600_000).server;
    for (const server of [wrong, expired]) {
      const pc = newPc([server]);
      try {
        pc.createDataChannel('x');
        await pc.setLocalDescription(await pc.createOffer());
        await waitForIceGathering(pc, 5_000, false);
        expect(pc.localDescription!.sdp).not.toMatch(/typ relay/);
      } finally {
        pc.close();
      }
    }
  }, 30_000);
});
