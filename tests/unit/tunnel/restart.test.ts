/**
 * A server restart (same data directory and port): the agent's tunnel reconnects by itself, and the remote-app
 * cookie issued before the restart still opens the app (its key comes from the server's signing key, which is
 * kept in the database).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { silentLogger } from '../../../src/agent/log';
import { startTunnelClient, type TunnelClient } from '../../../src/agent/tunnel';
import { remoteBasePath } from '../../../src/protocol/containers';
import { startServer, type RunningServer } from '../../../src/server/index';
import { eventually, login } from '../server/helpers';
import { cookiePair, startWebApp, type WebApp, requestRemote } from './helpers';
import { removeDataDir } from '../../../src/server/db/embedded';

const CONTAINER = 'feedface0123feedface0123feedface0123feedface0123feedface01234567';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tunnel-restart-'));
let server: RunningServer | null = null;
let tunnel: TunnelClient | null = null;
let app: WebApp | null = null;

const start = (port: number) =>
  startServer({
    port,
    host: '127.0.0.1',
    dataDir,
    staticDir: null,
    logLevel: 'silent',
    embeddedPgNoSync: true,
  });

afterAll(async () => {
  await tunnel?.close();
  await app?.close();
  await server?.close();
  removeDataDir(dataDir);
});

it('the tunnel reconnects after a server restart and the earlier cookie still works', async () => {
  server = await start(0);
  const user = await server.seed.ensureUser({ email: 'restart@example.com', password: 'restart-pw-1' });
  const device = await server.seed.ensureDevice({ ownerId: user.id, label: 'Box', chipsetId: '0' });
  const deviceToken = await server.seed.issueDeviceToken(device.id);
  const base = remoteBasePath(device.device_id, CONTAINER);
  app = await startWebApp(base);
  const appPort = app.port;
  tunnel = startTunnelClient({
    serverUrl: server.url,
    deviceToken,
    log: silentLogger,
    minBackoffMs: 50,
    maxBackoffMs: 300,
    resolveTarget: async () => ({ host: '127.0.0.1', port: appPort }),
  });
  await eventually(() => tunnel!.connected);
  const { token } = await login(server, 'restart@example.com', 'restart-pw-1');
  const answer = await requestRemote(server.url, token, device.device_id, CONTAINER);
  expect(answer.status).toBe(200);
  const cookie = cookiePair(answer.setCookie!);
  const open = () => fetch(`${server!.url}${base}lab`, { headers: { cookie } });
  expect(await (await open()).text()).toBe('hello lab');

  const port = server.port;
  await server.close();
  await eventually(() => !tunnel!.connected);
  server = await start(port);
  await eventually(() => tunnel!.connected, 20_000);
  const res = await open();
  expect(res.status).toBe(200);
  expect(await res.text()).toBe('hello lab');
}, 90_000);
