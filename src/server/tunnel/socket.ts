/**
 * A tunnel connection (a WebSocket stream) made usable as the socket of Node's HTTP client: the few net.Socket
 * methods `http.Agent` and `ClientRequest` call on their sockets. `setTimeout(ms)` emits 'timeout' after `ms`
 * without bytes either way (the keep-alive agent closes idle free sockets on it; `setTimeout(0, cb)` removes
 * `cb`, as net.Socket does); keep-alive, no-delay and
 * ref/unref have no meaning for a tunnel stream and do nothing.
 */
import type { Duplex } from 'node:stream';

export interface TunnelSocket extends Duplex {
  timeout: number;
  setTimeout(ms: number, callback?: () => void): this;
  setKeepAlive(): this;
  setNoDelay(): this;
  ref(): this;
  unref(): this;
}

/** Adds the socket methods to `stream` (in place) and returns it. */
export function tunnelSocket(stream: Duplex): TunnelSocket {
  const socket = stream as TunnelSocket;
  let timer: NodeJS.Timeout | null = null;
  let lastActivity = Date.now();
  const touch = () => (lastActivity = Date.now());
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (socket.timeout <= 0 || socket.destroyed) return;
    timer = setTimeout(
      () => {
        timer = null;
        const idle = Date.now() - lastActivity;
        if (idle >= socket.timeout) socket.emit('timeout');
        else arm();
      },
      Math.max(1, socket.timeout - (Date.now() - lastActivity)),
    );
    timer.unref();
  };
  socket.timeout = 0;
  // Activity is seen where bytes pass (push/write), not with a 'data' listener (that would start the flow).
  const push = socket.push.bind(socket);
  socket.push = (chunk: unknown, encoding?: BufferEncoding) => {
    touch();
    return push(chunk, encoding);
  };
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  socket.write = ((...args: unknown[]) => {
    touch();
    return write(...args);
  }) as Duplex['write'];
  socket.once('close', () => {
    if (timer) clearTimeout(timer);
    timer = null;
  });
  socket.setTimeout = function (ms: number, callback?: () => void) {
    this.timeout = ms;
    touch();
    // As net.Socket: 0 with a callback removes that listener.
    if (callback && ms === 0) this.removeListener('timeout', callback);
    else if (callback) this.once('timeout', callback);
    arm();
    return this;
  };
  socket.setKeepAlive = function () {
    return this;
  };
  socket.setNoDelay = function () {
    return this;
  };
  socket.ref = function () {
    return this;
  };
  socket.unref = function () {
    return this;
  };
  return socket;
}
