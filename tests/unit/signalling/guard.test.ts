/**
 * Issue 7, the checks on their own: what the server's MessageGuard relays (shape, size, rate, src) and what
 * the agent's guard lets its PeerJS Peer see — and that a throw inside peerjs stays with its connection.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Peer as PeerType } from 'peerjs';
import { checkIncoming, guardPeer } from '../../../src/agent/link/guard';
import { silentLogger } from '../../../src/agent/log';
import {
  MAX_SIGNALLING_MESSAGE_BYTES,
  SIGNALLING_OFFER_RATE,
  SIGNALLING_RATE,
} from '../../../src/protocol/peerjsMessages';
import { MessageGuard, TokenBucket } from '../../../src/server/signalling/guard';
import { hostileMessages, wellFormed } from './messages';

const raw = (m: unknown) => Buffer.from(typeof m === 'string' ? m : JSON.stringify(m));

describe('server MessageGuard', () => {
  const guard = () => new MessageGuard();

  it('relays each message type peerjs sends, re-serialized without src', () => {
    const g = guard();
    for (const m of [
      wellFormed.offer('dev-1'),
      wellFormed.answer('dev-1'),
      wellFormed.candidate('dev-1'),
      wellFormed.leave('dev-1'),
      { ...wellFormed.offer('dev-1'), src: 'web-me00000000' }, // its own id as src is fine
      { type: 'OFFER', dst: 'dev-1', payload: { ...wellFormed.offer('x').payload, type: 'media' } },
      { ...wellFormed.offer('dev-1'), payload: { ...wellFormed.offer('x').payload, metadata: { a: [1] } } },
      wellFormed.heartbeat(),
    ]) {
      const v = g.check('web-me00000000', raw(m), false);
      expect(v, JSON.stringify(m)).toMatchObject({ ok: true });
      if (v.ok) {
        const fwd = JSON.parse(v.forward) as Record<string, unknown>;
        expect(fwd.src).toBeUndefined();
        expect(fwd.type).toBe((m as { type: string }).type);
      }
    }
    expect(
      JSON.parse(
        (g.check('web-me00000000', raw(wellFormed.offer('dev-1')), false) as { forward: string }).forward,
      ),
    ).toEqual(wellFormed.offer('dev-1'));
  });

  it('drops every hostile message, with a reason', () => {
    const g = guard();
    for (const m of hostileMessages('dev-1')) {
      const v = g.check('web-me00000000', raw(m), false);
      expect(v.ok, JSON.stringify(m)?.slice(0, 200)).toBe(false);
    }
    expect(
      g.check('web-me00000000', raw({ ...wellFormed.offer('d'), src: 'web-other' }), false),
    ).toMatchObject({
      ok: false,
      reason: 'spoofed_src',
    });
    expect(g.check('web-me00000000', raw('{'), false)).toMatchObject({ ok: false, reason: 'not_json' });
    expect(g.check('web-me00000000', raw(wellFormed.heartbeat()), true)).toMatchObject({
      ok: false,
      reason: 'binary',
    });
    expect(
      g.check(
        'web-me00000000',
        raw({ ...wellFormed.leave('d'), pad: 'x'.repeat(MAX_SIGNALLING_MESSAGE_BYTES) }),
        false,
      ),
    ).toMatchObject({ ok: false, reason: 'too_big' });
  });

  it('limits each peer to its token buckets, and refills them', () => {
    let now = 1_000_000;
    const reports: unknown[] = [];
    const g = new MessageGuard(
      undefined,
      (...a) => reports.push(a),
      () => now,
    );
    let passed = 0;
    for (let i = 0; i < SIGNALLING_RATE.capacity + 500; i++) {
      if (g.check('web-flood0000', raw(wellFormed.candidate('dev-1')), false).ok) passed++;
    }
    expect(passed).toBe(SIGNALLING_RATE.capacity);
    // Another peer is not affected.
    expect(g.check('web-quiet0000', raw(wellFormed.heartbeat()), false).ok).toBe(true);
    now += 1_000;
    passed = 0;
    for (let i = 0; i < 500; i++)
      if (g.check('web-flood0000', raw(wellFormed.heartbeat()), false).ok) passed++;
    expect(passed).toBe(SIGNALLING_RATE.perSecond);
    // Drops are reported, but not once per message.
    expect(reports.length).toBeLessThanOrEqual(2);

    // OFFERs have their own, smaller bucket.
    passed = 0;
    for (let i = 0; i < SIGNALLING_OFFER_RATE.capacity + 50; i++) {
      if (g.check('web-offers000', raw(wellFormed.offer('dev-1', `dc_${i}`)), false).ok) passed++;
    }
    expect(passed).toBe(SIGNALLING_OFFER_RATE.capacity);
    expect(g.check('web-offers000', raw(wellFormed.candidate('dev-1')), false).ok).toBe(true);

    // State of peers whose buckets refilled is forgotten when a socket closes.
    now += 60_000;
    g.closed();
    expect(g.size).toBe(0);
  });

  it('token bucket: starts full, never exceeds its capacity', () => {
    const b = new TokenBucket({ capacity: 2, perSecond: 1 }, 0);
    expect([b.take(0), b.take(0), b.take(0)]).toEqual([true, true, false]);
    expect(b.take(999)).toBe(false);
    expect(b.take(1_000)).toBe(true);
    expect(b.full(100_000)).toBe(true);
  });
});

/** A stand-in for the peerjs Peer internals the agent guard uses. */
function fakePeer(handle: (m: unknown) => void) {
  const closed: string[] = [];
  const connections = new Map<string, { close(): void }>();
  const peer = {
    _serializers: { raw: {}, json: {}, binary: {}, 'binary-utf8': {}, default: {} },
    _lostMessages: new Map<string, unknown[]>(),
    _handleMessage: handle,
    // The guard listens for new connections (to guard them: lateCandidate.test.ts); none come here.
    on: () => undefined,
    getConnection: (src: string, id: string) => connections.get(`${src}/${id}`) ?? null,
    addConnection(src: string, id: string) {
      connections.set(`${src}/${id}`, { close: () => closed.push(id) });
    },
  };
  return { peer, closed, asPeer: peer as unknown as PeerType };
}

