/**
 * Issue 15 "Server restarted: browsers … reconnect without a reload": a stopping server closes the real-time
 * socket (src/server/realtime/socket.ts `close()`) so that socket.io clients reconnect. A server-side
 * disconnect is taken by socket.io-client for a kick ("io server disconnect": the socket never reconnects);
 * closing the transports is a "transport close", after which the client stays active and reconnects.
 * A real socket.io server on a local HTTP server; no database (the LISTEN connection fails and is retried).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { TokenSigner } from '../../../src/server/auth/tokens';
import { startRealtime, type Realtime } from '../../../src/server/realtime/socket';

const quiet = { warn: () => undefined, error: () => undefined };
const tokens = { verify: async () => ({ sub: 'user-1' }) } as unknown as TokenSigner;

let http: Server | null = null;
let realtime: Realtime | null = null;
let client: Socket | null = null;

afterEach(async () => {
  client?.close();
  await realtime?.close();
  await new Promise((r) => (http ? http.close(r) : r(null)));
  http = null;
  realtime = null;
  client = null;
});

async function start(port = 0): Promise<number> {
  http = createServer();
  realtime = startRealtime({
    server: http,
    tokens,
    connection: { host: '127.0.0.1', port: 1, connectionTimeoutMillis: 200 },
    isActive: async () => true,
    onOutbox: () => undefined,
    log: quiet,
  });
  await new Promise<void>((r) => http!.listen(port, '127.0.0.1', r));
  return (http.address() as AddressInfo).port;
}

describe('real-time socket close', () => {
  it('a client sees a transport close, not a kick, and reconnects to the restarted server', async () => {
    const port = await start();
    client = connect(`http://127.0.0.1:${port}`, {
      path: '/socket.io',
      auth: { token: 't' },
      transports: ['websocket'],
      reconnectionDelay: 100,
      reconnectionDelayMax: 200,
    });
    await new Promise((r) => client!.once('connect', () => r(null)));
    const reason = new Promise<string>((r) => client!.once('disconnect', r));
    await realtime!.close();
    realtime = null;
    expect(await reason).toBe('transport close');
    expect(client.active).toBe(true);
    await new Promise((r) => http!.close(r));
    http = null;
    // The same port again (a restart): the client comes back by itself.
    await start(port);
    await new Promise((r) => client!.once('connect', () => r(null)));
    expect(client.connected).toBe(true);
  });
});
