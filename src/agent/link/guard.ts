/**
 * Confines a bad signalling message to the one connection it concerns (issue 7).
 *
 * peerjs hands every message from its signalling socket to `Peer._handleMessage`, called from inside `ws`'s
 * frame parser. If it throws (an OFFER without payload, or with a `serialization` the Peer has no class for:
 * `new this._serializers[undefined]`), the exception leaves `ws`'s receiver half-way through a write that
 * never completes: the socket reads nothing ever again while its heartbeats still keep the device "online".
 *
 * `guardPeer` replaces the Peer's `_handleMessage` with one that
 *   1. checks the message before peerjs sees it (protocol/peerjsMessages.ts shapes, plus what this Peer can
 *      take: a known serialization, data connections only — the agent answers no peerjs media calls —,
 *      ANSWERs only for connections it has, a bounded number of early CANDIDATEs), drops what fails, and
 *      hands peerjs a copy with only the fields it reads;
 *   2. runs peerjs's handler inside try/catch: a throw closes the connection the message names (if peerjs
 *      created it) and nothing else;
 *   3. takes the agent's own watchdog probes (a LEAVE from itself) out of the stream;
 *   4. guards every data connection peerjs creates for it (protocol/peerjsGuard.ts): a CANDIDATE still being
 *      added when the connection closes made peerjs reject with nobody to catch it (an unhandled rejection).
 * Drops and failures are logged in one short line, at most once per LOG_INTERVAL_MS (with a count).
 */
import type { Peer as PeerType } from 'peerjs';
import {
  RelayedSignallingMessage,
  ServerSignallingMessage,
  WATCHDOG_PROBE_PREFIX,
} from '../../protocol/peerjsMessages';
import { guardLateSignals } from '../../protocol/peerjsGuard';
import type { Logger } from '../log';
import { errorMessage } from '../log';

export const LOG_INTERVAL_MS = 5_000;
/** peerjs keeps CANDIDATEs for connections it does not know yet, forever; at most this many ids. */
export const MAX_EARLY_CONNECTIONS = 32;

/** The peerjs internals the guard relies on (peerjs 1.5.5). */
interface PeerInternals {
  _handleMessage?: (message: unknown) => void;
  _serializers?: Record<string, unknown>;
  _lostMessages?: Map<string, unknown[]>;
  getConnection(peerId: string, connectionId: string): { close(): void } | null;
}

export interface PeerGuardOptions {
  /** This agent's peer id (probes come from it). */
  ownId: string;
  logger: Logger;
  /** A watchdog probe came back (its connectionId). */
  onProbe?(connectionId: string): void;
}

export type Check = { ok: true; message: unknown } | { ok: false; reason: string };

/** Decides whether `peer` may see `message`; see the module comment. */
export function checkIncoming(peer: PeerType, message: unknown, ownId: string): Check {
  if (typeof message !== 'object' || message === null) return { ok: false, reason: 'not an object' };
  const m = message as { type?: unknown; src?: unknown };
  if (typeof m.type !== 'string') return { ok: false, reason: 'no type' };
  if (m.src === undefined) {
    const server = ServerSignallingMessage.safeParse(message);
    return server.success
      ? { ok: true, message: server.data }
      : { ok: false, reason: `malformed ${short(m.type)}` };
  }
  const parsed = RelayedSignallingMessage.safeParse(message);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason: `malformed ${short(m.type)}${issue ? ` (${issue.path.join('.')}: ${issue.message})` : ''}`,
    };
  }
  const msg = parsed.data;
  if (msg.src === ownId) return { ok: false, reason: `${msg.type} from itself` };
  const internals = peer as unknown as PeerInternals;
  switch (msg.type) {
    case 'EXPIRE':
      return { ok: false, reason: 'EXPIRE (the agent dials no one)' };
    case 'LEAVE':
      return { ok: true, message: msg };
    case 'OFFER':
      if (msg.payload.type !== 'data')
        return { ok: false, reason: 'media OFFER (the agent takes data connections only)' };
      if (!Object.hasOwn(internals._serializers ?? {}, msg.payload.serialization)) {
        return { ok: false, reason: `OFFER with unknown serialization ${short(msg.payload.serialization)}` };
      }
      // Only the fields peerjs reads: the payload becomes the new connection's options.
      return {
        ok: true,
        message: {
          type: msg.type,
          src: msg.src,
          payload: {
            type: 'data',
            connectionId: msg.payload.connectionId,
            sdp: { type: 'offer', sdp: msg.payload.sdp.sdp },
            serialization: msg.payload.serialization,
            label: msg.payload.label,
            reliable: msg.payload.reliable,
            metadata: msg.payload.metadata,
          },
        },
      };
    case 'ANSWER':
      if (!internals.getConnection(msg.src, msg.payload.connectionId)) {
        return { ok: false, reason: 'ANSWER for no connection of ours' };
      }
      return {
        ok: true,
        message: {
          type: msg.type,
          src: msg.src,
          payload: {
            type: msg.payload.type,
            connectionId: msg.payload.connectionId,
            sdp: { type: msg.payload.sdp.type, sdp: msg.payload.sdp.sdp },
          },
        },
      };
    case 'CANDIDATE': {
      const lost = internals._lostMessages;
      if (
        !internals.getConnection(msg.src, msg.payload.connectionId) &&
        lost &&
        !lost.has(msg.payload.connectionId) &&
        lost.size >= MAX_EARLY_CONNECTIONS
      ) {
        return { ok: false, reason: 'CANDIDATE for an unknown connection (too many pending)' };
      }
      const c = msg.payload.candidate;
      return {
        ok: true,
        message: {
          type: msg.type,
          src: msg.src,
          payload: {
            type: msg.payload.type,
            connectionId: msg.payload.connectionId,
            candidate: {
              candidate: c.candidate,
              sdpMid: c.sdpMid ?? null,
              sdpMLineIndex: c.sdpMLineIndex ?? null,
              ...(c.usernameFragment ? { usernameFragment: c.usernameFragment } : {}),
            },
          },
        },
      };
    }
  }
}

