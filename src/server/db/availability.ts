/**
 * Database availability (issue 15 "PostgreSQL killed and restarted under load"): which errors mean "the database
 * cannot be reached right now" rather than "this request is wrong", and the server's view of whether the database
 * is up, so an outage is answered with 503 `Database_unavailable` and logged once, not as one stack trace per
 * request.
 */
import { DrizzleQueryError } from 'drizzle-orm';

/** Seconds a client is told to wait (`Retry-After`) while the database is unavailable. */
export const DATABASE_RETRY_AFTER_S = 2;

/** The 503 answer's code and text while the database is unavailable. */
export const DATABASE_UNAVAILABLE = {
  code: 'Database_unavailable',
  message: 'The database is unavailable right now. Please try again in a few seconds.',
} as const;

/**
 * PostgreSQL SQLSTATEs of an unavailable server: class 08 (connection exception), 57P01 admin shutdown, 57P02
 * crash shutdown, 57P03 cannot connect now (starting up, shutting down, in recovery).
 */
function isUnavailableSqlState(code: string): boolean {
  return /^08[0-9A-Z]{3}$/.test(code) || code === '57P01' || code === '57P02' || code === '57P03';
}

/** Socket errors of a server that is gone or not listening. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/** node-postgres / pg-pool texts of a lost or impossible connection (they carry no code). */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
  /^Client has already been connected/,
  /^Connection closed$/,
];

/**
 * True when `err` (or an error it wraps: a DrizzleQueryError's `cause`, an AggregateError's `errors`) says the database
 * cannot be reached: a SQLSTATE above, a socket error, or a node-postgres connection message. Never throws.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (depth > 5 || typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (isUnavailableSqlState(e.code) || SOCKET_CODES.has(e.code))) return true;
  if (typeof e.message === 'string' && DRIVER_MESSAGES.some((re) => re.test(e.message as string))) {
    return true;
  }
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) {
    return true;
  }
  // Only drizzle's wrapper is looked through: a `fetch failed` whose cause is ECONNREFUSED is some other
  // server being unreachable, not the database.
  return err instanceof DrizzleQueryError && e.cause !== err && isDatabaseUnavailable(e.cause, depth + 1);
}

/** The part of a logger the status uses. */
export interface StatusLogger {
  warn(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
}

/** One line about an error: its code and message, never a stack. */
export function describeError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  const inner = Array.isArray(e?.errors) && e.errors.length > 0 ? (e.errors[0] as typeof e) : null;
  const code = typeof e?.code === 'string' ? e.code : typeof inner?.code === 'string' ? inner.code : '';
  const message = typeof e?.message === 'string' && e.message ? e.message : String(inner?.message ?? err);
  return `${code ? `${code}: ` : ''}${message}`.slice(0, 300);
}

/**
 * Whether the database is reachable, as the server last saw it. `markDown` on an unavailable-database error
 * (logs one warning per outage), `markUp` on the next success (logs one line with the outage's length).
 */
export class DatabaseStatus {
  private down: { since: number; reason: string } | null = null;
  private log: StatusLogger | null = null;
  /** Outages seen since start (tests and the readiness answer read it). */
  outages = 0;

  /** Where `markDown`/`markUp` write their single lines. */
  setLogger(log: StatusLogger): void {
    this.log = log;
  }

  get up(): boolean {
    return this.down === null;
  }

  /** Why the database is down (code and message of the first error of this outage), or null when up. */
  get reason(): string | null {
    return this.down?.reason ?? null;
  }

  /** Records an outage; the first error of an outage is logged as one line. */
  markDown(err: unknown): void {
    if (this.down) return;
    this.outages += 1;
    this.down = { since: Date.now(), reason: describeError(err) };
    this.log?.warn(
      `database unavailable (${this.down.reason}); answering 503 Database_unavailable until it is back`,
    );
  }

  /** Ends an outage (logged with its length); nothing when up. */
  markUp(): void {
    if (!this.down) return;
    const seconds = ((Date.now() - this.down.since) / 1000).toFixed(1);
    this.down = null;
    this.log?.info(`database reachable again after ${seconds} s`);
  }
}
