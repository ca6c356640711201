/**
 * Joins two byte streams both ways (a TCP socket and a tunnel stream), with backpressure (pipe). Shared by
 * the agent and the server's tunnel. An error on either side destroys both; when one side closes, the other
 * is ended (its pending bytes flushed) and destroyed if still open `lingerMs` later.
 */
import type { Duplex } from 'node:stream';

export function splice(a: Duplex, b: Duplex, lingerMs = 5000): void {
  a.pipe(b);
  b.pipe(a);
  const fail = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', fail);
  b.on('error', fail);
  const closed = (other: Duplex) => () => {
    if (other.destroyed) return;
    other.end();
    setTimeout(() => other.destroy(), lingerMs).unref();
  };
  a.once('close', closed(b));
  b.once('close', closed(a));
}
