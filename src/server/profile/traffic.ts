/**
 * Tunnel traffic counters (issue 13 "network-data-usage"): bytes relayed through the server's reverse tunnel
 * (src/server/tunnel/) per device and UTC day, in both directions — `from_device` (what the device's app sent,
 * i.e. the answers a browser got) and `to_device` (what the server wrote towards the device).
 *
 * Counting is in memory per (device, day) as bytes pass a tunnel connection's stream (`meter`, given to the
 * TunnelHub); every `flushMs` (default 10 s) and at close the totals are added to `tunnel_traffic` in ONE
 * statement (INSERT … ON CONFLICT DO UPDATE SET bytes = bytes + excluded) — never a database write per packet.
 * A failed flush keeps the counts for the next one. Bytes are payload bytes of the tunnel connection (the
 * proxied HTTP/WebSocket bytes), without the tunnel's own WebSocket framing.
 */
import type { Duplex } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';

export interface TrafficOptions {
  /** How often pending counts are written, ms. Default 10 000. */
  flushMs?: number;
  /** The clock (tests). */
  now?: () => Date;
}

interface Pending {
  deviceId: string;
  day: string;
  fromDevice: number;
  toDevice: number;
}

/** UTC calendar day `YYYY-MM-DD` of a time. */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

const byteLength = (chunk: unknown, encoding?: BufferEncoding): number => {
  if (chunk === null || chunk === undefined) return 0;
  if (typeof chunk === 'string') return Buffer.byteLength(chunk, encoding);
  if (chunk instanceof Uint8Array) return chunk.byteLength;
  return 0;
};

export class TunnelTraffic {
  private readonly pending = new Map<string, Pending>();
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => Date;
  private flushing: Promise<void> = Promise.resolve();
  /** Number of flush statements run (tests, diagnostics). */
  flushes = 0;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: TrafficOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.timer = setInterval(() => void this.flush(), options.flushMs ?? 10_000);
    this.timer.unref();
  }

  /** Adds bytes of `deviceId` to today's pending counts. */
  add(deviceId: string, fromDevice: number, toDevice: number): void {
    if (fromDevice <= 0 && toDevice <= 0) return;
    const day = utcDay(this.now());
    const key = `${deviceId}\n${day}`;
    let p = this.pending.get(key);
    if (!p) this.pending.set(key, (p = { deviceId, day, fromDevice: 0, toDevice: 0 }));
    p.fromDevice += Math.max(0, fromDevice);
    p.toDevice += Math.max(0, toDevice);
  }

  /** Counts the bytes of one tunnel connection of `deviceId` as they pass (push: from the device; write: to it). */
  readonly meter = (deviceId: string, stream: Duplex): void => {
    const push = stream.push.bind(stream);
    stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
      this.add(deviceId, byteLength(chunk, encoding), 0);
      return push(chunk, encoding);
    };
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((...args: unknown[]) => {
      const enc = typeof args[1] === 'string' ? (args[1] as BufferEncoding) : undefined;
      this.add(deviceId, 0, byteLength(args[0], enc));
      return write(...args);
    }) as Duplex['write'];
  };

  /** Counts not yet written (tests, diagnostics). */
  pendingTotals(): Pending[] {
    return [...this.pending.values()].map((p) => ({ ...p }));
  }

  /** Writes the pending counts in one statement (flushes never overlap). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushNow());
    return this.flushing;
  }

  private async flushNow(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending.clear();
    const values = sql.join(
      batch.map((p) => sql`(${p.deviceId}, ${p.day}, ${p.fromDevice}, ${p.toDevice})`),
      sql`, `,
    );
    try {
      this.flushes++;
      await this.db.execute(sql`
        INSERT INTO tunnel_traffic (device_row_id, day, bytes_from_device, bytes_to_device)
        SELECT d.id, v.day::date, v.f::bigint, v.t::bigint
        FROM (VALUES ${values}) AS v(device_id, day, f, t)
        JOIN devices d ON d.device_id = v.device_id
        ON CONFLICT (device_row_id, day) DO UPDATE SET
          bytes_from_device = tunnel_traffic.bytes_from_device + EXCLUDED.bytes_from_device,
          bytes_to_device = tunnel_traffic.bytes_to_device + EXCLUDED.bytes_to_device`);
    } catch (err) {
      // Keep the counts for the next flush.
      for (const p of batch) this.requeue(p);
      this.log.warn({ err }, 'tunnel traffic: flush failed, kept for the next one');
    }
  }

  private requeue(p: Pending): void {
    const key = `${p.deviceId}\n${p.day}`;
    const q = this.pending.get(key);
    if (q) {
      q.fromDevice += p.fromDevice;
      q.toDevice += p.toDevice;
    } else this.pending.set(key, { ...p });
  }

  /** Stops the timer and writes what is pending. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
