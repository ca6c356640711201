/**
 * Device-command fuzz cases (tests/fuzz/commands.ts runs them): built from each process's request schema of
 * the command registry (src/protocol/commands.ts) and mutated, plus unknown processes, broken envelopes,
 * non-JSON, wrong frame kinds and oversized messages (past PeerJS's 16 KB: sent straight on the channel).
 * Reproducible from the seed and the case index.
 */
import { deviceCommands } from '../../src/protocol/commands';
import {
  baseline,
  HOSTILE_STRINGS,
  hugeString,
  mutate,
  withOwnKey,
  type Fixtures,
  type JsonSchema,
} from './generate';
import type { Rng } from './random';
import { clip } from './report';

/** PeerJS's JSON channel refuses messages of this many bytes or more; bigger ones go straight on the channel. */
const PEERJS_MAX_BYTES = 16_300;

export const PROCESSES = Object.keys(deviceCommands) as (keyof typeof deviceCommands)[];

/** A garbage SDP offer: valid for the schema, useless for WebRTC. */
const GARBAGE_SDP = 'v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n';

export const FIXTURES: Fixtures = {
  camera_id: ['cam-1', 'cam-2'],
  callId: ['call-1', 'call-2'],
  sdp: [GARBAGE_SDP],
  // An image the sim registry knows (src/agent/containers/simRegistry.ts), so container cases reach the
  // engine; it is already on every sim device, so a download of it answers well inside the harness's 5 s.
  image: ['edge/python:3.11'],
  envName: ['python', 'fuzz-env'],
};

/** How a case goes out on the channel. */
export type Wire =
  | { kind: 'json'; message: unknown } // conn.send: PeerJS JSON serialisation
  | { kind: 'bytes'; bytes: Uint8Array } // straight on the data channel, binary (what PeerJS sends)
  | { kind: 'text'; text: string }; // straight on the data channel as a text frame

/** One command case. */
export interface CommandCase {
  index: number;
  /** Process, or '(envelope)' / '(raw)' / '(oversized)' for cases about the message itself. */
  target: string;
  label: string;
  wire: Wire;
  /**
   * The requestId the reply carries: a unique one, '' (the agent cannot tell: run alone), or null when no
   * reply is due (a keepalive).
   */
  replyId: string | null;
  /** The payload must be refused (invalid_payload or malformed_message). */
  mustRefuse: boolean;
  /** The agent may close the link instead of answering (a message past every limit). */
  mayClose: boolean;
}

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text);

/** A message as JSON text, keeping own `__proto__` keys. */
export const jsonText = (v: unknown) => JSON.stringify(v) ?? 'null';

/** Puts a message on the wire PeerJS would refuse past 16 KB straight on the channel. */
function wireFor(message: unknown): Wire {
  const text = jsonText(message);
  return Buffer.byteLength(text) >= PEERJS_MAX_BYTES
    ? { kind: 'bytes', bytes: bytesOf(text) }
    : { kind: 'json', message };
}

