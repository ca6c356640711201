/**
 * Programmatic entry point of the server (used by src/start.ts, src/server/main.ts and the tests).
 *
 *   const server = await startServer({ port: 0, dataDir: '/tmp/x', logLevel: 'silent' });
 *   server.url            // 'http://127.0.0.1:PORT'
 *   await server.seed.ensureUser({ email, password });
 *   await server.close(); // HTTP, signalling, database pool, embedded PostgreSQL, data-dir lock
 *
 * Errors: rejects with DataDirLockedError when another server uses the data directory, or with an Error
 * when PostgreSQL cannot start or be reached; nothing is left running after a rejection.
 */
import type { Socket } from 'node:net';
import { createApp, registerRoutes } from './app';
import { loadSigningKey } from './auth/keys';
import { TokenSigner } from './auth/tokens';
import { resolveConfig, type ServerOptions } from './config';
import type { ServerContext } from './context';
import { openDatabase, type Database } from './db';
import { DatabaseStatus } from './db/availability';
import { createSeed, type Seed } from './seed';
import { startSignalling, type SignallingServer } from './signalling/peerServer';
import { Presence } from './signalling/presence';
import { UpgradeRouter } from './signalling/upgrade';
import { createTunnels, mountTunnelUpgrades, type Tunnels } from './tunnel';
import { TunnelTraffic } from './profile/traffic';
import { ensureDemoRelease } from './routes/software';
import { ensureDemoModels } from './models/seed';
import { ensureDemoApplications } from './routes/applications';
import { startAlarmChannels } from './alarmChannels';

export type { ServerOptions } from './config';
export type { Seed, EnsureDeviceInput, EnsureUserInput } from './seed';
export { DataDirLockedError } from './db/lock';

/** A started server. */
export interface RunningServer {
  /** http://127.0.0.1:port (or http://host:port when bound to one specific address). */
  url: string;
  port: number;
  /** Stops HTTP, the signalling server, the database pool and embedded PostgreSQL; idempotent. */
  close(): Promise<void>;
  seed: Seed;
}

/** How long a stopping server lets requests in flight finish before it cuts their connections, ms. */
export const SHUTDOWN_GRACE_MS = 5_000;

function urlHost(host: string): string {
  if (['0.0.0.0', '::', '127.0.0.1', 'localhost', '::1', ''].includes(host)) return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts database, REST API, signalling and static console. See the module comment. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const config = resolveConfig(options);
  const startedAt = Date.now();
  const databaseStatus = new DatabaseStatus();
  const app = createApp(config, databaseStatus);
  let signallingUp = false;
  let database: Database | null = null;
  let signalling: SignallingServer | null = null;
  let tunnels: Tunnels | null = null;
  let traffic: TunnelTraffic | null = null;
  let closing: Promise<void> | null = null;
  /** Every connection the HTTP server accepted and that is still open (cut by close() after the grace). */
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const close = () =>
    (closing ??= (async () => {
      signallingUp = false;
      tunnels?.hub.close();
      await signalling?.close().catch((err: unknown) => app.log.error({ err }, 'closing signalling failed'));
      // Issue 15 "Server restarted": a request still sending its body (a 16 MB tus PATCH on a slow link, a
      // stalled client) would hold the close as long as it lasts; after SHUTDOWN_GRACE_MS the connections left
      // are cut (an upload resumes from the server's offset).
      const cut = setTimeout(() => {
        app.server.closeAllConnections();
        for (const socket of sockets) socket.destroy(); // upgraded ones (WebSockets) too
      }, SHUTDOWN_GRACE_MS);
      cut.unref();
      await app.close().catch((err: unknown) => app.log.error({ err }, 'closing HTTP failed'));
      clearTimeout(cut);
      await traffic?.close().catch((err: unknown) => app.log.error({ err }, 'writing tunnel traffic failed'));
      await database?.close();
    })());

  try {
    database = await openDatabase(
      {
        dataDir: config.dataDir,
        databaseUrl: config.databaseUrl,
        noSync: config.embeddedPgNoSync,
        status: databaseStatus,
      },
      app.log,
    );
    const tokens = new TokenSigner(await loadSigningKey(database.db));
    traffic = new TunnelTraffic(database.db, app.log);
    tunnels = await createTunnels(database.db, app.log, { meter: traffic.meter });
    const opened = database;
    const readiness = {
      startedAt,
      database: async () => ({ up: await opened.probe(), reason: opened.status.reason }),
      signalling: () => signallingUp,
    };
    const ctx: ServerContext = {
      config,
      db: database.db,
      tokens,
      presence: new Presence(),
      tunnels,
      readiness,
    };
    const seed = createSeed(ctx);
    if (config.demoAccount) {
      const demo = await seed.ensureUser(config.demoAccount);
      await seed.ensureGroups(demo.id);
      await seed.ensureEnvironments();
      // An agent release to update to, so the demo's devices show the Software tab's update (§4).
      await ensureDemoRelease(ctx);
      // Models with real small files, so /models is not empty and a deploy can be tried (issue 9).
      await ensureDemoModels(ctx, demo.id);
      // An application of the demo detector, so /applications is not empty (issue 9).
      await ensureDemoApplications(ctx, demo.id);
    }
    await registerRoutes(app, ctx, databaseStatus);
    const upgrades = new UpgradeRouter(app.server);
    signalling = startSignalling(app, ctx, upgrades, app.log);
    signallingUp = true;
    mountTunnelUpgrades(ctx, upgrades, app.log);
    await startAlarmChannels(app, ctx, upgrades);
    await app.listen({ port: config.port, host: config.host });
    if (config.demoAccount && !config.publishDemoAccount) {
      app.log.warn(
        `listening on ${config.host}, beyond loopback: the demo account's password is not published`,
      );
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    return { url: `http://${urlHost(config.host)}:${port}`, port, close, seed };
  } catch (err) {
    await close();
    throw err;
  }
}
