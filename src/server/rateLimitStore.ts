/**
 * The rate limiter's store (@fastify/rate-limit `store` option): the plugin's in-memory fixed-window count per
 * key, plus a refund, so a request the server could not serve because the database was down (503
 * Database_unavailable, issue 15) does not count towards any limit — sign-in above all: an outage must not lock
 * users out once it is over.
 *
 * How a refund finds its count: every per-route store (`child`) wraps its route's key generator so the key the
 * plugin computes for a request is remembered with that request; `refundAttempts(request)` takes one off each
 * count the request added.
 */
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyRequest, RouteOptions } from 'fastify';

/** Keys per store kept at most (oldest dropped first), as the plugin's own store (5000). */
const CACHE_ENTRIES = 5000;

interface Count {
  current: number;
  ttl: number;
  startMs: number;
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
}

/** The counts a request added: store and key. */
const counted = new WeakMap<FastifyRequest, { store: RefundableRateLimitStore; key: string }[]>();

/** A fixed-window counter per key with a refund; same arguments and answers as the plugin's LocalStore. */
export class RefundableRateLimitStore implements FastifyRateLimitStore {
  private readonly counts = new Map<string, Count>();
  private readonly continueExceeding: boolean;
  private readonly exponentialBackoff: boolean;
  /** The plugin's default key generator (the global one when no route sets its own). */
  private readonly defaultKeyGenerator: unknown;

  constructor(options: FastifyRateLimitOptions, defaultKeyGenerator?: unknown) {
    const params = options as PluginParams;
    this.continueExceeding = params.continueExceeding === true;
    this.exponentialBackoff = params.exponentialBackoff === true;
    this.defaultKeyGenerator = defaultKeyGenerator ?? params.keyGenerator;
  }

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
    max: number,
  ): void {
    const now = Date.now();
    let count = this.counts.get(key);
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
    this.counts.delete(key);
    this.counts.set(key, count);
    if (this.counts.size > CACHE_ENTRIES) this.counts.delete(this.counts.keys().next().value!);
    callback(null, { current: count.current, ttl: count.startMs + count.ttl - now });
  }

  read(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
  ): void {
    const now = Date.now();
    const count = this.counts.get(key);
    if (!count || count.startMs + count.ttl <= now) callback(null, { current: 0, ttl: 0 });
    else callback(null, { current: count.current, ttl: count.startMs + count.ttl - now });
  }

  /** One attempt fewer for `key` in its current window. */
  refund(key: string): void {
    const count = this.counts.get(key);
    if (count && count.current > 0) count.current -= 1;
  }

  /**
   * The store of one route. `routeOptions` is the plugin's merged parameters of that route, the very object its
   * limiter reads: its key generator is wrapped to remember each request's key (see the module comment).
   */
  child(routeOptions: RouteOptions & { path: string; prefix: string }): RefundableRateLimitStore {
    const params = routeOptions as unknown as PluginParams;
    const store = new RefundableRateLimitStore(params as FastifyRateLimitOptions, this.defaultKeyGenerator);
    const original = params.keyGenerator;
    if (typeof original === 'function') {
      const isDefault = original === this.defaultKeyGenerator;
      params.keyGenerator = async (req: FastifyRequest) => {
        const key = await (isDefault ? original(req, params.ipv6Subnet) : original(req));
        const list = counted.get(req) ?? [];
        list.push({ store, key: `${key}${params.groupId ?? ''}` });
        counted.set(req, list);
        return key;
      };
    }
    return store;
  }
}

/** Gives back every rate-limit attempt `request` counted (it was answered 503 Database_unavailable). */
export function refundAttempts(request: FastifyRequest): void {
  for (const { store, key } of counted.get(request) ?? []) store.refund(key);
  counted.delete(request);
}