/**
 * Installs the guard on a freshly constructed Peer (before its socket delivers anything). Returns false,
 * after logging, when this peerjs has no `_handleMessage` to guard.
 */
export function guardPeer(peer: PeerType, options: PeerGuardOptions): boolean {
  const internals = peer as unknown as PeerInternals;
  const original = internals._handleMessage;
  if (typeof original !== 'function') {
    options.logger.error('peerjs has no Peer._handleMessage: signalling messages are not guarded');
    return false;
  }
  const log = throttledLog(options.logger);
  // Before signalling.ts's listener and before peerjs replays the candidates it stored for the connection.
  peer.on('connection', (conn) =>
    guardLateSignals(conn, (err) =>
      log(`signalling message ignored, its connection closed meanwhile: ${short(errorMessage(err), 120)}`, {
        from: short(conn.peer, 64),
        connection: short(conn.connectionId, 64),
      }),
    ),
  );
  internals._handleMessage = (message: unknown) => {
    try {
      if (isProbe(message, options.ownId)) {
        options.onProbe?.((message as { payload: { connectionId: string } }).payload.connectionId);
        return;
      }
      const check = checkIncoming(peer, message, options.ownId);
      if (!check.ok) {
        log(`signalling message dropped: ${check.reason}`, from(message));
        return;
      }
      try {
        original.call(peer, check.message);
      } catch (err) {
        log(`signalling message failed: ${short(errorMessage(err), 120)}`, from(message));
        closeConcerned(peer, message);
      }
    } catch (err) {
      log(`signalling message guard failed: ${short(errorMessage(err), 120)}`, {});
    }
  };
  return true;
}

function isProbe(message: unknown, ownId: string): boolean {
  const m = message as { type?: unknown; src?: unknown; payload?: { connectionId?: unknown } } | null;
  return (
    !!m &&
    m.type === 'LEAVE' &&
    m.src === ownId &&
    typeof m.payload?.connectionId === 'string' &&
    m.payload.connectionId.startsWith(WATCHDOG_PROBE_PREFIX)
  );
}

/** Closes the connection a failed message names, if peerjs has it. */
function closeConcerned(peer: PeerType, message: unknown): void {
  const m = message as { src?: unknown; payload?: { connectionId?: unknown } };
  if (typeof m.src !== 'string' || typeof m.payload?.connectionId !== 'string') return;
  try {
    (peer as unknown as PeerInternals).getConnection(m.src, m.payload.connectionId)?.close();
  } catch {
    // already half-built; nothing more to undo
  }
}

function from(message: unknown): Record<string, unknown> {
  const m = (typeof message === 'object' && message !== null ? message : {}) as {
    type?: unknown;
    src?: unknown;
    payload?: { connectionId?: unknown };
  };
  const detail: Record<string, unknown> = {};
  if (typeof m.type === 'string') detail.type = short(m.type);
  if (typeof m.src === 'string') detail.from = short(m.src, 64);
  const cid = typeof m.payload === 'object' && m.payload !== null ? m.payload.connectionId : undefined;
  if (typeof cid === 'string') detail.connection = short(cid, 64);
  return detail;
}

function short(value: unknown, max = 24): string {
  const s = String(value);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** A warn logger that writes at most one line per LOG_INTERVAL_MS, counting what it held back. */
function throttledLog(logger: Logger): (message: string, detail: Record<string, unknown>) => void {
  let lastAt = 0;
  let held = 0;
  return (message, detail) => {
    const now = Date.now();
    if (now - lastAt < LOG_INTERVAL_MS) {
      held++;
      return;
    }
    lastAt = now;
    logger.warn(message, held ? { ...detail, more_dropped: held } : detail);
    held = 0;
  };
}