/** Builds case `index` (reproducible from the seed and index). */
export function buildCommandCase(index: number, rng: Rng, requestJson: Map<string, JsonSchema>): CommandCase {
  const requestId = `f${index}`;
  const r = rng.next();
  if (r < 0.78) {
    const process = PROCESSES[index % PROCESSES.length]!;
    const schema = deviceCommands[process].request;
    const json = requestJson.get(process)!;
    let payload = baseline(schema, rng, FIXTURES, json).value;
    let label = 'baseline';
    let mustRefuse = false;
    if (rng.chance(0.8)) {
      const m = mutate(schema, payload, rng, undefined, json);
      if (m) {
        payload = m.value;
        label = m.label;
        mustRefuse = m.expect === 'invalid';
      }
    }
    if (rng.chance(0.03)) {
      label += ' + no-payload';
      payload = undefined;
    }
    // The agent reads an absent or null payload as {} (dispatcher.ts).
    if (payload === undefined || payload === null) mustRefuse = !schema.safeParse({}).success;
    const message = { type: 'request', process, requestId, payload };
    const wire = wireFor(message);
    return {
      index,
      target: process,
      label: wire.kind === 'bytes' ? `${label} (raw ${jsonText(message).length} bytes)` : label,
      wire,
      replyId: requestId,
      mustRefuse,
      mayClose: wire.kind === 'bytes',
    };
  }
  if (r < 0.86) {
    // Unknown or disguised processes.
    const process = rng.pick<unknown>([
      'format-disk',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'PING',
      ' ping',
      'ping\u0000',
      'ping\ud800',
      'x'.repeat(101),
      '',
      '../ping',
      rng.pick(HOSTILE_STRINGS),
      42,
      null,
      ['ping'],
      { name: 'ping' },
    ]);
    return {
      index,
      target: '(unknown-process)',
      label: `process:${clip(JSON.stringify(process) ?? 'undefined', 40)}`,
      wire: { kind: 'json', message: { type: 'request', process, requestId, payload: {} } },
      replyId: requestId,
      mustRefuse: true,
      mayClose: false,
    };
  }
  if (r < 0.92) {
    // Broken envelopes.
    const which = rng.int(0, 7);
    const process = rng.pick(PROCESSES);
    switch (which) {
      case 0: {
        const id = rng.pick<unknown>([undefined, null, 42, {}, [], '', true]);
        return {
          index,
          target: '(envelope)',
          label: `requestId:${JSON.stringify(id) ?? 'missing'}`,
          wire: { kind: 'json', message: { type: 'request', process, requestId: id, payload: {} } },
          replyId: '',
          mustRefuse: true,
          mayClose: false,
        };
      }
      case 1:
        return {
          index,
          target: '(envelope)',
          label: 'requestId:101-chars',
          wire: {
            kind: 'json',
            message: { type: 'request', process, requestId: requestId.padEnd(101, 'x'), payload: {} },
          },
          replyId: requestId.padEnd(100, 'x'),
          mustRefuse: true,
          mayClose: false,
        };
      case 2: {
        const type = rng.pick<unknown>([
          undefined,
          'hello',
          'reply',
          'REQUEST',
          'event',
          42,
          null,
          'request\u0000',
        ]);
        return {
          index,
          target: '(envelope)',
          label: `type:${JSON.stringify(type) ?? 'missing'}`,
          wire: { kind: 'json', message: { type, process, requestId, payload: {} } },
          replyId: requestId,
          mustRefuse: true,
          mayClose: false,
        };
      }
      case 3:
        return {
          index,
          target: '(envelope)',
          label: 'type:keepalive (no reply due)',
          wire: { kind: 'json', message: { type: 'keepalive', process, requestId } },
          replyId: null,
          mustRefuse: false,
          mayClose: false,
        };
      case 4: {
        // Prototype keys on the envelope itself (raw JSON text keeps them).
        const msg: Record<string, unknown> = { type: 'request', process, requestId, payload: {} };
        withOwnKey(msg, '__proto__', { type: 'request', process: 'ping', isAdmin: true });
        withOwnKey(msg, 'constructor', { prototype: { polluted: 'yes' } });
        return {
          index,
          target: '(envelope)',
          label: 'proto-keys-on-envelope',
          wire: { kind: 'bytes', bytes: bytesOf(jsonText(msg)) },
          replyId: requestId,
          mustRefuse: false,
          mayClose: false,
        };
      }
      case 5: {
        const hello = { type: 'hello', grant: rng.pick(['x', 'eyJhbGciOiJub25lIn0.e30.', hugeString(4097)]) };
        return {
          index,
          target: '(envelope)',
          label: 'second-hello',
          wire: { kind: 'json', message: { ...hello, requestId } },
          replyId: requestId,
          mustRefuse: true,
          mayClose: false,
        };
      }
      default: {
        const payload = rng.pick<unknown>([
          'not-an-object',
          42,
          null,
          [1, 2],
          { payload: { payload: {} } },
          JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)),
        ]);
        return {
          index,
          target: '(envelope)',
          label: `payload:${clip(JSON.stringify(payload), 40)}`,
          wire: { kind: 'json', message: { type: 'request', process, requestId, payload } },
          replyId: requestId,
          mustRefuse: !deviceCommands[process].request.safeParse(payload ?? {}).success,
          mayClose: false,
        };
      }
    }
  }
  if (r < 0.985) {
    // Not a request object at all.
    const which = rng.int(0, 5);
    const bad: [string, Wire][] = [
      ['json-string', { kind: 'json', message: '{this is not json' }],
      ['json-number', { kind: 'json', message: rng.pick([42, -1, NaN]) }],
      ['json-array', { kind: 'json', message: [{ type: 'request', process: 'ping', requestId }] }],
      ['json-null', { kind: 'json', message: null }],
      ['bytes-not-json', { kind: 'bytes', bytes: bytesOf(rng.pick(['{', '{"type":', 'NaN', '\u0000', ''])) }],
      [
        'bytes-invalid-utf8',
        { kind: 'bytes', bytes: new Uint8Array([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x7b]) },
      ],
    ];
    const [label, wire] = bad[which]!;
    return { index, target: '(raw)', label, wire, replyId: '', mustRefuse: true, mayClose: false };
  }
  if (r < 0.988) {
    // A text frame (PeerJS sends binary): a hostile client can.
    const text = rng.pick([
      jsonText({ type: 'request', process: 'ping', requestId, payload: {} }),
      'garbage',
    ]);
    return {
      index,
      target: '(raw)',
      label: `text-frame:${clip(text, 40)}`,
      wire: { kind: 'text', text },
      replyId: text === 'garbage' ? '' : requestId,
      mustRefuse: false,
      mayClose: false,
    };
  }
  // Oversized: past PeerJS's 16 KB, past the text rule's 256 KiB, one megabyte.
  const size = rng.pick([20_000, 300_000, 1_000_000]);
  const message = { type: 'request', process: 'camera-list', requestId, payload: { pad: hugeString(size) } };
  return {
    index,
    target: '(oversized)',
    label: `oversized:${size}`,
    wire: { kind: 'bytes', bytes: bytesOf(jsonText(message)) },
    replyId: requestId,
    mustRefuse: true,
    mayClose: true,
  };
}
