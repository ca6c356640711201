/**
 * Loopback harness for agent tests: a real PeerJS server on 127.0.0.1, one agent with a fake server API
 * (local JWKS), and Node PeerJS clients (wrtc) playing browsers. `openStream` does what the console does for a
 * stream (recvonly offer after ICE gathering, send-sdp, answer) and counts the frames wrtc decodes.
 */
import http from 'node:http';
import type { DataConnection, Peer as PeerType } from 'peerjs';
import { PeerServer } from 'peer';
import { guardLateSignals } from '../../../src/protocol/peerjsGuard';
import { startAgent } from '../../../src/agent/index';
import type { AgentOptions, RunningAgent } from '../../../src/agent/index';
import { silentLogger } from '../../../src/agent/log';
import { peerOptions } from '../../../src/agent/link/signalling';
import { loadPeer, nonstandard, wrtc } from '../../../src/agent/wrtc';
import type { ReplyMessage } from '../../../src/protocol';
import { fakeServerApi, makeKeys, signGrant } from './helpers';
import type { TestKeys } from './helpers';

export type AnyMessage = { type: string; [k: string]: unknown };

/** A browser-side view of one data connection: every message it received, and waiting helpers. */
export class TestLink {
  readonly messages: AnyMessage[] = [];
  private waiters: { match: (m: AnyMessage) => boolean; resolve: (m: AnyMessage) => void }[] = [];
  private seq = 0;
  closed = false;

  constructor(readonly conn: DataConnection) {
    conn.on('data', (d) => {
      const m = d as AnyMessage;
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => (w.match(m) ? (w.resolve(m), false) : true));
    });
    conn.on('close', () => {
      this.closed = true;
    });
  }

  next(match: (m: AnyMessage) => boolean, what = 'message', timeoutMs = 10_000): Promise<AnyMessage> {
    const seen = this.messages.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no ${what} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(t);
          resolve(m);
        },
      });
    });
  }

  async call(process: string, payload?: unknown): Promise<ReplyMessage> {
    const requestId = `q${++this.seq}`;
    const reply = this.next(
      (m) => m.type === 'reply' && m.requestId === requestId,
      `reply to ${process}`,
      20_000,
    );
    void this.conn.send({ type: 'request', process, requestId, payload });
    return (await reply) as unknown as ReplyMessage;
  }
}

/** A stream as a test browser sees it. */
export interface TestStream {
  pc: RTCPeerConnection;
  reply: ReplyMessage;
  /** Decoded frames so far (0 when the send-sdp failed). */
  frames(): number;
  /** Size of the last decoded frame. */
  lastSize(): { width: number; height: number } | null;
  /** Resolves at the first decoded frame with the ms elapsed since send-sdp was sent. */
  firstFrame: Promise<number>;
  close(): void;
}

/** Offers a recvonly video stream of `cameraId` over `link` and decodes what arrives. */
export async function openStream(
  link: TestLink,
  cameraId: string,
  callId: string,
  resolution?: { pixel_format: string; width: number; height: number; fps: number },
): Promise<TestStream> {
  const pc = new wrtc.RTCPeerConnection({ iceServers: [] }) as unknown as RTCPeerConnection;
  pc.addTransceiver('video', { direction: 'recvonly' });
  let count = 0;
  let size: { width: number; height: number } | null = null;
  let sink: { stop(): void; onframe: unknown } | null = null;
  let t0 = 0;
  let onFirst: (ms: number) => void = () => {};
  const firstFrame = new Promise<number>((resolve) => {
    onFirst = resolve;
  });
  pc.ontrack = (e: RTCTrackEvent) => {
    sink = new nonstandard.RTCVideoSink(e.track);
    sink.onframe = ({ frame }: { frame: { width: number; height: number } }) => {
      if (count === 0) onFirst(performance.now() - t0);
      count++;
      size = { width: frame.width, height: frame.height };
    };
  };
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') resolve();
    pc.onicecandidate = (e: RTCPeerConnectionIceEvent) => !e.candidate && resolve();
  });
  t0 = performance.now();
  const reply = await link.call('send-sdp', {
    camera_id: cameraId,
    callId,
    sdp: { type: 'offer', sdp: pc.localDescription!.sdp },
    ...(resolution ? { resolution } : {}),
  });
  if (reply.ok) {
    await pc.setRemoteDescription((reply.data as { sdp: RTCSessionDescriptionInit }).sdp);
  }
  return {
    pc,
    reply,
    frames: () => count,
    lastSize: () => size,
    firstFrame,
    close: () => {
      (sink as { stop(): void } | null)?.stop();
      pc.close();
    },
  };
}

/** A running loopback: signalling server, one agent, helpers to open browsers and greeted links. */
export interface Loopback {
  deviceId: string;
  keys: TestKeys;
  agent: RunningAgent;
  api: ReturnType<typeof fakeServerApi>;
  /** A browser peer registered with signalling. */
  browser(id: string): Promise<PeerType>;
  /** A link from `peer` (peer id `browserId`) that passed hello. */
  greeted(peer: PeerType, browserId: string): Promise<TestLink>;
  close(): Promise<void>;
}

/** Starts a signalling server on `port` and one agent (sim backend unless `agent` says otherwise). */
export async function startLoopback(
  port: number,
  deviceId: string,
  agent: Partial<AgentOptions> = {},
  ipCameras: { id: string; label: string; url: string }[] = [],
): Promise<Loopback> {
  const server = `http://127.0.0.1:${port}`;
  const keys = await makeKeys();
  const httpServer = await new Promise<http.Server>((resolve) => {
    PeerServer({ port, host: '127.0.0.1', path: '/peerjs', key: 'peerjs' }, (s) => resolve(s as http.Server));
  });
  const api = fakeServerApi(deviceId, keys, '0', ipCameras);
  const running = await startAgent({
    server,
    token: 'device-token',
    backend: 'sim',
    cameras: 2,
    api,
    logger: silentLogger,
    ...agent,
  });
  const peers: PeerType[] = [];
  const links: TestLink[] = [];
  return {
    deviceId,
    keys,
    agent: running,
    api,
    async browser(id) {
      const Peer = await loadPeer();
      const peer = new Peer(id, peerOptions(server, 'browser-token', []));
      peers.push(peer);
      await new Promise<void>((resolve, reject) => {
        peer.once('open', () => resolve());
        peer.once('error', reject);
      });
      return peer;
    },
    async greeted(peer, browserId) {
      // Guarded as the console guards its device links (protocol/peerjsGuard.ts).
      const link = new TestLink(
        guardLateSignals(peer.connect(deviceId, { serialization: 'json', reliable: true })),
      );
      links.push(link);
      await new Promise<void>((resolve) => link.conn.once('open', () => resolve()));
      void link.conn.send({
        type: 'hello',
        grant: await signGrant(keys, { device_id: deviceId, browser_id: browserId }),
      });
      await link.next((m) => m.type === 'hello.ok');
      return link;
    },
    async close() {
      for (const l of links) l.conn.close();
      for (const p of peers) p.destroy();
      await running.close();
      httpServer.closeAllConnections();
      await new Promise((r) => httpServer.close(r));
    },
  };
}
