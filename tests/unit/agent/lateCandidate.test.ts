/**
 * PeerJS 1.5.5 and an ICE candidate that is still being added when its data connection closes
 * (src/protocol/peerjsGuard.ts): `handleCandidate`'s catch block calls `provider.emitError` on the provider
 * `close()` has just set to null, and `Peer._handleMessage` drops the promise — an unhandled rejection (seen in
 * sendRaceChild.ts, on the agent's side). Real PeerJS peers (wrtc) on a real signalling server (`peer`), the
 * candidate delivered through each Peer's own signalling socket, the connection closed right after.
 */
import http from 'node:http';
import type { DataConnection, Peer as PeerType } from 'peerjs';
import { PeerServer } from 'peer';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { guardPeer } from '../../../src/agent/link/guard';
import { peerOptions } from '../../../src/agent/link/signalling';
import type { Logger } from '../../../src/agent/log';
import { loadPeer } from '../../../src/agent/wrtc';
import { guardLateSignals } from '../../../src/protocol/peerjsGuard';

const PORT = 19752;
let server: http.Server;
const peers: PeerType[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  server = await new Promise<http.Server>((resolve) => {
    PeerServer({ port: PORT, host: '127.0.0.1', path: '/peerjs', key: 'peerjs' }, (s) =>
      resolve(s as http.Server),
    );
  });
  process.on('unhandledRejection', onUnhandled);
});

afterEach(() => {
  for (const p of peers.splice(0)) p.destroy();
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await new Promise((resolve) => server.close(resolve));
});

async function openPeer(id: string): Promise<PeerType> {
  const Peer = await loadPeer();
  const peer = new Peer(id, peerOptions(`http://127.0.0.1:${PORT}`, undefined, []));
  peers.push(peer);
  await new Promise<void>((resolve, reject) => {
    peer.once('open', () => resolve());
    peer.once('error', reject);
  });
  return peer;
}

/** A CANDIDATE from `src` for `conn`, as the signalling server relays it. The candidate line does not parse,
 * so addIceCandidate rejects whatever state the negotiation is in. */
const candidateFor = (conn: DataConnection, src: string) => ({
  type: 'CANDIDATE',
  src,
  payload: {
    type: 'data',
    connectionId: conn.connectionId,
    candidate: { candidate: 'candidate:not-a-candidate', sdpMid: '0', sdpMLineIndex: 0 },
  },
});

/** The Peer's signalling socket: what it emits as 'message' goes to Peer._handleMessage. */
const socketOf = (peer: PeerType) =>
  (peer as unknown as { socket: { emit(e: string, m: unknown): void } }).socket;

/** Lets the rejected addIceCandidate settle and Node report unhandled rejections. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('an ICE candidate being added when its PeerJS data connection closes', () => {
  it('makes bare PeerJS 1.5.5 reject with a TypeError (the cause the guard catches)', async () => {
    const peer = await openPeer('web-late0');
    const conn = peer.connect('dev-nobody', { serialization: 'json', reliable: true });
    // What Peer._handleMessage does with a CANDIDATE for a live connection, keeping the promise it drops.
    const handled = (conn as unknown as { handleMessage(m: unknown): Promise<void> }).handleMessage(
      candidateFor(conn, 'dev-nobody'),
    );
    conn.close();
    await expect(handled).rejects.toThrow(TypeError);
  });

  it('is handed to onLate on a guarded device link (the console), and nothing rejects unhandled', async () => {
    unhandled.length = 0;
    const peer = await openPeer('web-late1');
    const late: unknown[] = [];
    const conn = guardLateSignals(
      peer.connect('dev-nobody', { serialization: 'json', reliable: true }),
      (e) => late.push(e),
    );
    socketOf(peer).emit('message', candidateFor(conn, 'dev-nobody'));
    conn.close();
    await vi.waitFor(() => expect(late.length + unhandled.length).toBeGreaterThan(0));
    await settle();
    expect(unhandled).toEqual([]);
    expect(late).toEqual([expect.any(TypeError)]);
  });

  it('is logged, not rejected, on every connection an agent Peer accepts (guardPeer)', async () => {
    unhandled.length = 0;
    const warnings: string[] = [];
    const logger: Logger = { info: () => {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) };
    const agent = await openPeer('dev-late');
    guardPeer(agent, { ownId: 'dev-late', logger });
    const accepted = new Promise<DataConnection>((resolve) => agent.once('connection', resolve));
    const browser = await openPeer('web-late2');
    browser.connect('dev-late', { serialization: 'json', reliable: true });
    const conn = await accepted;
    socketOf(agent).emit('message', candidateFor(conn, 'web-late2'));
    conn.close();
    await vi.waitFor(() => expect(warnings.length + unhandled.length).toBeGreaterThan(0));
    await settle();
    expect(unhandled).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('its connection closed meanwhile')]);
  });
});
