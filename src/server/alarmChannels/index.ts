/**
 * Alarm channels in a running server (issue 11): `startAlarmChannels(app, ctx, upgrades)` starts the
 * real-time socket (src/server/realtime/socket.ts) and the outbox worker (worker.ts) with the server, and
 * stops them when the app closes (before the database pool). `channelRuntimeOf(ctx)` gives the route
 * handlers the same senders (Test button).
 *
 * Environment: `TELEGRAM_API_URL` (Bot API base, default https://api.telegram.org), `OUTBOX_CONCURRENCY`
 * (lanes per process, default 4), `OUTBOX_MAX_ATTEMPTS` (default 6), `WEB_PUSH_SUBJECT` (VAPID contact,
 * default `mailto:` the MAIL_FROM address).
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { DELIVERY_MAX_ATTEMPTS } from '../../protocol/alarmChannels';
import { secretBox } from '../auth/secretBox';
import type { ServerContext } from '../context';
import { handleClientErrors } from '../db';
import { users } from '../db/schema';
import { mailerOf } from '../mail';
import { startRealtime } from '../realtime/socket';
import type { UpgradeRouter } from '../signalling/upgrade';
import { privateUrlsAllowed } from '../net/publicUrl';
import type { SenderDeps } from './senders';
import { createWebPush } from './webPush';
import { startOutboxWorker, type OutboxWorker } from './worker';

export { enqueueEventDeliveries, type DeliverableEvent } from './outbox';

const runtimes = new WeakMap<ServerContext, SenderDeps>();

function vapidSubject(from: string): string {
  const explicit = process.env.WEB_PUSH_SUBJECT?.trim();
  if (explicit) return explicit;
  const addr = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return `mailto:${addr.includes('@') ? addr : 'no-reply@edge.local'}`;
}

/** The senders of this server (mailer, Web Push, Telegram base URL), made once per context. */
export function channelRuntimeOf(ctx: ServerContext, app: FastifyInstance): SenderDeps {
  let deps = runtimes.get(ctx);
  if (!deps) {
    const { mailer, settings } = mailerOf(ctx, app);
    deps = {
      mailer,
      webPush: createWebPush(ctx.db, vapidSubject(settings.from)),
      telegramApiUrl: process.env.TELEGRAM_API_URL?.trim() || undefined,
      allowPrivateUrls: privateUrlsAllowed(),
    };
    runtimes.set(ctx, deps);
  }
  return deps;
}

/** Starts the socket and the worker; both stop on app close. */
export async function startAlarmChannels(
  app: FastifyInstance,
  ctx: ServerContext,
  upgrades: UpgradeRouter,
): Promise<void> {
  const base = (ctx.db as unknown as { $client: pg.Pool }).$client.options;
  const connection: pg.ClientConfig = { ...base } as pg.ClientConfig;
  const concurrency = Math.max(1, Number(process.env.OUTBOX_CONCURRENCY) || 4);
  const pool = new pg.Pool({ ...(base as pg.PoolConfig), max: concurrency });
  pool.on('error', (err) => app.log.warn({ err }, 'outbox connection error'));
  // A borrowed connection that breaks (the database killed) emits 'error' on its client: handled, not a crash.
  handleClientErrors(pool, (err) => app.log.warn({ err }, 'outbox connection lost'));
  const worker: OutboxWorker = startOutboxWorker({
    pool,
    box: await secretBox(ctx.db),
    senders: channelRuntimeOf(ctx, app),
    log: app.log,
    concurrency,
    maxAttempts: Math.max(1, Number(process.env.OUTBOX_MAX_ATTEMPTS) || DELIVERY_MAX_ATTEMPTS),
  });
  // socket.io's engine answers its own upgrades; the router must only let them through.
  upgrades.add('/socket.io', () => undefined);
  const realtime = startRealtime({
    server: app.server,
    tokens: ctx.tokens,
    connection,
    isActive: async (id) => {
      const [u] = await ctx.db.select({ disabledAt: users.disabledAt }).from(users).where(eq(users.id, id));
      return !!u && !u.disabledAt;
    },
    onOutbox: () => worker.kick(),
    log: app.log,
  });
  // Before the HTTP server closes (preClose): it waits for every open connection, the sockets' WebSockets too,
  // which would hold a SIGTERM for as long as a browser stays (issue 15 "Server restarted").
  app.addHook('preClose', async () => {
    await realtime.close();
  });
  app.addHook('onClose', async () => {
    await worker.stop();
    await pool.end().catch(() => undefined);
  });
}
