/**
 * What the signalling server relays (issue 7): only well-formed PeerJS messages, each under
 * MAX_SIGNALLING_MESSAGE_BYTES, within per-peer token buckets (SIGNALLING_RATE for all messages,
 * SIGNALLING_OFFER_RATE for OFFERs), never with a `src` other than the sender's own id. Everything else is
 * dropped and counted; drops are logged at most once per peer every REPORT_INTERVAL_MS.
 *
 * Why drop rather than answer ERROR: a peerjs client that receives ERROR aborts (disconnects from
 * signalling), so answering would turn any schema mismatch of an honest client into an outage, and tells a
 * hostile one nothing it needs.
 *
 * `guardSocket` sits between a peer's WebSocket and the `peer` package: it takes over the 'message'
 * listener the package adds when the socket is accepted and hands it only the checked message, serialized
 * anew (type, dst, payload — the package sets src itself).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import {
  ClientSignallingMessage,
  MAX_SIGNALLING_MESSAGE_BYTES,
  SIGNALLING_OFFER_RATE,
  SIGNALLING_RATE,
} from '../../protocol/peerjsMessages';

/** Drops of one peer are reported at most this often. */
export const REPORT_INTERVAL_MS = 10_000;

export interface Rate {
  capacity: number;
  perSecond: number;
}

export interface GuardLimits {
  maxMessageBytes: number;
  rate: Rate;
  offerRate: Rate;
}

export const DEFAULT_LIMITS: GuardLimits = {
  maxMessageBytes: MAX_SIGNALLING_MESSAGE_BYTES,
  rate: SIGNALLING_RATE,
  offerRate: SIGNALLING_OFFER_RATE,
};

/** A token bucket: starts full, refills continuously. */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rate: Rate,
    now: number,
  ) {
    this.tokens = rate.capacity;
    this.at = now;
  }

  private refill(now: number): void {
    if (now > this.at) {
      this.tokens = Math.min(
        this.rate.capacity,
        this.tokens + ((now - this.at) / 1000) * this.rate.perSecond,
      );
      this.at = now;
    }
  }

  /** Takes one token; false when empty. */
  take(now: number): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Whether the bucket has refilled completely (its state can be forgotten). */
  full(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.rate.capacity;
  }
}

export type Verdict =
  | { ok: true; message: ClientSignallingMessage; forward: string }
  | { ok: false; reason: DropReason; detail?: string };

export type DropReason =
  'rate' | 'offer_rate' | 'too_big' | 'binary' | 'not_json' | 'schema' | 'spoofed_src' | 'foreign_dst';

interface PeerState {
  all: TokenBucket;
  offers: TokenBucket;
  dropped: Partial<Record<DropReason, number>>;
  lastReportAt: number;
}

/** Per-peer checks; see the module comment. Never throws. */
export class MessageGuard {
  private readonly peers = new Map<string, PeerState>();

  constructor(
    private readonly limits: GuardLimits = DEFAULT_LIMITS,
    private readonly report: (
      peerId: string,
      dropped: Partial<Record<DropReason, number>>,
      last: string,
    ) => void = () => {},
    private readonly now: () => number = Date.now,
    /**
     * The user a peer id belongs to (a browser's user, a device's owner), or undefined when unknown. When
     * given, a message is relayed only between two peers of the same user: no one else's browser can even
     * send an OFFER to a device (the agent's grant check would refuse it later, but only after building a
     * peer connection for it).
     */
    private readonly ownerOf?: (peerId: string) => string | undefined,
  ) {}

