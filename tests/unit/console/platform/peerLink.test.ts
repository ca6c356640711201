import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { DeviceCommandError } from '../../../../src/console/platform/deviceRpc';
import {
  createBrowserId,
  createPeerLink,
  type PeerLike,
  type PeerOptions,
} from '../../../../src/console/platform/peerLink';
import { flush } from '../../machines/fixtures';

/** A fake device end of a data connection: answers hello and the given processes. */
class FakeConnection extends EventEmitter {
  open = false;
  sent: Array<Record<string, unknown>> = [];
  constructor(
    readonly peer: string,
    private readonly answer: (msg: Record<string, unknown>) => unknown,
  ) {
    super();
    setImmediate(() => {
      this.open = true;
      this.emit('open');
    });
  }
  send(data: unknown) {
    const msg = data as Record<string, unknown>;
    this.sent.push(msg);
    const reply = this.answer(msg);
    if (reply !== undefined) setImmediate(() => this.emit('data', reply));
  }
  close() {
    if (!this.open) return;
    this.open = false;
    this.emit('close');
  }
}

class FakePeer extends EventEmitter {
  open = false;
  disconnected = false;
  destroyed = false;
  connections: FakeConnection[] = [];
  constructor(
    readonly id: string,
    readonly options: PeerOptions,
    private readonly device: (msg: Record<string, unknown>) => unknown,
  ) {
    super();
    setImmediate(() => {
      this.open = true;
      this.emit('open', id);
    });
  }
  connect(peerId: string) {
    const conn = new FakeConnection(peerId, this.device);
    this.connections.push(conn);
    return conn;
  }
  reconnect() {
    this.disconnected = false;
    setImmediate(() => {
      this.open = true;
      this.emit('open', this.id);
    });
  }
  destroy() {
    this.destroyed = true;
    this.emit('close');
  }
}

const defaultDevice = (msg: Record<string, unknown>): unknown => {
  if (msg.type === 'hello') return { type: 'hello.ok', device_id: 'dev-1' };
  if (msg.type !== 'request') return undefined;
  const base = { type: 'reply', process: msg.process, requestId: msg.requestId };
  switch (msg.process) {
    case 'ping':
      return { ...base, ok: true, data: { pong: true, time: 1 } };
    case 'camera-list':
      return { ...base, ok: true, data: { cameras: 'not a list' } };
    case 'send-sdp':
      return { ...base, ok: false, error: { code: 'inferenceEngineError', message: 'engine down' } };
    default:
      return undefined; // never answers
  }
};

function setup(device: (msg: Record<string, unknown>) => unknown = defaultDevice) {
  let peer: FakePeer | null = null;
  // What happened, in order: 'credential' (get_browser_token, which sets the cookie), 'reconnect'.
  const calls: string[] = [];
  const link = createPeerLink({
    browserId: 'web-abcdef0123456789',
    location: { hostname: 'console.test', port: '8443', protocol: 'https:' },
    api: {
      getBrowserToken: async () => {
        calls.push('credential');
        return { servers: [{ urls: 'stun:stun.test' }], token: 'browser-token' };
      },
      deviceGrant: async () => ({ grant: 'grant-jwt', expires_at: 0 }),
    },
    createPeer: async (id, options) => {
      peer = new FakePeer(id, options, device);
      return peer as unknown as PeerLike;
    },
  });
  return { link, peer: () => peer!, calls };
}

