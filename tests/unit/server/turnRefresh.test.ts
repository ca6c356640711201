/**
 * Issue 15 "Relayed WebRTC": both ends keep their TURN credentials fresh. The agent (AgentIce) and the
 * console (PeerLink) fetch a new ICE answer once half of the minted credentials' lifetime has passed, and
 * update the configuration object PeerJS reads for each new connection in place; the relay policy follows.
 */
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AgentIce } from '../../../src/agent/iceConfig';
import { createPeerLink, type PeerLike, type PeerOptions } from '../../../src/console/platform/peerLink';
import type { IceServersResponse } from '../../../src/protocol';

const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);
const turn = (username: string) => ({ urls: 'turn:127.0.0.1:3478', username, credential: 'c' });
const answer = (username: string, ttlMs: number, policy?: 'all' | 'relay'): IceServersResponse => ({
  servers: [turn(username)],
  expires_at: Date.now() + ttlMs,
  ...(policy ? { policy } : {}),
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('AgentIce (the agent)', () => {
  const log = { warn: vi.fn(), info: vi.fn() };

  it('refreshes at half the lifetime, in place, and takes the policy', async () => {
    const fetchIce = vi
      .fn<() => Promise<IceServersResponse>>()
      .mockImplementationOnce(async () => answer('first', 600_000, 'relay'))
      .mockImplementationOnce(async () => answer('second', 600_000));
    const ice = new AgentIce(fetchIce, log);
    await ice.load();
    const config = ice.config;
    expect(config).toEqual({ iceServers: [turn('first')], iceTransportPolicy: 'relay' });

    await vi.advanceTimersByTimeAsync(299_000);
    expect(fetchIce).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fetchIce).toHaveBeenCalledTimes(2);
    // The same object PeerJS holds now has the new credentials; an answer without policy means 'all'.
    expect(ice.config).toBe(config);
    expect(config).toEqual({ iceServers: [turn('second')], iceTransportPolicy: 'all' });
    expect(ice.iceServers()).toEqual([turn('second')]);
    ice.stop();
  });

  it('a failed refresh keeps the current servers, logs, and retries', async () => {
    const fetchIce = vi
      .fn<() => Promise<IceServersResponse>>()
      .mockImplementationOnce(async () => answer('first', 120_000))
      .mockImplementationOnce(async () => {
        throw new Error('server unreachable');
      })
      .mockImplementationOnce(async () => answer('third', 120_000));
    const ice = new AgentIce(fetchIce, log);
    await ice.load();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchIce).toHaveBeenCalledTimes(2);
    expect(ice.iceServers()).toEqual([turn('first')]);
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('server unreachable'));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetchIce).toHaveBeenCalledTimes(3);
    expect(ice.iceServers()).toEqual([turn('third')]);
    ice.stop();
  });

  it('static servers (no expiry) are never refetched; stop() ends the refreshes', async () => {
    const fetchIce = vi.fn(async (): Promise<IceServersResponse> => ({ servers: [] }));
    const ice = new AgentIce(fetchIce, log);
    await ice.load();
    await vi.advanceTimersByTimeAsync(10 * 3600_000);
    expect(fetchIce).toHaveBeenCalledTimes(1);

    const expiring = vi.fn(async () => answer('x', 600_000));
    const stopped = new AgentIce(expiring, log);
    await stopped.load();
    stopped.stop();
    await vi.advanceTimersByTimeAsync(3600_000);
    expect(expiring).toHaveBeenCalledTimes(1);
  });
});

/** A PeerJS stand-in that opens at once and records the options it was given. */
class FakePeer extends EventEmitter {
  open = false;
  disconnected = false;
  destroyed = false;
  constructor(
    readonly id: string,
    readonly options: PeerOptions,
  ) {
    super();
    queueMicrotask(() => {
      this.open = true;
      this.emit('open', id);
    });
  }
  connect(): never {
    throw new Error('not used');
  }
  reconnect() {}
  destroy() {
    this.destroyed = true;
  }
}

describe('PeerLink (the console)', () => {
  it('hands PeerJS the minted servers and policy, refreshes them in place, stops on close', async () => {
    let peer: FakePeer | null = null;
    const iceServers = vi.fn(async () => answer('browser-2', 3600_000, 'relay'));
    const link = createPeerLink({
      browserId: 'web-0123456789abcdef',
      api: {
        getBrowserToken: async () => ({ token: 't', ...answer('browser-1', 3600_000, 'relay') }),
        deviceGrant: async () => ({ grant: 'g' }),
        iceServers,
      },
      location: { hostname: '127.0.0.1', port: '8080', protocol: 'http:' },
      createPeer: async (id, options) => (peer = new FakePeer(id, options)) as unknown as PeerLike,
    });
    await link.open();
    const config = peer!.options.config;
    expect(config).toEqual({ iceServers: [turn('browser-1')], iceTransportPolicy: 'relay' });
    expect(link.rtcConfiguration()).toEqual(config);
    expect(link.iceTransportPolicy).toBe('relay');

    await vi.advanceTimersByTimeAsync(1799_000);
    expect(iceServers).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(iceServers).toHaveBeenCalledTimes(1);
    expect(peer!.options.config).toBe(config);
    expect(config.iceServers).toEqual([turn('browser-2')]);
    expect(link.iceServers).toEqual([turn('browser-2')]);

    link.close();
    await vi.advanceTimersByTimeAsync(4 * 3600_000);
    expect(iceServers).toHaveBeenCalledTimes(1);
  });

  it('an answer without policy or expiry (an older server) means all candidates and no refresh', async () => {
    const iceServers = vi.fn(async () => ({ servers: [] }));
    const link = createPeerLink({
      browserId: 'web-0123456789abcdef',
      api: {
        getBrowserToken: async () => ({ token: 't', servers: [] }),
        deviceGrant: async () => ({ grant: 'g' }),
        iceServers,
      },
      location: { hostname: '127.0.0.1', port: '8080', protocol: 'http:' },
      createPeer: async (id, options) => new FakePeer(id, options) as unknown as PeerLike,
    });
    await link.open();
    expect(link.rtcConfiguration()).toEqual({ iceServers: [], iceTransportPolicy: 'all' });
    await vi.advanceTimersByTimeAsync(24 * 3600_000);
    expect(iceServers).not.toHaveBeenCalled();
    link.close();
  });
});