describe('agent guard', () => {
  const ME = 'dev-00aa11bb22cc33dd';
  const relayed = (m: object, src = 'web-hostile0000') => ({ ...m, src });

  it('lets well-formed messages and the server’s own through', () => {
    const { asPeer, peer } = fakePeer(() => {});
    peer.addConnection('web-friend00000', 'dc_abc123');
    for (const m of [
      { type: 'OPEN' },
      { type: 'ERROR', payload: { msg: 'Invalid key provided' } },
      { type: 'ID-TAKEN', payload: { msg: 'ID is taken' } },
      relayed(wellFormed.offer(ME), 'web-friend00000'),
      relayed(wellFormed.answer(ME), 'web-friend00000'),
      relayed(wellFormed.candidate(ME), 'web-friend00000'),
      relayed(wellFormed.candidate(ME, 'dc_early'), 'web-friend00000'),
      relayed(wellFormed.leave(ME), 'web-friend00000'),
    ]) {
      expect(checkIncoming(asPeer, m, ME), JSON.stringify(m)).toMatchObject({ ok: true });
    }
  });

  it('drops every hostile message before peerjs sees it', () => {
    const seen: unknown[] = [];
    const { asPeer } = fakePeer((m) => seen.push(m));
    const warn = vi.fn();
    guardPeer(asPeer, { ownId: ME, logger: { ...silentLogger, warn } });
    const handle = (asPeer as unknown as { _handleMessage(m: unknown): void })._handleMessage;
    for (const m of hostileMessages(ME)) {
      if (typeof m === 'string') continue; // the socket hands over parsed JSON only
      const msg = (m ?? {}) as { type?: unknown; src?: unknown; dst?: unknown };
      // Harmless once relayed: a LEAVE closes the sender's own connections; the server sets src.
      if (msg.src !== undefined || (msg.type === 'LEAVE' && msg.dst === undefined)) continue;
      handle(typeof m === 'object' && m !== null && !Array.isArray(m) ? relayed(m) : m);
    }
    handle(relayed({ type: 'OFFER', dst: ME, payload: { ...wellFormed.offer(ME).payload, type: 'media' } }));
    handle(relayed(wellFormed.answer(ME))); // for no connection of ours
    handle({ type: 'ERROR' }); // server message without payload (peerjs reads payload.msg)
    handle(relayed(wellFormed.offer(ME), ME)); // from itself, not a probe
    expect(seen).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1); // throttled: one line per 5 s
    expect(warn.mock.calls[0]![0]).toMatch(/^signalling message dropped: malformed OFFER/);
  });

  it('hands peerjs only the fields it reads', () => {
    const seen: unknown[] = [];
    const { asPeer, peer } = fakePeer((m) => seen.push(m));
    guardPeer(asPeer, { ownId: ME, logger: silentLogger });
    const offer = wellFormed.offer(ME);
    peer._handleMessage(relayed({ ...offer, payload: { ...offer.payload, _stream: 'x', extra: 1 } }));
    expect(seen).toEqual([{ type: 'OFFER', src: 'web-hostile0000', payload: offer.payload }]);
  });

  it('bounds the CANDIDATEs peerjs keeps for connections it does not know', () => {
    const seen: unknown[] = [];
    const { asPeer, peer } = fakePeer((m) => {
      seen.push(m);
      const c = m as { payload: { connectionId: string } };
      peer._lostMessages.set(c.payload.connectionId, [m]);
    });
    guardPeer(asPeer, { ownId: ME, logger: silentLogger });
    for (let i = 0; i < 100; i++) {
      peer._handleMessage(relayed(wellFormed.candidate(ME, `dc_${i}`)));
    }
    expect(seen.length).toBe(32);
  });

  it('confines a throw inside peerjs to the connection the message names', () => {
    const handled: string[] = [];
    const { asPeer, peer, closed } = fakePeer((m) => {
      const msg = m as { type: string; payload?: { connectionId?: string } };
      if (msg.payload?.connectionId === 'dc_bad') {
        peer.addConnection('web-hostile0000', 'dc_bad'); // half-built by peerjs, then it throws
        throw new TypeError('this._serializers[payload.serialization] is not a constructor');
      }
      handled.push(msg.payload?.connectionId ?? msg.type);
    });
    peer.addConnection('web-friend00000', 'dc_live');
    const warn = vi.fn();
    guardPeer(asPeer, { ownId: ME, logger: { ...silentLogger, warn } });
    expect(() => peer._handleMessage(relayed(wellFormed.offer(ME, 'dc_bad')))).not.toThrow();
    peer._handleMessage(relayed(wellFormed.offer(ME, 'dc_good'), 'web-friend00000'));
    peer._handleMessage(relayed(wellFormed.candidate(ME, 'dc_live'), 'web-friend00000'));
    peer._handleMessage({ type: 'OPEN' });
    expect(handled).toEqual(['dc_good', 'dc_live', 'OPEN']);
    expect(closed).toEqual(['dc_bad']);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('signalling message failed: this._serializers'),
      expect.objectContaining({ type: 'OFFER', from: 'web-hostile0000', connection: 'dc_bad' }),
    );
  });

  it('takes its own watchdog probes out of the stream', () => {
    const seen: unknown[] = [];
    const { asPeer, peer } = fakePeer((m) => seen.push(m));
    const probes: string[] = [];
    guardPeer(asPeer, { ownId: ME, logger: silentLogger, onProbe: (id) => probes.push(id) });
    peer._handleMessage({ type: 'LEAVE', src: ME, dst: ME, payload: { connectionId: 'watchdog-1' } });
    // Someone else's LEAVE with a probe-like id is no probe.
    peer._handleMessage({
      type: 'LEAVE',
      src: 'web-x0000000',
      dst: ME,
      payload: { connectionId: 'watchdog-2' },
    });
    expect(probes).toEqual(['watchdog-1']);
    expect(seen).toHaveLength(1);
  });
});