  /** Checks one raw WebSocket message from `peerId`. */
  check(peerId: string, data: RawData, isBinary: boolean): Verdict {
    const now = this.now();
    const state = this.stateOf(peerId, now);
    // Every message costs a token, even one dropped below: parsing is the work being limited.
    if (!state.all.take(now)) return this.drop(state, peerId, 'rate', now);
    if (isBinary) return this.drop(state, peerId, 'binary', now);
    const size = byteLength(data);
    if (size > this.limits.maxMessageBytes) return this.drop(state, peerId, 'too_big', now, `${size} bytes`);
    let json: unknown;
    try {
      json = JSON.parse(toText(data));
    } catch {
      return this.drop(state, peerId, 'not_json', now);
    }
    const parsed = ClientSignallingMessage.safeParse(json);
    if (!parsed.success) {
      const type = typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : undefined;
      const issue = parsed.error.issues[0];
      return this.drop(
        state,
        peerId,
        'schema',
        now,
        `${typeof type === 'string' ? type.slice(0, 20) : typeof type}: ${issue ? `${issue.path.join('.')} ${issue.message}` : 'invalid'}`.slice(
          0,
          200,
        ),
      );
    }
    const message = parsed.data;
    if ('src' in message && message.src !== undefined && message.src !== peerId) {
      return this.drop(state, peerId, 'spoofed_src', now);
    }
    if (this.ownerOf && 'dst' in message && typeof message.dst === 'string') {
      const from = this.ownerOf(peerId);
      if (from === undefined || this.ownerOf(message.dst) !== from)
        return this.drop(state, peerId, 'foreign_dst', now);
    }
    if (message.type === 'OFFER' && !state.offers.take(now))
      return this.drop(state, peerId, 'offer_rate', now);
    const forward =
      message.type === 'HEARTBEAT'
        ? JSON.stringify({ type: message.type })
        : JSON.stringify({ type: message.type, dst: message.dst, payload: message.payload });
    return { ok: true, message, forward };
  }

  /** The peer's socket closed: forget its state once its buckets have refilled, and sweep the others. */
  closed(): void {
    const now = this.now();
    for (const [id, state] of this.peers) {
      if (state.all.full(now) && state.offers.full(now)) this.peers.delete(id);
    }
  }

  /** Peers with state kept (tests). */
  get size(): number {
    return this.peers.size;
  }

  private stateOf(peerId: string, now: number): PeerState {
    let state = this.peers.get(peerId);
    if (!state) {
      state = {
        all: new TokenBucket(this.limits.rate, now),
        offers: new TokenBucket(this.limits.offerRate, now),
        dropped: {},
        lastReportAt: 0,
      };
      this.peers.set(peerId, state);
    }
    return state;
  }

  private drop(state: PeerState, peerId: string, reason: DropReason, now: number, detail?: string): Verdict {
    state.dropped[reason] = (state.dropped[reason] ?? 0) + 1;
    if (now - state.lastReportAt >= REPORT_INTERVAL_MS) {
      const dropped = state.dropped;
      state.dropped = {};
      state.lastReportAt = now;
      try {
        this.report(peerId, dropped, detail ? `${reason} (${detail})` : reason);
      } catch {
        // reporting must not break signalling
      }
    }
    return { ok: false, reason, detail };
  }
}

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

function toText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8');
}

/**
 * Puts `guard` in front of the 'message' listeners already on `ws` (the `peer` package adds its own while
 * the socket is accepted). A socket with no listener left to guard (the package refused it and closes it) is
 * left alone; an accepted socket the package did not listen to is closed rather than relayed unchecked.
 */
export function guardSocket(
  ws: WebSocket,
  peerId: string,
  guard: MessageGuard,
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
  /**
   * Takes a checked message elsewhere (issue 15: to the server instance its `dst` is connected to); true when
   * it did, and the package's relay does not see it.
   */
  route?: (message: ClientSignallingMessage) => boolean,
): void {
  const listeners = ws.listeners('message') as ((data: RawData, isBinary: boolean) => void)[];
  ws.removeAllListeners('message');
  ws.once('close', () => guard.closed());
  if (listeners.length === 0) {
    if (ws.readyState === ws.OPEN) {
      log.error({ peerId }, 'signalling socket accepted without a message listener; closing it');
      ws.close(1011, 'internal error');
    }
    return;
  }
  ws.on('message', (data: RawData, isBinary: boolean) => {
    let verdict: Verdict;
    try {
      verdict = guard.check(peerId, data, isBinary);
    } catch (err) {
      log.error({ err, peerId }, 'signalling message check failed');
      return;
    }
    if (!verdict.ok) return;
    try {
      if (route?.(verdict.message)) return;
    } catch (err) {
      log.warn({ err, peerId }, 'signalling route failed');
    }
    const forward = Buffer.from(verdict.forward);
    for (const listener of listeners) {
      try {
        listener.call(ws, forward, false);
      } catch (err) {
        log.warn({ err, peerId }, 'signalling relay failed');
      }
    }
  });
}
