import { test, expect, type Page } from './fixtures';
import { DEMO, SECOND, apiLogin, auth, listDevices, navigate, signIn, waitAllOnline } from './stack';
import { authorizeSignalling, installWebRtcGlobals } from '../../src/agent/wrtc';

/**
 * A user never lists, sees or reaches another user's devices (issue 2 §2): over REST, in the console, and
 * over the peer link itself (the agent refuses a link without a valid grant for it).
 */
let demoDevices: Array<{ id: string; device_id: string; label: string }> = [];
let secondToken = '';

test.beforeAll(async ({ request }) => {
  const demoToken = await apiLogin(request, DEMO);
  await waitAllOnline(request, demoToken, 3);
  demoDevices = (await listDevices(request, demoToken)).res;
  secondToken = await apiLogin(request, SECOND);
  await waitAllOnline(request, secondToken, 1);
});

test('the second user lists only their own device', async ({ request }) => {
  const { res, total_items } = await listDevices(request, secondToken);
  expect(total_items).toBe(1);
  expect(res.map((d) => d.label)).toEqual(['Second Box']);
  const online = await (await request.get('/api/get-online-devices', { headers: auth(secondToken) })).json();
  expect(online.onlineDevices).toHaveLength(1);
  expect(demoDevices.map((d) => d.device_id)).not.toContain(online.onlineDevices[0]);
});

test("the second user can neither grant, query, tokenise nor delete the first user's device", async ({
  request,
}) => {
  const target = demoDevices[0]!;
  const h = auth(secondToken);
  const grant = await request.post('/api/device-grant', {
    headers: h,
    data: { device_id: target.device_id, browser_id: 'web-isolation-test-1' },
  });
  expect(grant.status()).toBe(404);
  expect((await request.get(`/api/peerjs/peerjs/${target.device_id}`, { headers: h })).status()).toBe(404);
  expect((await request.get(`/api/check/peerjs/${target.device_id}`, { headers: h })).status()).toBe(404);
  const quota = await request.get(
    `/api/usage/check_stream_limit?deviceId=${target.device_id}&numOfCameras=1`,
    { headers: h },
  );
  expect(quota.status()).toBe(404);
  expect((await request.post('/api/generate_token', { headers: h, data: { id: target.id } })).status()).toBe(
    404,
  );
  await request.delete('/api/device', { headers: h, data: { ids: [target.id] } });
  const demoToken = await apiLogin(request, DEMO);
  expect((await listDevices(request, demoToken)).total_items).toBe(3);
});

test("the second user's console shows only their device", async ({ page }: { page: Page }) => {
  await signIn(page, SECOND);
  await navigate(page, '/control-panel/devices');
  await expect(page.locator('[data-testid^="device-row-"]')).toHaveCount(1);
  await expect(page.getByTestId('devices-table')).toContainText('Second Box');
  for (const d of demoDevices) await expect(page.getByText(d.label)).toHaveCount(0);
});

// Signalling relays only between peers of one user, so the second user's offer never reaches the agent (the
// link never opens); were it relayed, the agent would refuse the grant (hello.error) or close the link.
test("a peer link from the second user never reaches the first user's agent", async ({
  request,
  baseURL,
}) => {
  const target = demoDevices[0]!;
  const browserId = `web-iso-${Date.now().toString(36)}`;
  const h = auth(secondToken);
  const bt = await (
    await request.post('/api/get_browser_token', { headers: h, data: { browser_id: browserId } })
  ).json();
  // A valid grant, but for the second user's own device: the first user's agent must refuse it.
  const own = (await listDevices(request, secondToken)).res[0]!;
  const { grant } = await (
    await request.post('/api/device-grant', {
      headers: h,
      data: { device_id: own.device_id, browser_id: browserId },
    })
  ).json();

  installWebRtcGlobals();
  // Playwright's loader hands the CommonJS build over as a namespace; take the class from either shape.
  const mod = (await import('peerjs')) as unknown as {
    Peer?: typeof import('peerjs').Peer;
    default: unknown;
  };
  const Peer = (mod.Peer ??
    (mod.default as { Peer?: unknown }).Peer ??
    mod.default) as typeof import('peerjs').Peer;
  const url = new URL(baseURL!);
  authorizeSignalling(browserId, bt.token); // a header, never the URL (issue 15)
  const peer = new Peer(browserId, {
    host: url.hostname,
    port: Number(url.port),
    path: '/peerjs',
    key: 'peerjs',
    secure: false,
    config: { iceServers: [] },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      peer.once('open', () => resolve());
      peer.once('error', reject);
    });
    const outcome = await new Promise<string>((resolve) => {
      const conn = peer.connect(target.device_id, { serialization: 'json', reliable: true });
      let opened = false;
      const timer = setTimeout(() => resolve(opened ? 'timeout' : 'never opened'), 20_000);
      conn.on('open', () => {
        opened = true;
        // A command before any hello is refused too.
        conn.send({ type: 'request', process: 'ping', requestId: 'r1', payload: {} });
        conn.send({ type: 'hello', grant });
      });
      conn.on('data', (msg) => {
        const m = msg as { type: string; ok?: boolean };
        if (m.type === 'hello.ok' || (m.type === 'reply' && m.ok)) {
          clearTimeout(timer);
          resolve('reached');
        }
        if (m.type === 'hello.error') {
          clearTimeout(timer);
          resolve('refused');
        }
      });
      conn.on('close', () => {
        clearTimeout(timer);
        resolve('closed');
      });
    });
    expect(['never opened', 'refused', 'closed']).toContain(outcome);
  } finally {
    peer.destroy();
  }
});

test('signalling refuses a browser token used under a device id', async ({ request, baseURL }) => {
  const browserId = `web-iso2-${Date.now().toString(36)}`;
  const bt = await (
    await request.post('/api/get_browser_token', {
      headers: auth(secondToken),
      data: { browser_id: browserId },
    })
  ).json();
  const { WebSocket } = await import('ws');
  const wsUrl = `${baseURL!.replace('http', 'ws')}/peerjs/peerjs?key=peerjs&id=${demoDevices[0]!.device_id}&token=${bt.token}`;
  const opened = await new Promise<boolean>((resolve) => {
    const ws = new WebSocket(wsUrl);
    ws.on('open', () => {
      ws.close();
      resolve(true);
    });
    ws.on('error', () => resolve(false));
    ws.on('unexpected-response', () => resolve(false));
  });
  expect(opened).toBe(false);
});
