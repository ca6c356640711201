/**
 * The rate limiter's store (@fastify/rate-limit `store` option): fixed-window counts per key, shared by every
 * server instance on one PostgreSQL (issue 15 "Scale-out past one server": with N replicas a client still gets
 * each limit once, not N times), plus a refund, so a request the server could not serve because the database
 * was down (503 Database_unavailable, issue 15) does not count towards any limit — sign-in above all: an outage
 * must not lock users out once it is over.
 *
 * Counting (`SharedCounts.incr`): one statement, one round trip, on the table rate_limit_counts
 * (src/server/db/schema/rateLimits.ts): `insert … on conflict (key) do update … returning` starts, extends or
 * restarts the key's window on the database's clock and answers the count and the time left. The same rules as
 * the plugin's LocalStore: a window that has ended starts again at 1; with `continueExceeding` a request over
 * the maximum restarts the window; with `exponentialBackoff` it lasts window × 2^(count − max − 1). Rows whose
 * window ended are deleted once a minute by each instance (`startCleanup`).
 *
 * When the database cannot count (it is down, as the server last saw it, or the statement fails) the request is
 * counted in this instance's memory instead, as before the counts moved to PostgreSQL: the limiter never answers
 * 500 or waits for a database that is not there, and the request goes on to its handler (which answers 503
 * Database_unavailable if it needs the database, and then gets its attempt back, below). During an outage each
 * instance therefore limits on its own (N × each limit with N instances) — which is the lesser harm than
 * refusing everyone or letting everything through.
 *
 * How a refund finds its count: every per-route store (`child`) wraps its route's key generator so the key the
 * plugin computes for a request is remembered with that request (and the count it then made: in PostgreSQL or
 * in memory); `refundAttempts(request)` takes one off each count the request added.
 */
import { createHash } from 'node:crypto';
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyRequest, RouteOptions } from 'fastify';
import type pg from 'pg';
import { describeError, isDatabaseUnavailable, type DatabaseStatus } from './db/availability';

/** Keys per store kept at most in memory (oldest dropped first), as the plugin's own store (5000). */
const CACHE_ENTRIES = 5000;
/** How often each instance deletes the rows whose window has ended. */
export const CLEANUP_INTERVAL_MS = 60_000;
/**
 * Longest window a count is given (exponential backoff doubles without end): about 317 years. The exponent is
 * capped at 60 too, as 2^count overflows float8 (an error, so a count in memory) past 1023.
 */
const MAX_TTL_MS = 1e13;

type Answer = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Answer) => void;

interface Count {
  current: number;
  ttl: number;
  startMs: number;
}

interface Logger {
  warn(msg: string): void;
  debug(msg: string): void;
}

/**
 * The PostgreSQL side: the pool every instance's counts go through, the database's availability (while it is
 * down, counts stay in memory without trying it) and a logger.
 */
export interface SharedCountsOptions {
  pool: Pick<pg.Pool, 'query'>;
  status?: DatabaseStatus;
  log: Logger;
}

/** The key as stored: 43 characters whatever the key, and no client address or e-mail in clear. */
export function storedKey(namespace: string, key: string): string {
  return createHash('sha256').update(`${namespace}\n${key}`).digest('base64url');
}

const WINDOW = `now() + make_interval(secs => $2::float8 / 1000)`;
/** $1 stored key, $2 window (ms), $3 max, $4 continueExceeding, $5 exponentialBackoff. */
const INCR_SQL = `insert into rate_limit_counts as c (key, count, expires_at) values ($1, 1, ${WINDOW})
on conflict (key) do update set
  count = case when c.expires_at <= now() then 1 else c.count + 1 end,
  expires_at = case
    when c.expires_at <= now() then ${WINDOW}
    when c.count + 1 <= $3::int then c.expires_at
    when $4::boolean then ${WINDOW}
    when $5::boolean then now() + make_interval(
      secs => least($2::float8 * power(2::float8, least(c.count - $3::int, 60)), ${MAX_TTL_MS}) / 1000)
    else c.expires_at
  end
returning c.count, ceil(extract(epoch from c.expires_at - now()) * 1000)::float8 as ttl`;
const READ_SQL = `select count, ceil(extract(epoch from expires_at - now()) * 1000)::float8 as ttl
from rate_limit_counts where key = $1 and expires_at > now()`;
const REFUND_SQL = `update rate_limit_counts set count = count - 1
where key = $1 and count > 0 and expires_at > now()`;
const CLEANUP_SQL = `delete from rate_limit_counts where expires_at <= now()`;

