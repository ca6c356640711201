/**
 * Publishing to a user's sockets (src/protocol/notifications.ts RealtimeMessage; §7 real-time socket):
 * `publishToUser(q, userId, message)` runs `pg_notify('edge_realtime', …)` on the given connection or
 * transaction; PostgreSQL delivers it at commit to every server process LISTENing (socket.ts), and each
 * emits it to that user's sockets. Inside a transaction nothing is sent unless it commits.
 * A payload over PostgreSQL's 8000-byte limit is sent without its long texts (clipped to 1,000 characters).
 */
import { sql } from 'drizzle-orm';
import type { RealtimeMessage } from '../../protocol/notifications';
import type { Db } from '../db';

export const REALTIME_CHANNEL = 'edge_realtime';
export const OUTBOX_CHANNEL = 'edge_outbox';

/** A database handle or a transaction of one (anything with `execute`). */
export type Executor = Pick<Db, 'execute'>;

/** The wire form on the PostgreSQL channel: user id and message. */
export interface RealtimeEnvelope {
  u: string;
  m: RealtimeMessage;
}

function clipMessage(m: RealtimeMessage): RealtimeMessage {
  if (m.type !== 'notification') return m;
  const n = m.notification;
  return { ...m, notification: { ...n, title: n.title.slice(0, 1000), message: n.message.slice(0, 1000) } };
}

/** Sends `message` to every socket of `userId` (at commit when `q` is a transaction). */
export async function publishToUser(q: Executor, userId: string, message: RealtimeMessage): Promise<void> {
  let payload = JSON.stringify({ u: userId, m: message } satisfies RealtimeEnvelope);
  if (Buffer.byteLength(payload) > 7900) payload = JSON.stringify({ u: userId, m: clipMessage(message) });
  await q.execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${payload})`);
}

/** Wakes the outbox workers of every server process (at commit when `q` is a transaction). */
export async function wakeOutbox(q: Executor): Promise<void> {
  await q.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
}
