/**
 * Signalling fuzzing: a second signed-in user opens a PeerJS signalling socket with their own browser token
 * and sends hostile messages of every type (OFFER, ANSWER, CANDIDATE, LEAVE, EXPIRE, HEARTBEAT, the
 * server-only ones, unknown types) to the first user's device: no payload, payloads without serialization or
 * of the wrong type, hostile connection ids (also the owner's live one), spoofed `src`, huge messages, invalid
 * JSON, binary frames, and floods. Afterwards the owner must still reach the device (a link opened before
 * the attack still answers, a new one connects and answers ping) and the server must still answer.
 * A socket the server closes (a refused frame) is opened anew.
 */
import WebSocket from 'ws';
import type { FuzzEnv, FuzzUser, OwnerLink } from './env';
import { browserIdOf, browserToken, withTimeout } from './env';
import { HOSTILE_STRINGS, hugeString } from './generate';
import { Rng } from './random';
import { clip, pool, type Recorder } from './report';

export const SIGNALLING_TYPES = [
  'OFFER',
  'ANSWER',
  'CANDIDATE',
  'LEAVE',
  'EXPIRE',
  'HEARTBEAT',
  'OPEN',
  'ID-TAKEN',
  'ERROR',
  'INVALID-KEY',
  '(unknown)',
] as const;

/** A raw signalling socket of one browser peer. */
export class RawSignalSocket {
  private constructor(
    readonly ws: WebSocket,
    readonly id: string,
  ) {}

  static async open(serverUrl: string, user: FuzzUser): Promise<RawSignalSocket> {
    const id = browserIdOf('hostile');
    const token = await browserToken({ url: serverUrl }, user, id);
    // The browser token as the console's browser sends it: the cookie get_browser_token set (issue 15).
    const params = new URLSearchParams({
      key: 'peerjs',
      id,
      token: `f${Math.random().toString(36).slice(2)}`,
    });
    const ws = new WebSocket(`${serverUrl.replace(/^http/, 'ws')}/peerjs/peerjs?${params}`, {
      headers: { cookie: `edge_sig_${id}=${token}` },
    });
    ws.on('error', () => {});
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        ws.once('unexpected-response', (_req, res) =>
          reject(new Error(`signalling upgrade refused: ${res.statusCode}`)),
        );
        ws.once('message', () => resolve());
        ws.once('close', () => reject(new Error('signalling socket closed before OPEN')));
      }),
      10_000,
      new Error('no OPEN from signalling within 10 s'),
    );
    return new RawSignalSocket(ws, id);
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  send(data: string | Buffer): boolean {
    if (!this.open) return false;
    this.ws.send(data);
    return true;
  }

  /** Resolves when everything sent has left the socket (or it closed). */
  async flushed(timeoutMs = 10_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (this.open && this.ws.bufferedAmount > 0 && Date.now() < end)
      await new Promise((r) => setTimeout(r, 10));
  }

  close(): void {
    this.ws.terminate();
  }
}

/** One hostile signalling frame. */
export interface SignalCase {
  index: number;
  type: (typeof SIGNALLING_TYPES)[number];
  label: string;
  frame: string | Buffer;
}

interface Targets {
  device: string;
  ownerBrowser: string;
  ownerConnectionId: string;
}

const SDP =
  'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n';

/** Payloads, from plausible to absurd, for a message type. */
function payloadFor(type: string, rng: Rng, t: Targets): { label: string; payload?: unknown } {
  const connectionId = rng.pick([
    `dc_${rng.string(12)}`,
    t.ownerConnectionId,
    '__proto__',
    'constructor',
    hugeString(5_000, 'c'),
    rng.pick(HOSTILE_STRINGS),
  ]);
  const choices: [string, () => unknown][] = [
    ['none', () => undefined],
    ['empty', () => ({})],
    ['string', () => 'payload'],
    ['number', () => rng.pick([42, -1, 1e308])],
    ['array', () => [1, 2, 3]],
    ['null', () => null],
    ['no-serialization', () => ({ type: 'data', connectionId, sdp: { type: 'offer', sdp: SDP } })],
    [
      'unknown-serialization',
      () => ({
        type: 'data',
        connectionId,
        serialization: rng.pick(['evil', '__proto__', 'constructor', 42]),
        sdp: { type: 'offer', sdp: SDP },
      }),
    ],
    [
      'full-data-offer',
      () => ({
        type: 'data',
        connectionId,
        serialization: 'json',
        reliable: true,
        sdp: { type: 'offer', sdp: SDP },
      }),
    ],
    [
      'originator',
      () => ({
        type: 'data',
        connectionId,
        serialization: 'json',
        originator: true,
        sdp: { type: 'offer', sdp: SDP },
      }),
    ],
    ['media', () => ({ type: 'media', connectionId, sdp: { type: 'offer', sdp: SDP } })],
    [
      'wrong-kind',
      () => ({
        type: rng.pick(['x', 42, null, '__proto__']),
        connectionId,
        sdp: { type: 'offer', sdp: SDP },
      }),
    ],
    [
      'sdp-wrong-type',
      () => ({
        type: 'data',
        connectionId,
        serialization: 'json',
        sdp: rng.pick(['x', 42, null, { type: 42 }, { sdp: 42 }]),
      }),
    ],
    ['answer', () => ({ type: 'data', connectionId, sdp: { type: 'answer', sdp: 'garbage' } })],
    [
      'candidate',
      () => ({
        type: 'data',
        connectionId,
        candidate: rng.pick<unknown>([
          { candidate: 'candidate:1 1 udp 1 10.0.0.1 9 typ host', sdpMid: '0', sdpMLineIndex: 0 },
          { candidate: 'garbage', sdpMid: 42, sdpMLineIndex: 'x' },
          'garbage',
          null,
          { candidate: hugeString(10_000) },
        ]),
      }),
    ],
    [
      'huge-sdp',
      () => ({
        type: 'data',
        connectionId,
        serialization: 'json',
        sdp: { type: 'offer', sdp: hugeString(rng.pick([70_000, 1_000_000])) },
      }),
    ],
    [
      'proto',
      () =>
        JSON.parse(
          '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"type":"data","connectionId":"dc_proto"}',
        ),
    ],
    ['deep', () => JSON.parse('['.repeat(1_000) + ']'.repeat(1_000))],
  ];
  const [label, make] = rng.pick(choices);
  void type;
  return { label, payload: make() };
}

