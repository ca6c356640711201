/**
 * Child process of churn.test.ts (a crash of native WebRTC code kills the process it runs in): a
 * StreamManager with two sim cameras gets CHURN_WORKERS links at once, each sending CHURN_PER_LINK send-sdp —
 * the fuzz's minimal offer (a video m-line, no ICE/DTLS attributes) and real offers of wrtc peer connections,
 * callIds shared between links — with pause/resume of its streams in flight, then closed (stopLink) 50–450 ms
 * later (the last worker's 1.5–2.5 s later), for CHURN_SECONDS. Prints one JSON line and exits 0 when it survives with nothing left over.
 */
import { SimCamera } from '../../../src/agent/backends/sim/camera';
import type { CameraDevice } from '../../../src/agent/backends/types';
import { silentLogger } from '../../../src/agent/log';
import { StreamManager } from '../../../src/agent/streams/manager';
import { wrtc } from '../../../src/agent/wrtc';

const GARBAGE = 'v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n';
const seconds = Number(process.env.CHURN_SECONDS ?? 5);
const workers = Number(process.env.CHURN_WORKERS ?? 6);
const perLink = Number(process.env.CHURN_PER_LINK ?? 20);
let seed = Number(process.env.CHURN_SEED ?? 1);
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};

const cameras: CameraDevice[] = [new SimCamera('dev-churn', 1), new SimCamera('dev-churn', 2)];
const manager = new StreamManager(
  { find: (id) => cameras.find((c) => c.cameraId === id) },
  { iceServers: () => [], logger: silentLogger, iceGatheringWaitMs: 300 },
);

/** A real recvonly offer (what a browser sends), made once and reused. */
async function realOffer(): Promise<string> {
  const pc = new wrtc.RTCPeerConnection({ iceServers: [] }) as unknown as RTCPeerConnection;
  pc.addTransceiver('video', { direction: 'recvonly' });
  await pc.setLocalDescription(await pc.createOffer());
  const sdp = pc.localDescription!.sdp;
  pc.close();
  return sdp;
}

async function main(): Promise<void> {
  const offer = await realOffer();
  const end = Date.now() + seconds * 1000;
  const counts = { links: 0, answered: 0, refused: 0 };
  const pending: Promise<unknown>[] = [];
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      while (Date.now() < end) {
        const linkId = `link-${w}-${counts.links++}`;
        const browserId = `web-${w}`;
        for (let k = 0; k < perLink; k++) {
          const callId = `call-${w}-${rand(4)}`;
          const started = manager
            .start({
              callId,
              cameraId: rand(2) === 0 ? 'cam-1' : 'cam-2',
              offerSdp: rand(3) === 0 ? GARBAGE : offer,
              browserId,
              linkId,
            })
            .then(
              async () => {
                counts.answered++;
                // Hold and resume it while the link may be closing.
                await manager.pause(callId, browserId);
                await manager.resume(callId, browserId);
              },
              () => counts.refused++,
            );
          pending.push(started);
        }
        // Links close 50–450 ms later (the fuzz); the last worker's live long enough for streams to start.
        const long = w === workers - 1;
        await new Promise((r) => setTimeout(r, long ? 1_500 + rand(1_000) : 50 + rand(400)));
        manager.stopLink(linkId);
      }
    }),
  );
  await Promise.all(pending);
  // Streams that started after their link closed must not be left over: stopLink ended or refused them.
  const left = manager.count + manager.pausedCount;
  manager.closeAll();
  console.log(JSON.stringify({ ...counts, left }));
  process.exit(left === 0 ? 0 : 3);
}

void main().catch((err) => {
  console.error(err);
  process.exit(2);
});
