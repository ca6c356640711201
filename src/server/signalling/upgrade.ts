/**
 * WebSocket upgrade routing (ARCHITECTURE notes: the `peer` package's WebSocket server would claim every
 * upgrade): one `upgrade` listener on the HTTP server hands each request to the handler of its path prefix;
 * unknown paths are refused with 404 so no socket is left hanging.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Writes a plain HTTP error answer on a not-yet-upgraded socket and closes it. */
export function refuseUpgrade(socket: Duplex, status: number, code: string, message: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ code, message });
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found' }[status] ?? 'Error';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.destroy();
}

export class UpgradeRouter {
  private readonly routes: { prefix: string; handler: UpgradeHandler }[] = [];

  constructor(server: Server) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy()); // a reset during the handshake must not crash us
      const pathname = (req.url ?? '/').split('?')[0] ?? '/';
      const route = this.routes.find((r) => pathname === r.prefix || pathname.startsWith(r.prefix + '/'));
      if (!route) return refuseUpgrade(socket, 404, 'Not_found', `No WebSocket endpoint at ${pathname}`);
      try {
        route.handler(req, socket, head);
      } catch {
        refuseUpgrade(socket, 400, 'Bad_request', 'Upgrade failed');
      }
    });
  }

  /** Routes upgrades whose path is `prefix` or below it. */
  add(prefix: string, handler: UpgradeHandler): void {
    this.routes.push({ prefix, handler });
  }
}
