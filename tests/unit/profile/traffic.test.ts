/**
 * Tunnel traffic counters (issue 13 network-data-usage; src/server/profile/traffic.ts):
 * - in memory per (device, UTC day), both directions, written in ONE statement per flush (never per packet),
 *   kept for the next flush when a write fails;
 * - on the real server and the real agent tunnel: bytes of a proxied request land in tunnel_traffic and
 *   GET usage/network answers them for the owner only.
 */
import { Duplex } from 'node:stream';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTunnelClient, type TunnelClient } from '../../../src/agent/tunnel';
import { silentLogger } from '../../../src/agent/log';
import { remoteBasePath } from '../../../src/protocol/containers';
import type { Db } from '../../../src/server/db';
import { TunnelTraffic } from '../../../src/server/profile/traffic';
import { api, eventually, login, startTestServer, type TestServer } from '../server/helpers';
import { cookiePair, requestRemote, startWebApp, type WebApp } from '../tunnel/helpers';

const log = { warn: () => undefined } as never;
const dialect = new PgDialect();

function fakeDb(fail = false) {
  const statements: { sql: string; params: unknown[] }[] = [];
  const db = {
    execute: async (q: SQL) => {
      statements.push(dialect.sqlToQuery(q));
      if (fail) throw new Error('database down');
    },
  } as unknown as Db;
  return { db, statements };
}

describe('TunnelTraffic (batching)', () => {
  it('counts every chunk in memory and writes one statement per flush with the sums per device and day', async () => {
    let now = new Date('2026-11-27T23:59:59Z');
    const { db, statements } = fakeDb();
    const traffic = new TunnelTraffic(db, log, { flushMs: 3_600_000, now: () => now });
    // Like a tunnel connection's stream: pushes come from the device, writes go to it.
    const stream = new Duplex({ read() {}, write: (_c, _e, done) => done() });
    traffic.meter('dev-a', stream);
    stream.resume();
    for (let i = 0; i < 1000; i++) stream.push(Buffer.alloc(100)); // from the device
    for (let i = 0; i < 500; i++) stream.write(Buffer.alloc(10)); // to the device
    stream.write('héllo'); // 6 bytes in UTF-8
    traffic.add('dev-b', 7, 0);
    now = new Date('2026-11-28T00:00:01Z');
    traffic.add('dev-a', 1, 2);
    expect(statements).toHaveLength(0);
    expect(traffic.pendingTotals()).toEqual([
      { deviceId: 'dev-a', day: '2026-11-27', fromDevice: 100_000, toDevice: 5_006 },
      { deviceId: 'dev-b', day: '2026-11-27', fromDevice: 7, toDevice: 0 },
      { deviceId: 'dev-a', day: '2026-11-28', fromDevice: 1, toDevice: 2 },
    ]);
    await traffic.flush();
    expect(statements).toHaveLength(1);
    expect(statements[0]!.sql).toMatch(/ON CONFLICT \(device_row_id, day\) DO UPDATE/);
    expect(statements[0]!.params).toEqual([
      'dev-a',
      '2026-11-27',
      100_000,
      5_006,
      'dev-b',
      '2026-11-27',
      7,
      0,
      'dev-a',
      '2026-11-28',
      1,
      2,
    ]);
    await traffic.flush(); // nothing pending: no statement
    expect(statements).toHaveLength(1);
    await traffic.close();
  });

  it('keeps the counts when a write fails, for the next flush', async () => {
    const { db, statements } = fakeDb(true);
    const traffic = new TunnelTraffic(db, log, { flushMs: 3_600_000 });
    traffic.add('dev-a', 10, 20);
    await traffic.flush();
    traffic.add('dev-a', 1, 2);
    expect(traffic.pendingTotals()).toMatchObject([{ deviceId: 'dev-a', fromDevice: 11, toDevice: 22 }]);
    expect(statements).toHaveLength(1);
    await traffic.close();
  });
});

describe('tunnel traffic on the real stack', () => {
  const CONTAINER = 'abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789';
  let server: TestServer;
  let app: WebApp;
  let tunnel: TunnelClient;
  let owner: string;
  let stranger: string;
  let deviceId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const o = await server.seed.ensureUser({ email: 'owner@example.com', password: 'owner-pw-1' });
    await server.seed.ensureUser({ email: 'stranger@example.com', password: 'stranger-pw-1' });
    const device = await server.seed.ensureDevice({ ownerId: o.id, label: 'Jetson', chipsetId: '23' });
    deviceId = device.device_id;
    const deviceToken = await server.seed.issueDeviceToken(device.id);
    owner = (await login(server, 'owner@example.com', 'owner-pw-1')).token;
    stranger = (await login(server, 'stranger@example.com', 'stranger-pw-1')).token;
    app = await startWebApp(remoteBasePath(deviceId, CONTAINER));
    tunnel = startTunnelClient({
      serverUrl: server.url,
      deviceToken,
      log: silentLogger,
      minBackoffMs: 50,
      maxBackoffMs: 200,
      resolveTarget: async () => ({ host: '127.0.0.1', port: app.port }),
    });
    await eventually(() => tunnel.connected);
  });
  afterAll(async () => {
    await tunnel?.close();
    await app?.close();
    await server?.dispose();
  });

  it('a 300 kB answer and a 50 kB upload through the tunnel are counted for the owner’s device and day', async () => {
    const remote = await requestRemote(server.url, owner, deviceId, CONTAINER);
    expect(remote.status).toBe(200);
    const cookie = cookiePair(remote.setCookie!);
    const base = `${server.url}${remoteBasePath(deviceId, CONTAINER)}`;
    const big = await fetch(`${base}big?n=300000`, { headers: { cookie } });
    expect((await big.arrayBuffer()).byteLength).toBe(300_000);
    const echo = await fetch(`${base}echo`, {
      method: 'POST',
      headers: { cookie },
      body: Buffer.alloc(50_000, 1),
    });
    expect((await echo.arrayBuffer()).byteLength).toBe(50_000);

    // Written by the periodic flush (10 s), not per packet.
    let rows: { device_id: string; bytes_from_device: number; bytes_to_device: number }[] = [];
    await eventually(async () => {
      rows = (await api(server, 'GET', 'usage/network?days=1', { token: owner })).body.rows;
      return rows.length > 0 && rows[0]!.bytes_from_device >= 350_000;
    }, 20_000);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.device_id).toBe(deviceId);
    // From the device: both answers' bodies plus HTTP headers; to the device: the upload plus requests.
    expect(rows[0]!.bytes_from_device).toBeLessThan(360_000);
    expect(rows[0]!.bytes_to_device).toBeGreaterThanOrEqual(50_000);
    expect(rows[0]!.bytes_to_device).toBeLessThan(55_000);
    const other = await api(server, 'GET', 'usage/network?days=1', { token: stranger });
    expect(other.body.rows).toEqual([]);
  }, 40_000);
});
