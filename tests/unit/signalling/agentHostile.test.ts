/**
 * Issue 7, agent end: a signalling server that relays anything (the stock `peer` package, no guard) hands
 * the agent every hostile message there is. The agent drops or confines each one; its signalling socket
 * keeps working, an open link keeps answering and a new link connects and gets its ping reply.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Peer as PeerType } from 'peerjs';
import { PeerServer } from 'peer';
import { startAgent } from '../../../src/agent/index';
import type { RunningAgent } from '../../../src/agent/index';
import { fakeServerApi, makeKeys, signGrant } from '../agent/helpers';
import type { TestKeys } from '../agent/helpers';
import { hostileMessages, wellFormed } from './messages';
import { captureLogger, greet, openBrowser, RawPeer } from './helpers';

const PORT = 18300 + Math.floor(Math.random() * 50);
const SERVER = `http://127.0.0.1:${PORT}`;
const DEVICE = 'dev-0a1b2c3d4e5f6071';
const OWNER = 'web-agenthostileowner';

describe('agent under hostile signalling messages (server relays anything)', () => {
  let keys: TestKeys;
  let server: http.Server;
  let agent: RunningAgent;
  let owner: PeerType;
  let hostile: RawPeer;
  const log = captureLogger();

  beforeAll(async () => {
    keys = await makeKeys();
    server = await new Promise<http.Server>((resolve) => {
      const peerServer = PeerServer({ port: PORT, host: '127.0.0.1', path: '/peerjs', key: 'peerjs' }, (s) =>
        resolve(s as http.Server),
      );
      // The stock server re-emits a message it cannot parse (`null`) as 'error'; unheard, that would throw.
      peerServer.on('error', () => {});
    });
    agent = await startAgent({
      server: SERVER,
      token: 'device-token',
      backend: 'sim',
      cameras: 2,
      api: fakeServerApi(DEVICE, keys, '0'),
      logger: log,
    });
    owner = await openBrowser(SERVER, OWNER, 'browser-token');
    hostile = await RawPeer.open(SERVER, 'web-agenthostileone', 'anything');
  });

  afterAll(async () => {
    hostile?.close();
    owner?.destroy();
    await agent?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('keeps serving: an open link answers, a new link connects and gets its ping reply', async () => {
    const grant = () => signGrant(keys, { device_id: DEVICE, browser_id: OWNER });
    const before = await greet(owner, DEVICE, await grant());
    await expect(before.call('ping', {})).resolves.toMatchObject({ ok: true, data: { pong: true } });

    // Every hostile message, then a flood of the issue's own (OFFER without payload), then OFFERs that are
    // well-formed but lead nowhere (they cost the agent a peer connection until it times out).
    for (const m of hostileMessages(DEVICE)) hostile.send(m);
    for (let i = 0; i < 2_000; i++) hostile.send({ type: 'OFFER', dst: DEVICE });
    for (let i = 0; i < 3; i++) {
      const offer = wellFormed.offer(DEVICE, `dc_hostile${i}`);
      hostile.send({
        ...offer,
        payload: { ...offer.payload, sdp: { type: 'offer', sdp: 'v=0\r\ngarbage' } },
      });
    }
    await hostile.flushed();

    // The issue: after one OFFER without payload the agent's socket never handled another message.
    const after = await greet(owner, DEVICE, await grant());
    await expect(after.call('ping', {})).resolves.toMatchObject({ ok: true, data: { pong: true } });
    await expect(before.call('ping', {})).resolves.toMatchObject({ ok: true, data: { pong: true } });

    expect(log.has(/signalling message dropped: malformed OFFER/)).toBe(true);
    // Drops are logged in short, throttled lines, not one per message.
    expect(log.lines.filter((l) => l.includes('signalling message')).length).toBeLessThan(10);
    expect(log.lines.every((l) => l.length < 400)).toBe(true);
  });

  it('keeps answering after a second round, and re-registration still works', async () => {
    for (const m of hostileMessages(DEVICE)) hostile.send(m);
    await hostile.flushed();
    const link = await greet(owner, DEVICE, await signGrant(keys, { device_id: DEVICE, browser_id: OWNER }));
    await expect(link.call('ping', {})).resolves.toMatchObject({ ok: true });
  });
});
