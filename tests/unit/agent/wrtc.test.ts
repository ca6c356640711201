import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPeer } from '../../../src/agent/wrtc';

describe('the agent WebSocket for PeerJS', () => {
  // A signalling server that refuses every upgrade, as ours does for a revoked device token.
  const server = createServer((_req, res) => res.end());
  server.on('upgrade', (_req, socket) => {
    socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reports a refused upgrade as a peer error instead of crashing the process', async () => {
    const Peer = await loadPeer();
    const peer = new Peer('dev-00000000deadbeef', {
      host: '127.0.0.1',
      port,
      path: '/peerjs',
      key: 'peerjs',
      token: 'revoked-token',
      secure: false,
    });
    const errorType = await new Promise<string>((resolve) => peer.on('error', (e) => resolve(e.type)));
    peer.destroy();
    expect(errorType).toBe('network');
  });
});
