/**
 * Child process of sendRace.test.ts (a native crash in wrtc kills the process it runs in): one agent on a
 * loopback (real PeerJS server, real wrtc peers), and RACE_WORKERS browsers at once that each open a greeted
 * link, ask for RACE_PER_LINK replies near the link's 16 KB limit (log tails and stills) plus pings, and close
 * their peer connection abruptly RACE_CLOSE_MS (random, 0..n) later — while the agent is sending into the
 * link. For RACE_SECONDS. Then a new link must still get ping answered. Prints one JSON line; exit 0 = survived.
 */
import { loadPeer } from '../../../src/agent/wrtc';
import { peerOptions } from '../../../src/agent/link/signalling';
import { startLoopback } from './loopback';

const seconds = Number(process.env.RACE_SECONDS ?? 5);
const workers = Number(process.env.RACE_WORKERS ?? 4);
const perLink = Number(process.env.RACE_PER_LINK ?? 12);
const closeMs = Number(process.env.RACE_CLOSE_MS ?? 30);
const port = Number(process.env.RACE_PORT ?? 19733);
const DEVICE = 'dev-000000005e4dace0';
let seed = Number(process.env.RACE_SEED ?? 7);
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};

/**
 * Nothing may reject unhandled: PeerJS 1.5.5 did when an ICE candidate was still being added as a link closed
 * (negotiator.handleCandidate → `this.connection.provider.emitError` on a null provider); both ends now guard
 * their data connections (src/protocol/peerjsGuard.ts).
 */
let unhandled = 0;
process.on('unhandledRejection', (reason) => {
  unhandled++;
  console.error(
    `unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
  );
});

async function main(): Promise<void> {
  const loop = await startLoopback(port, DEVICE);
  const counts = { links: 0, requests: 0, replies: 0, bytes: 0 };
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      const browserId = `web-race${w}`;
      const peer = await loop.browser(browserId);
      while (Date.now() < end) {
        const link = await loop.greeted(peer, browserId);
        counts.links++;
        link.conn.on('data', (d) => {
          const m = d as { type?: string };
          if (m?.type === 'reply' || m?.type === 'progress') {
            counts.replies++;
            counts.bytes += JSON.stringify(d).length;
          }
        });
        // A followed log at the sim's top pace: the agent streams progress batches of up to 12 KB into the link.
        void link.conn.send({
          type: 'request',
          process: 'log',
          requestId: `log${w}`,
          payload: {
            uuid: `race${w}`,
            topic: 'system',
            subtopic: 'syslog',
            count: 10_000,
            follow: true,
            sim_rate: 5_000,
          },
        });
        for (let k = 0; k < perLink; k++) {
          const process = ['getOneFrameFromPhysicalCamera', 'ping', 'camera-list'][rand(3)]!;
          const payload =
            process === 'getOneFrameFromPhysicalCamera' ? { camera_id: rand(2) ? 'cam-1' : 'cam-2' } : {};
          void link.conn.send({ type: 'request', process, requestId: `r${w}-${k}`, payload });
          counts.requests++;
        }
        await new Promise((r) => setTimeout(r, rand(closeMs + 1)));
        // Abrupt close, as a reloaded tab does: the peer connection goes, the agent learns it from SCTP.
        (link.conn as unknown as { peerConnection?: RTCPeerConnection }).peerConnection?.close();
        link.conn.close();
      }
      peer.destroy();
    }),
  );
  // The agent still answers on a new link.
  const Peer = await loadPeer();
  const after = new Peer('web-raceafter', peerOptions(`http://127.0.0.1:${port}`, 'browser-token', []));
  await new Promise<void>((resolve, reject) => {
    after.once('open', () => resolve());
    after.once('error', reject);
  });
  const link = await loop.greeted(after, 'web-raceafter');
  const pong = await link.call('ping', {});
  after.destroy();
  await loop.close();
  console.log(JSON.stringify({ ...counts, unhandled, pingAfter: pong.ok }));
  process.exit(pong.ok && unhandled === 0 ? 0 : 3);
}

void main().catch((err) => {
  console.error(err);
  process.exit(2);
});