describe('peerLink', () => {
  it('creates browser ids "web-" + 16 hex characters, different per tab', () => {
    const a = createBrowserId();
    expect(a).toMatch(/^web-[0-9a-f]{16}$/);
    expect(createBrowserId()).not.toBe(a);
  });

  it('opens the peer at /peerjs with key peerjs and the ICE servers; the browser token stays out of the URL', async () => {
    const { link, peer, calls } = setup();
    await link.open();
    expect(link.isOpen).toBe(true);
    expect(calls).toEqual(['credential']);
    expect(peer().options).toMatchObject({
      host: 'console.test',
      port: 8443,
      secure: true,
      path: '/peerjs',
      key: 'peerjs',
      config: { iceServers: [{ urls: 'stun:stun.test' }] },
    });
    // Issue 15: PeerJS puts its `token` option in the socket URL; the signalling token is a cookie instead.
    expect(peer().options).not.toHaveProperty('token');
    expect(JSON.stringify(peer().options)).not.toContain('browser-token');
    expect(link.iceServers).toEqual([{ urls: 'stun:stun.test' }]);
  });

  it('reports a signalling drop and reconnects the same peer after fetching a fresh signalling cookie', async () => {
    const { link, peer, calls } = setup();
    await link.open();
    const lost: string[] = [];
    link.onLost((e) => lost.push(e));
    peer().disconnected = true;
    peer().emit('disconnected');
    await new Promise((r) => setTimeout(r, 0));
    expect(lost).toHaveLength(1);
    const reconnect = peer().reconnect.bind(peer());
    peer().reconnect = () => {
      calls.push('reconnect');
      reconnect();
    };
    await link.open();
    expect(link.isOpen).toBe(true);
    expect(calls).toEqual(['credential', 'credential', 'reconnect']);
  });

  it("reconnects after a drop reported in PeerJS's order: 'error' (network) first, then 'disconnected'", async () => {
    const { link, peer, calls } = setup();
    await link.open();
    // The signal machine's part: reopen as soon as a drop is reported.
    const reopened: Promise<void>[] = [];
    link.onLost(() => reopened.push(link.open()));
    const p = peer();
    p.emit('error', Object.assign(new Error('Lost connection to server.'), { type: 'network' }));
    p.disconnected = true;
    p.open = false;
    p.emit('disconnected');
    await new Promise((r) => setTimeout(r, 0));
    expect(reopened).toHaveLength(1);
    await reopened[0];
    expect(link.isOpen).toBe(true);
    expect(calls).toEqual(['credential', 'credential']);
  });

  it('opens a device link with hello { grant } and calls commands by requestId', async () => {
    const { link, peer } = setup();
    await link.open();
    await link.openDevice('dev-1');
    const conn = peer().connections[0]!;
    expect(conn.sent[0]).toEqual({ type: 'hello', grant: 'grant-jwt' });
    await expect(link.callDevice('dev-1', 'ping', {})).resolves.toEqual({ pong: true, time: 1 });
    const request = conn.sent[1]!;
    expect(request).toMatchObject({ type: 'request', process: 'ping', payload: {} });
    expect(typeof request.requestId).toBe('string');
  });

  it('turns an error reply into DeviceCommandError { code, message }', async () => {
    const { link } = setup();
    await link.open();
    await link.openDevice('dev-1');
    const call = link.callDevice('dev-1', 'send-sdp', {
      camera_id: 'cam0',
      callId: 'c1',
      sdp: { type: 'offer', sdp: 'v=0' },
    });
    await expect(call).rejects.toBeInstanceOf(DeviceCommandError);
    await expect(call).rejects.toMatchObject({ code: 'inferenceEngineError', message: 'engine down' });
  });

  it('rejects a reply that does not match the command registry', async () => {
    const { link } = setup();
    await link.open();
    await link.openDevice('dev-1');
    await expect(link.callDevice('dev-1', 'camera-list', {})).rejects.toMatchObject({
      code: 'invalid_reply',
    });
  });

  it('rejects an invalid payload without sending it', async () => {
    const { link, peer } = setup();
    await link.open();
    await link.openDevice('dev-1');
    // @ts-expect-error camera_id is required
    await expect(link.callDevice('dev-1', 'check-camera-usage', {})).rejects.toMatchObject({
      code: 'invalid_payload',
    });
    expect(peer().connections[0]!.sent).toHaveLength(1);
  });

  it('times a call out', async () => {
    const { link } = setup();
    await link.open();
    await link.openDevice('dev-1');
    await expect(link.callDevice('dev-1', 'get-usages', {}, { timeoutMs: 20 })).rejects.toMatchObject({
      code: 'timeout',
    });
  });

  it('fails pending calls and tells listeners when the device closes the link', async () => {
    const { link, peer } = setup();
    await link.open();
    await link.openDevice('dev-1');
    const reasons: string[] = [];
    link.onDeviceClosed('dev-1', (r) => reasons.push(r));
    const pending = link.callDevice('dev-1', 'get-usages', {});
    peer().connections[0]!.close();
    await expect(pending).rejects.toMatchObject({ code: 'link_closed' });
    expect(reasons).toHaveLength(1);
    await expect(link.callDevice('dev-1', 'ping', {})).rejects.toMatchObject({ code: 'link_closed' });
  });

  it('refuses the link when the device answers hello.error', async () => {
    const { link } = setup((msg) =>
      msg.type === 'hello'
        ? { type: 'hello.error', error: { code: 'unauthorized', message: 'bad grant' } }
        : undefined,
    );
    await link.open();
    await expect(link.openDevice('dev-1')).rejects.toMatchObject({ code: 'unauthorized' });
    await flush();
    await expect(link.callDevice('dev-1', 'ping', {})).rejects.toMatchObject({ code: 'link_closed' });
  });

  it('close() destroys the peer and closes every device link', async () => {
    const { link, peer } = setup();
    await link.open();
    await link.openDevice('dev-1');
    link.close();
    expect(peer().destroyed).toBe(true);
    expect(peer().connections[0]!.open).toBe(false);
    expect(link.isOpen).toBe(false);
  });
});
