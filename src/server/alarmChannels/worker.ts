/**
 * The outbox worker (issue 11 "Delivery goes through an outbox table"): runs in every server process; several
 * processes share one outbox safely.
 *
 * Each of `concurrency` lanes repeatedly, on a connection of its own:
 *   BEGIN; SELECT … FROM deliveries WHERE status = 'pending' AND next_at <= now() … FOR UPDATE SKIP LOCKED LIMIT 1
 *   → send it (senders.ts) → INSERT the attempt; UPDATE the row (delivered | pending at now + backoff | failed
 *   after `maxAttempts`) → COMMIT.
 * The row stays locked while it is sent, so no other lane or process takes it. When a process dies mid-send its
 * connection closes, PostgreSQL releases the lock and rolls the transaction back, and the row is taken again at
 * once by whoever runs: at-least-once delivery, made exactly-once at the receiver by the `Idempotency-Key`
 * (`<event id>:<channel id>`). Lanes sleep until `pg_notify('edge_outbox')` (at commit of an enqueue) or the
 * next due retry, polling every `pollMs` as a fallback.
 */
import pg from 'pg';
import { backoffMs, ChannelConfig, DELIVERY_MAX_ATTEMPTS } from '../../protocol/alarmChannels';
import type { SecretBox } from '../auth/secretBox';
import { eventMessage, type EventPayload } from './outbox';
import {
  sendThrough,
  type AttemptResult,
  type OutboundMessage,
  type SendableChannel,
  type SenderDeps,
} from './senders';

export interface WorkerLog {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface OutboxWorkerOptions {
  /** Pool the lanes take their connections from (one per lane while it works). */
  pool: pg.Pool;
  box: SecretBox;
  senders: SenderDeps;
  log: WorkerLog;
  concurrency?: number;
  maxAttempts?: number;
  /** Backoff of retry n (ms); default backoffMs with ±20 % jitter. */
  backoff?: (attempt: number) => number;
  pollMs?: number;
  /** Replaces the send (tests: a slow or failing receiver without a network). */
  send?: (channel: SendableChannel, message: OutboundMessage) => Promise<AttemptResult>;
}

export interface OutboxWorker {
  /** Looks for due rows now (called on pg_notify 'edge_outbox'). */
  kick(): void;
  /** Stops taking rows and waits for the lanes' sends in flight. */
  stop(): Promise<void>;
  /** Attempts finished by this worker since it started. */
  readonly attempts: number;
}

interface ClaimedRow {
  id: string;
  channel_id: string;
  idempotency_key: string;
  payload: EventPayload;
  attempts: number;
  config: unknown;
  secret_sealed: string | null;
}

/** The message a channel is sent for an outbox row. */
export function messageOfRow(row: Pick<ClaimedRow, 'idempotency_key' | 'payload'>): OutboundMessage {
  const { title, text } = eventMessage(row.payload);
  return {
    idempotencyKey: row.idempotency_key,
    title,
    text,
    payload: row.payload as unknown as Record<string, unknown>,
  };
}

/** Starts the lanes. See the module comment. */
export function startOutboxWorker(opts: OutboxWorkerOptions): OutboxWorker {
  const concurrency = opts.concurrency ?? 4;
  const maxAttempts = opts.maxAttempts ?? DELIVERY_MAX_ATTEMPTS;
  const backoff = opts.backoff ?? ((n: number) => backoffMs(n, { jitter: 0.2, random: Math.random() }));
  const pollMs = opts.pollMs ?? 1000;
  const send = opts.send ?? ((c: SendableChannel, m: OutboundMessage) => sendThrough(opts.senders, c, m));
  let running = true;
  let attempts = 0;
  const sleepers = new Set<() => void>();
  const wakeAll = () => {
    for (const w of [...sleepers]) w();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });

  /** Claims, sends and records one due row; false when none was due. */
  async function once(): Promise<boolean> {
    const client = await opts.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const claimed = await client.query<ClaimedRow>(
        `SELECT d.id, d.channel_id, d.idempotency_key, d.payload, d.attempts, c.config, c.secret_sealed
           FROM deliveries d JOIN channels c ON c.id = d.channel_id
          WHERE d.status = 'pending' AND d.next_at <= now()
          ORDER BY d.next_at
          LIMIT 1
          FOR UPDATE OF d SKIP LOCKED`,
      );
      const row = claimed.rows[0];
      if (!row) {
        await client.query('COMMIT');
        return false;
      }
      const config = ChannelConfig.safeParse(row.config);
      let result: AttemptResult;
      if (!config.success) {
        result = { ok: false, code: null, error: 'Channel settings are invalid', durationMs: 0 };
      } else {
        let secret: string | null = null;
        try {
          secret = row.secret_sealed ? opts.box.open(row.secret_sealed) : null;
        } catch {
          secret = null;
        }
        result = await send({ id: row.channel_id, config: config.data, secret }, messageOfRow(row));
      }
      const tries = row.attempts + 1;
      const status = result.ok ? 'delivered' : tries >= maxAttempts ? 'failed' : 'pending';
      await client.query(
        `INSERT INTO delivery_attempts (channel_id, delivery_id, ok, response_code, error, duration_ms)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [row.channel_id, row.id, result.ok, result.code, result.error, result.durationMs],
      );
      await client.query(
        `UPDATE deliveries SET attempts = $2, status = $3, last_error = $4,
                delivered_at = CASE WHEN $3 = 'delivered' THEN clock_timestamp() ELSE NULL END,
                next_at = CASE WHEN $3 = 'pending' THEN clock_timestamp() + ($5::int * interval '1 millisecond') ELSE next_at END
          WHERE id = $1`,
        [row.id, tries, status, result.error, status === 'pending' ? Math.round(backoff(tries)) : 0],
      );
      await client.query('COMMIT');
      attempts += 1;
      return true;
    } catch (err) {
      broken = true;
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release(broken);
    }
  }

  async function lane(): Promise<void> {
    while (running) {
      try {
        if (await once()) continue;
      } catch (err) {
        if (running) opts.log.error({ err }, 'outbox lane failed; retrying');
      }
      if (running) await sleep(pollMs);
    }
  }

  const lanes = Array.from({ length: concurrency }, () => lane());
  return {
    kick: wakeAll,
    get attempts() {
      return attempts;
    },
    async stop() {
      running = false;
      wakeAll();
      await Promise.allSettled(lanes);
    },
  };
}
