/**
 * Issue 15 "Relayed WebRTC", the agent's half on the real parts: Debian's coturn (`turnserver`, started here on
 * loopback with `use-auth-secret`) accepts the credentials the server mints (src/server/signalling/turn.ts), and
 * two Node WebRTC peers (@roamhq/wrtc, as the agent uses) with `iceTransportPolicy: 'relay'` connect through
 * it: a data channel message arrives and both selected candidate pairs are relay/relay. Credentials signed
 * with another secret, or expired, get no relayed candidate.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, openSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrtc } from '../../../src/agent/wrtc';
import { waitForIceGathering } from '../../../src/agent/streams/manager';
import type { IceServer } from '../../../src/protocol';
import { mintTurnCredentials, type TurnConfig } from '../../../src/server/signalling/turn';

let turn: ChildProcess | null = null;
let config: TurnConfig;
let log = '';

function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createSocket('udp4');
    s.once('error', reject);
    s.bind(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'turn-unit-'));
  log = path.join(dir, 'turnserver.log');
  const port = await freeUdpPort();
  const secret = randomBytes(16).toString('hex');
  config = { urls: [`turn:127.0.0.1:${port}?transport=udp`], secret, ttlS: 600 };
  turn = spawn(
    'turnserver',
    ['-n', '--listening-ip=127.0.0.1', '--relay-ip=127.0.0.1', `--listening-port=${port}`, '--use-auth-secret',
      `--static-auth-secret=${secret}`, '--realm=edge.local', '--no-tls', '--no-dtls', '--allow-loopback-peers',
      '--no-cli', `--db=${path.join(dir, 'turndb')}`, '--log-file=stdout', '--simple-log', '--verbose'],
    { stdio: ['ignore', openSync(log, 'w'), 'ignore'] },
  ); // prettier-ignore
  turn.once('error', (e) => {
    throw new Error(`turnserver did not start (is Debian's coturn installed?): ${e.message}`);
  });
  const end = Date.now() + 15_000;
  while (!/Total General servers/.test(readFileSync(log, 'utf8'))) {
    if (Date.now() > end || turn.exitCode !== null)
      throw new Error(`turnserver did not start:\n${readFileSync(log, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 20_000);

afterAll(async () => {
  if (!turn || turn.exitCode !== null) return;
  const exited = new Promise((r) => turn!.once('exit', r));
  turn.kill('SIGTERM');
  await exited;
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
      expect(
        (readFileSync(log, 'utf8').match(/ALLOCATE processed, success/g) ?? []).length,
      ).toBeGreaterThanOrEqual(2);
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
