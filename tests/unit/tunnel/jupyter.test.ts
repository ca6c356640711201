/**
 * A Jupyter-like app through the tunnel (issue 8 "Jupyter works through it: kernels connect, base_url is
 * respected"): the sim engine's simulated JupyterLab (src/agent/containers/simJupyter.ts) served under
 * remoteBasePath, reached only through request_remote_device's URL and cookie — the lab page, a kernel
 * started over REST, an execute_request over the kernel's channels WebSocket.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { silentLogger } from '../../../src/agent/log';
import { startSimJupyter, type SimJupyterServer } from '../../../src/agent/containers/simJupyter';
import { startTunnelClient, type TunnelClient } from '../../../src/agent/tunnel';
import { remoteBasePath } from '../../../src/protocol/containers';
import { eventually, login, startTestServer, type TestServer } from '../server/helpers';
import { cookiePair, openWs, requestRemote } from './helpers';

const CONTAINER = '0a1b2c3d4e5f0a1b2c3d4e5f0a1b2c3d4e5f0a1b2c3d4e5f0a1b2c3d4e5f0a1b';
let server: TestServer;
let jupyter: SimJupyterServer;
let tunnel: TunnelClient;
let url: string;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer();
  const user = await server.seed.ensureUser({ email: 'jupyter@example.com', password: 'jupyter-pw-1' });
  const device = await server.seed.ensureDevice({ ownerId: user.id, label: 'Lab box', chipsetId: '23' });
  const deviceToken = await server.seed.issueDeviceToken(device.id);
  jupyter = await startSimJupyter(remoteBasePath(device.device_id, CONTAINER));
  tunnel = startTunnelClient({
    serverUrl: server.url,
    deviceToken,
    log: silentLogger,
    resolveTarget: async (c) =>
      CONTAINER.startsWith(c) && c.length >= 12 ? { host: '127.0.0.1', port: jupyter.port } : null,
  });
  await eventually(() => tunnel.connected);
  const { token } = await login(server, 'jupyter@example.com', 'jupyter-pw-1');
  const res = await requestRemote(server.url, token, device.device_id, CONTAINER);
  expect(res.status).toBe(200);
  url = (res.body as { data: { url: string } }).data.url;
  cookie = cookiePair(res.setCookie!);
});

afterAll(async () => {
  await tunnel?.close();
  await jupyter?.close();
  await server?.dispose();
});

it('opens the lab page, starts a kernel and runs a cell over its channels WebSocket', async () => {
  expect(url).toBe(`${jupyter.baseUrl}lab`);
  const page = await fetch(`${server.url}${url}`, { headers: { cookie } });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Simulated JupyterLab');

  const started = await fetch(`${server.url}${jupyter.baseUrl}api/kernels`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(started.status).toBe(201);
  const kernel = (await started.json()) as { id: string };

  const channels = `${server.url.replace('http', 'ws')}${jupyter.baseUrl}api/kernels/${kernel.id}/channels`;
  const opened = await openWs(`${channels}?session_id=s1`, cookie);
  const ws = opened.ws!;
  expect(ws).toBeDefined();
  const result = new Promise<unknown>((resolve) => {
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { header: { msg_type: string }; content: unknown };
      if (msg.header.msg_type === 'execute_result') resolve(msg.content);
    });
  });
  ws.send(
    JSON.stringify({
      channel: 'shell',
      header: { msg_id: 'm1', msg_type: 'execute_request', session: 's1', username: 'u', version: '5.3' },
      parent_header: {},
      metadata: {},
      content: { code: '6 * 7', silent: false },
      buffers: [],
    }),
  );
  expect(await result).toMatchObject({ data: { 'text/plain': '42' } });
  ws.close();

  // Without the cookie, the same kernel socket is refused.
  expect((await openWs(channels)).status).toBe(403);
});