/** Counts in PostgreSQL (see the module comment). Every method rejects when the database does. */
export class SharedCounts {
  private lastWarnMs = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: SharedCountsOptions) {}

  /** Whether to try the database at all: not while it is known to be down. */
  get usable(): boolean {
    return this.options.status?.up !== false;
  }

  async incr(
    key: string,
    windowMs: number,
    max: number,
    continueExceeding: boolean,
    exponentialBackoff: boolean,
  ): Promise<Answer> {
    const { rows } = await this.options.pool.query<{ count: number; ttl: number }>({
      name: 'rate_limit_incr',
      text: INCR_SQL,
      values: [key, windowMs, max, continueExceeding, exponentialBackoff],
    });
    return { current: rows[0]!.count, ttl: Math.max(0, rows[0]!.ttl) };
  }

  async read(key: string): Promise<Answer> {
    const { rows } = await this.options.pool.query<{ count: number; ttl: number }>({
      name: 'rate_limit_read',
      text: READ_SQL,
      values: [key],
    });
    return rows[0] ? { current: rows[0].count, ttl: Math.max(0, rows[0].ttl) } : { current: 0, ttl: 0 };
  }

  async refund(key: string): Promise<void> {
    await this.options.pool.query({ name: 'rate_limit_refund', text: REFUND_SQL, values: [key] });
  }

  /** Deletes the rows whose window has ended; answers how many. */
  async cleanup(): Promise<number> {
    const { rowCount } = await this.options.pool.query(CLEANUP_SQL);
    return rowCount ?? 0;
  }

  /** Runs `cleanup` every CLEANUP_INTERVAL_MS (a timer that does not hold the process open). */
  startCleanup(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.usable) return;
      this.cleanup().catch((err: unknown) => this.failed(err));
    }, CLEANUP_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * A statement failed: an unreachable database is recorded in `status` (its outage logged once there); any
   * other error is logged at most once a minute. The caller counts in memory instead.
   */
  failed(err: unknown): void {
    if (isDatabaseUnavailable(err)) {
      this.options.status?.markDown(err);
      return;
    }
    const now = Date.now();
    if (now - this.lastWarnMs < 60_000) return;
    this.lastWarnMs = now;
    this.options.log.warn(
      `rate-limit count in PostgreSQL failed (${describeError(err)}); counting in memory`,
    );
  }
}

type KeyGenerator = (req: FastifyRequest, ipv6Subnet?: unknown) => string | number | Promise<string | number>;

/**
 * What the plugin really passes to a store (its merged parameters; the published types say less): to the
 * constructor the global ones, to `child` the route's.
 */
interface PluginParams {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  keyGenerator?: KeyGenerator;
  ipv6Subnet?: unknown;
  groupId?: string;
  routeInfo?: { method?: string | string[]; url?: string };
}

/** A count a request added: its store and key, and where it was counted (null: not yet). */
interface Counted {
  store: RefundableRateLimitStore;
  key: string;
  where: 'db' | 'memory' | null;
}

/** The counts each request added. */
const counted = new WeakMap<FastifyRequest, Counted[]>();

/** Requests per key waiting for their `incr` in one store, at most (a guard; `incr` follows the key at once). */
const PENDING_PER_KEY = 64;

/**
 * A fixed-window counter per key with a refund; same arguments and answers as the plugin's LocalStore. Counts in
 * PostgreSQL when `shared` is given (the server's), in memory otherwise and whenever the database cannot count.
 */
export class RefundableRateLimitStore implements FastifyRateLimitStore {
  private readonly memory = new Map<string, Count>();
  /** Requests whose key was computed and whose `incr` has not come yet, per key, oldest first. */
  private readonly pending = new Map<string, Counted[]>();
  private readonly continueExceeding: boolean;
  private readonly exponentialBackoff: boolean;
  /** The plugin's default key generator (the global one when no route sets its own). */
  private readonly defaultKeyGenerator: unknown;

  /**
   * @param shared the PostgreSQL counts (null: memory only)
   * @param namespace keeps two stores' equal keys apart in the shared table (each store counts on its own, as
   *   in memory): the route's method and URL, or `limiter` for `createRateLimit` (whose keys name their
   *   counter, src/server/auth/throttle.ts)
   */
  constructor(
    options: FastifyRateLimitOptions,
    private readonly shared: SharedCounts | null = null,
    defaultKeyGenerator?: unknown,
    private readonly namespace = 'global',
  ) {
    const params = options as PluginParams;
    this.continueExceeding = params.continueExceeding === true;
    this.exponentialBackoff = params.exponentialBackoff === true;
    this.defaultKeyGenerator = defaultKeyGenerator ?? params.keyGenerator;
  }

  incr(key: string, callback: Callback, timeWindow: number, max: number): void {
    const entry = this.takePending(key);
    const inMemory = () => {
      if (entry) entry.where = 'memory';
      callback(null, this.incrMemory(key, timeWindow, max));
    };
    const shared = this.shared;
    if (!shared?.usable) return inMemory();
    shared
      .incr(storedKey(this.namespace, key), timeWindow, max, this.continueExceeding, this.exponentialBackoff)
      .then(
        (answer) => {
          if (entry) entry.where = 'db';
          callback(null, answer);
        },
        (err: unknown) => {
          shared.failed(err);
          inMemory();
        },
      );
  }