/** Builds hostile frame `index` (reproducible from the seed and index). */
export function buildSignalCase(index: number, rng: Rng, t: Targets): SignalCase {
  const type = SIGNALLING_TYPES[index % SIGNALLING_TYPES.length]!;
  const r = rng.next();
  if (r < 0.1) {
    // Not a PeerJS message at all.
    const frame = rng.pick<string | Buffer>([
      'garbage',
      '{',
      '',
      'null',
      '[]',
      '"OFFER"',
      JSON.stringify({ type: 'OFFER', dst: t.device }).slice(0, -1),
      Buffer.from([0xff, 0xfe, 0x00, 0x01]),
      Buffer.from(JSON.stringify({ type: 'OFFER', dst: t.device })),
      '\u0000',
      '{"type":"OFFER","dst":"' + t.device + '","payload":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}',
    ]);
    return {
      index,
      type,
      label: `invalid-frame:${clip(typeof frame === 'string' ? JSON.stringify(frame) : `<${frame.length} bytes>`, 40)}`,
      frame,
    };
  }
  const typeValue: unknown =
    type === '(unknown)'
      ? rng.pick<unknown>(['FOO', '', 'offer', 42, null, ['OFFER'], { t: 1 }, hugeString(300)])
      : type;
  const { label, payload } = payloadFor(type, rng, t);
  let dst: unknown = t.device;
  let dstLabel = '';
  if (rng.chance(0.12)) {
    dst = rng.pick<unknown>([
      undefined,
      null,
      42,
      '',
      t.ownerBrowser,
      '__proto__',
      hugeString(300),
      ['x'],
      rng.pick(HOSTILE_STRINGS),
    ]);
    dstLabel = ` dst:${clip(JSON.stringify(dst) ?? 'missing', 30)}`;
  }
  const msg: Record<string, unknown> = { type: typeValue, dst, payload };
  let srcLabel = '';
  if (rng.chance(0.1)) {
    msg.src = rng.pick<unknown>([t.ownerBrowser, t.device, 42, '']);
    srcLabel = ` src:${clip(JSON.stringify(msg.src), 30)}`;
  }
  if (rng.chance(0.05)) {
    for (const k of ['a', 'b', 'c']) msg[`extra_${k}`] = hugeString(1_000);
  }
  return { index, type, label: `${label}${dstLabel}${srcLabel}`, frame: JSON.stringify(msg) ?? 'null' };
}

const describeFrame = (f: string | Buffer) =>
  typeof f === 'string' ? clip(f, 500) : `<${f.length} bytes> ${clip(f.toString('utf8'), 200)}`;

/**
 * Sends `n` hostile frames (cycling through the types) and floods (`flood` OFFERs without payload, then
 * `flood` of each other type), with `sockets` hostile sockets side by side. Then checks the owner still
 * reaches the device and the server answers.
 */
export async function fuzzSignalling(
  env: FuzzEnv,
  n: number,
  flood: number,
  seed: number,
  recorder: Recorder,
  ownerLinkBefore: OwnerLink,
  sockets = 2,
): Promise<void> {
  const t: Targets = {
    device: env.agentDevice.device_id,
    ownerBrowser: ownerLinkBefore.browserId,
    ownerConnectionId: ownerLinkBefore.conn.connectionId,
  };
  const master = new Rng(seed ^ 0x27d4eb2d);
  const socks: RawSignalSocket[] = [];
  let reopened = 0;
  const socketFor = async (k: number): Promise<RawSignalSocket> => {
    const s = socks[k];
    if (s?.open) return s;
    s?.close();
    if (s) reopened++;
    const fresh = await RawSignalSocket.open(env.server.url, env.other);
    socks[k] = fresh;
    return fresh;
  };
  const t0 = performance.now();
  try {
    await pool(n, sockets, async (i) => {
      const c = buildSignalCase(i, master.fork(i), t);
      const sock = await socketFor(i % sockets);
      const sent = sock.send(c.frame);
      if (i % 50 === 0) await sock.flushed();
      recorder.count('signalling', c.type, sent ? 'sent' : 'socket-closed', 0, c.label);
    });
    // Floods: the issue's OFFER without payload, then every type.
    const sock = await socketFor(0);
    for (const type of SIGNALLING_TYPES) {
      const count = type === 'OFFER' ? flood * 2 : Math.ceil(flood / 4);
      for (let k = 0; k < count; k++) {
        const s = sock.open ? sock : await socketFor(0);
        const ok = s.send(JSON.stringify({ type: type === '(unknown)' ? 'FLOOD' : type, dst: t.device }));
        recorder.count('signalling', type, ok ? 'flood-sent' : 'socket-closed', 0, 'flood');
      }
      await sock.flushed();
    }
    for (const s of socks) await s?.flushed();
  } finally {
    recorder.areas.signalling.durationMs = Math.round(performance.now() - t0);
    recorder.areas.signalling.outcomes['sockets-reopened'] = reopened;
  }
  // Let the agent work through what reached it, then the hostile sockets go.
  await new Promise((r) => setTimeout(r, 1_000));
  for (const s of socks) s?.close();
}

export { describeFrame };
