import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { CallScope, Handlers } from '../../../src/agent/commands/registry';
import type { GrantVerifier } from '../../../src/agent/link/grant';
import { GrantError } from '../../../src/agent/link/grant';
import { attachLink } from '../../../src/agent/link/session';
import type { LinkConnection } from '../../../src/agent/link/session';
import { silentLogger } from '../../../src/agent/log';
import { LINK_KEEPALIVE_INTERVAL_MS, LINK_SILENCE_TIMEOUT_MS } from '../../../src/protocol/constants';

/** A data connection double: records what the agent sends and whether it closed. */
class FakeConnection extends EventEmitter implements LinkConnection {
  readonly sent: Record<string, unknown>[] = [];
  open = false;
  closed = false;
  constructor(readonly peer = 'web-fakebrowser0001') {
    super();
  }
  send(data: unknown) {
    this.sent.push(data as Record<string, unknown>);
  }
  close() {
    this.closed = true;
    this.open = false;
  }
  opened() {
    this.open = true;
    this.emit('open');
  }
}

const verifier: GrantVerifier = {
  verify: async (grant) => {
    if (grant !== 'good') throw new GrantError('bad_signature', 'The grant is not signed by the server');
    return { sub: 'u', device_id: 'dev-1', browser_id: 'web-fakebrowser0001', jti: 'jti-1' };
  },
};

const handlers = new Proxy({} as Handlers<object>, {
  get: (_t, p: string) => async () =>
    p === 'camera-list' ? { big: 'x'.repeat(20_000) } : { pong: true, time: 0 },
});

const attach = (conn: FakeConnection, onClosed = vi.fn()) => {
  const link = attachLink(conn, {
    deviceId: 'dev-1',
    verifier,
    handlers,
    makeContext: () => ({}),
    onClosed,
    logger: silentLogger,
    helloTimeoutMs: 50,
  });
  return { link, onClosed };
};

const flush = () => new Promise((r) => setTimeout(r, 10));