  read(key: string, callback: Callback): void {
    const shared = this.shared;
    if (!shared?.usable) return callback(null, this.readMemory(key));
    shared.read(storedKey(this.namespace, key)).then(
      (answer) => callback(null, answer),
      (err: unknown) => {
        shared.failed(err);
        callback(null, this.readMemory(key));
      },
    );
  }

  /** One attempt fewer for `entry`'s key in its current window, where it was counted. */
  refund(entry: Counted): void {
    if (entry.where === 'memory') {
      const count = this.memory.get(entry.key);
      if (count && count.current > 0) count.current -= 1;
    } else if (entry.where === 'db' && this.shared) {
      const shared = this.shared;
      // After the response: it holds nothing up. If the database is still down the attempt stays counted
      // until its window ends (at most one window).
      shared.refund(storedKey(this.namespace, entry.key)).catch((err: unknown) => shared.failed(err));
    }
  }

  /**
   * The store of one route. `routeOptions` is the plugin's merged parameters of that route, the very object its
   * limiter reads: its key generator is wrapped to remember each request's key (see the module comment).
   */
  child(routeOptions: RouteOptions & { path: string; prefix: string }): RefundableRateLimitStore {
    const params = routeOptions as unknown as PluginParams;
    const route = params.routeInfo;
    const namespace = route?.url
      ? `${Array.isArray(route.method) ? route.method.join(',') : route.method} ${route.url}`
      : 'limiter';
    const store = new RefundableRateLimitStore(
      params as FastifyRateLimitOptions,
      this.shared,
      this.defaultKeyGenerator,
      namespace,
    );
    const original = params.keyGenerator;
    if (typeof original === 'function') {
      const isDefault = original === this.defaultKeyGenerator;
      params.keyGenerator = async (req: FastifyRequest) => {
        const key = await (isDefault ? original(req, params.ipv6Subnet) : original(req));
        const entry: Counted = { store, key: `${key}${params.groupId ?? ''}`, where: null };
        const list = counted.get(req) ?? [];
        list.push(entry);
        counted.set(req, list);
        store.addPending(entry);
        return key;
      };
    }
    return store;
  }

  private addPending(entry: Counted): void {
    const queue = this.pending.get(entry.key);
    if (!queue) this.pending.set(entry.key, [entry]);
    else if (queue.push(entry) > PENDING_PER_KEY) queue.shift();
  }

  /** The oldest request waiting for its count of `key` (the plugin calls `incr` right after the key). */
  private takePending(key: string): Counted | undefined {
    const queue = this.pending.get(key);
    const entry = queue?.shift();
    if (queue?.length === 0) this.pending.delete(key);
    return entry;
  }

  private incrMemory(key: string, timeWindow: number, max: number): Answer {
    const now = Date.now();
    let count = this.memory.get(key);
    if (!count || count.startMs + count.ttl <= now) {
      count = { current: 1, ttl: timeWindow, startMs: now };
    } else {
      count.current += 1;
      if (this.continueExceeding && count.current > max) {
        count.ttl = timeWindow;
        count.startMs = now;
      } else if (this.exponentialBackoff && count.current > max) {
        const ttl = timeWindow * 2 ** (count.current - max - 1);
        count.ttl = Number.isSafeInteger(ttl) ? ttl : Number.MAX_SAFE_INTEGER;
        count.startMs = now;
      }
    }
    this.memory.delete(key);
    this.memory.set(key, count);
    if (this.memory.size > CACHE_ENTRIES) this.memory.delete(this.memory.keys().next().value!);
    return { current: count.current, ttl: count.startMs + count.ttl - now };
  }

  private readMemory(key: string): Answer {
    const now = Date.now();
    const count = this.memory.get(key);
    if (!count || count.startMs + count.ttl <= now) return { current: 0, ttl: 0 };
    return { current: count.current, ttl: count.startMs + count.ttl - now };
  }
}

/**
 * The store class to give the plugin (it constructs the store itself, with its parameters only): counts in
 * PostgreSQL through `shared`, or in memory when null.
 */
export function rateLimitStore(shared: SharedCounts | null): typeof RefundableRateLimitStore {
  return class extends RefundableRateLimitStore {
    constructor(options: FastifyRateLimitOptions) {
      super(options, shared);
    }
  };
}

/** Gives back every rate-limit attempt `request` counted (it was answered 503 Database_unavailable). */
export function refundAttempts(request: FastifyRequest): void {
  for (const entry of counted.get(request) ?? []) entry.store.refund(entry);
  counted.delete(request);
}
