/**
 * The power commands on a real sim agent over loopback (PeerJS server, wrtc data channels): the sudo commands'
 * codes and §5 texts, and a simulated reboot that really takes the device off the air (its link closes, its
 * signalling registration ends) and brings it back by itself (AgentLifecycle.goOffline in src/agent/index.ts).
 */
import type http from 'node:http';
import type { Peer as PeerType } from 'peerjs';
import { PeerServer } from 'peer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../../../src/agent/index';
import { peerOptions } from '../../../src/agent/link/signalling';
import { silentLogger } from '../../../src/agent/log';
import { DEFAULT_SIM_SUDO_PASSWORD } from '../../../src/agent/power';
import { loadPeer } from '../../../src/agent/wrtc';
import { POWER_TEXTS } from '../../../src/protocol/power';
import { fakeServerApi, makeKeys, signGrant, type TestKeys } from '../agent/helpers';
import { TestLink } from '../agent/loopback';

const PORT = 18_420 + Math.floor(Math.random() * 30);
const SERVER = `http://127.0.0.1:${PORT}`;
const DEVICE = 'dev-power0011';

/** The device's signalling registrations as the PeerJS server reports them, in order. */
const presence: Array<'in' | 'out'> = [];
const waitPresence = async (n: number) => {
  while (presence.length < n) await new Promise((r) => setTimeout(r, 50));
};

describe('power commands on a running sim agent', () => {
  let httpServer: http.Server;
  let agent: RunningAgent;
  let keys: TestKeys;
  const peers: PeerType[] = [];

  async function link(browserId: string): Promise<TestLink> {
    const Peer = await loadPeer();
    const peer = new Peer(browserId, peerOptions(SERVER, 'browser-token', []));
    peers.push(peer);
    await new Promise<void>((resolve, reject) => {
      peer.once('open', () => resolve());
      peer.once('error', reject);
    });
    const l = new TestLink(peer.connect(DEVICE, { serialization: 'json', reliable: true }));
    await new Promise<void>((resolve) => l.conn.once('open', () => resolve()));
    void l.conn.send({
      type: 'hello',
      grant: await signGrant(keys, { device_id: DEVICE, browser_id: browserId }),
    });
    await l.next((m) => m.type === 'hello.ok');
    return l;
  }

  beforeAll(async () => {
    process.env.EDGE_SIM_REBOOT_MS = '1000';
    keys = await makeKeys();
    httpServer = await new Promise<http.Server>((resolve) => {
      const app = PeerServer({ port: PORT, host: '127.0.0.1', path: '/peerjs', key: 'peerjs' }, (s) =>
        resolve(s as http.Server),
      );
      app.on('connection', (c) => c.getId() === DEVICE && presence.push('in'));
      app.on('disconnect', (c) => c.getId() === DEVICE && presence.push('out'));
    });
    agent = await startAgent({
      server: SERVER,
      token: 'device-token',
      backend: 'sim',
      cameras: 2,
      api: fakeServerApi(DEVICE, keys, '0'),
      logger: silentLogger,
    });
  }, 30_000);

  afterAll(async () => {
    delete process.env.EDGE_SIM_REBOOT_MS;
    for (const p of peers) p.destroy();
    await agent?.close();
    httpServer?.closeAllConnections();
    await new Promise((r) => httpServer?.close(r));
  });

  it('checks sudo with coded refusals and the §5 texts', async () => {
    const a = await link('web-power-a');
    expect(await a.call('check-sudo-saved', {})).toMatchObject({
      ok: true,
      data: { saved: false, needed: true },
    });
    const empty = await a.call('check-sudo', { password: '' });
    expect(empty).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect(JSON.stringify(empty)).toContain(POWER_TEXTS.emptyPassword);
    expect(await a.call('check-sudo', { password: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_password', message: POWER_TEXTS.invalidPassword },
    });
    expect(await a.call('restartDevice', {})).toMatchObject({
      ok: false,
      error: { code: 'sudo_required', message: POWER_TEXTS.sudoRequired },
    });
    expect(await a.call('check-sudo', { password: DEFAULT_SIM_SUDO_PASSWORD, save: true })).toMatchObject({
      ok: true,
      data: { valid: true, saved: true },
    });
    expect(await a.call('remove-saved-sudo', {})).toMatchObject({ ok: true, data: { removed: true } });
    a.conn.close();
  });

  it('reboots: answers, leaves the air (link closed, signalling left), then comes back by itself', async () => {
    const a = await link('web-power-b');
    const before = presence.length;
    expect(presence).toEqual(['in']);
    const reply = await a.call('restartDevice', { password: DEFAULT_SIM_SUDO_PASSWORD });
    expect(reply).toMatchObject({ ok: true, data: { accepted: true, action: 'reboot', offline_ms: 1000 } });
    await waitPresence(before + 2);
    expect(presence).toEqual(['in', 'out', 'in']);
    expect(a.closed).toBe(true);
    const b = await link('web-power-c');
    expect(await b.call('check-sudo-saved', {})).toMatchObject({ ok: true });
  }, 30_000);
});