describe('device link session', () => {
  it('answers hello.ok to a verified grant, then serves requests', async () => {
    const conn = new FakeConnection();
    const { link } = attach(conn);
    conn.opened();
    conn.emit('data', { type: 'hello', grant: 'good' });
    await flush();
    expect(conn.sent[0]).toEqual({ type: 'hello.ok', device_id: 'dev-1' });
    expect(link.authenticated).toBe(true);
    conn.emit('data', { type: 'request', process: 'ping', requestId: 'a', payload: {} });
    await flush();
    expect(conn.sent[1]).toMatchObject({ type: 'reply', requestId: 'a', ok: true });
  });

  it('answers requests that arrive while the grant is being checked, after hello.ok', async () => {
    const conn = new FakeConnection();
    attach(conn);
    conn.opened();
    conn.emit('data', { type: 'hello', grant: 'good' });
    conn.emit('data', { type: 'request', process: 'ping', requestId: 'early', payload: {} });
    await flush();
    expect(conn.sent.map((m) => m.type)).toEqual(['hello.ok', 'reply']);
  });

  it('refuses a bad grant with hello.error and closes', async () => {
    const conn = new FakeConnection();
    const { link } = attach(conn);
    conn.opened();
    conn.emit('data', { type: 'hello', grant: 'forged' });
    await flush();
    expect(conn.sent).toEqual([
      {
        type: 'hello.error',
        error: { code: 'unauthorized', message: 'The grant is not signed by the server' },
      },
    ]);
    expect(conn.closed).toBe(true);
    expect(link.authenticated).toBe(false);
    conn.emit('data', { type: 'request', process: 'ping', requestId: 'late', payload: {} });
    await flush();
    expect(conn.sent).toHaveLength(1);
  });

  it('closes a link that sends no hello in time', async () => {
    const conn = new FakeConnection();
    attach(conn);
    conn.opened();
    await new Promise((r) => setTimeout(r, 120));
    expect(conn.sent).toEqual([{ type: 'hello.error', error: expect.objectContaining({ code: 'timeout' }) }]);
    expect(conn.closed).toBe(true);
  });

  it('replaces a reply too large for the link by an error reply', async () => {
    const conn = new FakeConnection();
    attach(conn);
    conn.opened();
    conn.emit('data', { type: 'hello', grant: 'good' });
    await flush();
    conn.emit('data', { type: 'request', process: 'camera-list', requestId: 'big', payload: {} });
    await flush();
    expect(conn.sent[1]).toMatchObject({ requestId: 'big', ok: false, error: { code: 'internal_error' } });
  });

  it('reports its end once when the connection closes', async () => {
    const conn = new FakeConnection();
    const { link, onClosed } = attach(conn);
    conn.opened();
    conn.emit('close');
    conn.emit('close');
    link.close();
    expect(onClosed).toHaveBeenCalledTimes(1);
  });

  it('survives a PeerJS parse of bad JSON by answering malformed_message', async () => {
    const conn = Object.assign(new FakeConnection(), { parse: JSON.parse as (t: string) => unknown });
    attach(conn);
    conn.opened();
    conn.emit('data', { type: 'hello', grant: 'good' });
    await flush();
    conn.emit('data', conn.parse('{oops'));
    conn.emit('data', conn.parse('null'));
    await flush();
    expect(conn.sent.slice(1)).toEqual([
      expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'malformed_message' }) }),
      expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'malformed_message' }) }),
    ]);
  });

  it('reads a text frame as JSON text and answers anything undecodable with malformed_message', async () => {
    // As PeerJS's JSON connection handles a data channel message: decode, then parse.
    const conn = Object.assign(new FakeConnection(), {
      parse: JSON.parse as (t: string) => unknown,
      decoder: new TextDecoder(),
    });
    attach(conn);
    conn.opened();
    const frame = (data: unknown) => conn.emit('data', conn.parse(conn.decoder.decode(data as ArrayBuffer)));
    frame(new TextEncoder().encode(JSON.stringify({ type: 'hello', grant: 'good' })));
    await flush();
    frame(JSON.stringify({ type: 'request', process: 'ping', requestId: 'r1', payload: {} }));
    frame({ not: 'a frame' });
    await flush();
    expect(conn.sent).toHaveLength(3);
    expect(conn.sent.slice(1)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ requestId: 'r1', ok: true }),
        expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'malformed_message' }) }),
      ]),
    );
  });

  it('sends keep-alives while the browser talks, and closes the link once the browser falls silent', async () => {
    // Fake only the keep-alive's clock (setInterval and Date); flush() still uses real timeouts.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      const conn = new FakeConnection();
      const { onClosed } = attach(conn);
      conn.opened();
      conn.emit('data', { type: 'hello', grant: 'good' });
      await flush();
      for (let i = 0; i < 5; i++) {
        vi.advanceTimersByTime(LINK_KEEPALIVE_INTERVAL_MS);
        conn.emit('data', { type: 'keepalive' });
      }
      expect(conn.closed).toBe(false);
      expect(
        conn.sent.filter((m) => m.type === 'event' && m.name === 'keepalive').length,
      ).toBeGreaterThanOrEqual(4);
      // A keep-alive is not a request: it gets no reply.
      expect(conn.sent.some((m) => m.type === 'reply')).toBe(false);
      vi.advanceTimersByTime(LINK_SILENCE_TIMEOUT_MS + LINK_KEEPALIVE_INTERVAL_MS);
      expect(conn.closed).toBe(true);
      expect(onClosed).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets more than ten requests wait for the link to close without a MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      // Each request waits on its scope's signal, as a followed log or an IP camera still does.
      let aborted = 0;
      const waiting = new Proxy({} as Handlers<object>, {
        get: () => async (_payload: unknown, _ctx: object, scope: CallScope) => {
          await new Promise<void>((resolve) =>
            scope.signal?.addEventListener(
              'abort',
              () => {
                aborted++;
                resolve();
              },
              { once: true },
            ),
          );
          return {};
        },
      });
      const conn = new FakeConnection();
      const link = attachLink(conn, {
        deviceId: 'dev-1',
        verifier,
        handlers: waiting,
        makeContext: () => ({}),
        onClosed: vi.fn(),
        logger: silentLogger,
      });
      conn.opened();
      conn.emit('data', { type: 'hello', grant: 'good' });
      await flush();
      for (let i = 0; i < 25; i++) {
        conn.emit('data', { type: 'request', process: 'ping', requestId: `w${i}`, payload: {} });
      }
      await flush();
      expect(aborted).toBe(0);
      link.close();
      await flush();
      // Every waiting request learnt of the close, and Node saw no listener leak on the way.
      expect(aborted).toBe(25);
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
