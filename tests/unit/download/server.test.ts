/**
 * The download page's server side (src/server/routes/download.ts) on a real server: the info (newest release,
 * this server's origin), a new device with its first token (409 on a taken name), and the install script run
 * for real with `sh` exactly as the page's one-line command does (curl … | AGENT_TOKEN=… sh): it asks for the
 * newest release with the device token, downloads the bundle, checks its sha256, unpacks it, writes agent.env
 * (0600) and starts the bundle's entry with --server and --backend host; a corrupted bundle (sha256 mismatch)
 * and a missing token stop it with a clear message.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../../src/server/routes/software';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let admin: string;
const homes: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await server.seed.ensureUser({
    email: 'admin@dl.test',
    password: 'admin-pass-1',
    roles: ['admin', 'user'],
  });
  admin = (await login(server, 'admin@dl.test', 'admin-pass-1')).token;
}, 60_000);
afterAll(async () => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
  await server?.dispose();
});

/** Runs the page's curl command in sh with a fresh EDGE_AGENT_HOME; answers exit code, output and home. */
function runInstall(command: string): Promise<{ code: number; out: string; home: string }> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'edge-agent-home-'));
  homes.push(home);
  return new Promise((resolve) => {
    execFile(
      'sh',
      ['-c', command],
      { env: { ...process.env, EDGE_AGENT_HOME: home, AGENT_TOKEN: '' }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}`, home }),
    );
  });
}

describe('download', () => {
  it('answers the info: no release yet, this server and its install script', async () => {
    const info = await api(server, 'GET', 'download/info', { token: admin });
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      release: null,
      server: server.url,
      install_script: `${server.url}/api/download/install.sh`,
    });
    expect((await api(server, 'GET', 'download/info')).status).toBe(401);
  });

  it('creates a device with a working token, refuses a taken name, and installs and starts the agent', async () => {
    const created = await api(server, 'POST', 'download/devices', {
      token: admin,
      body: { label: 'Lobby Jetson', kind: 'jetson' },
    });
    expect(created.status).toBe(200);
    const { access_token: token, commands, device } = created.body;
    expect(device).toMatchObject({
      label: 'Lobby Jetson',
      kind: 'jetson',
      device_id: expect.stringMatching(/^dev-/),
    });
    expect(created.body.expires_in).toBe(5_184_000);
    expect(commands.curl).toBe(
      `curl -fsSL ${server.url}/api/download/install.sh | AGENT_TOKEN='${token}' sh`,
    );
    expect(commands.npm).toContain(`npm run agent -- --server ${server.url} --backend host --kind jetson`);
    const devices = await api(server, 'GET', 'get_devices/?per_page=50', { token: admin });
    expect(devices.body.res.map((d: { label: string }) => d.label)).toContain('Lobby Jetson');
    const again = await api(server, 'POST', 'download/devices', {
      token: admin,
      body: { label: 'Lobby Jetson', kind: 'x86' },
    });
    expect(again.status).toBe(409);

    // No release yet: the script says so.
    const none = await runInstall(commands.curl);
    expect(none.code).toBe(1);
    expect(none.out).toContain('publishes no agent release');

    // A release whose entry records how it was started.
    const bundle = await buildBundle({
      'release.json': JSON.stringify({ version: '3.1.0', entry: 'bin/agent.js' }),
      'bin/agent.js':
        "require('node:fs').writeFileSync(require('node:path').join(process.env.EDGE_AGENT_HOME, 'started.json'), JSON.stringify({ argv: process.argv.slice(2), token: process.env.AGENT_TOKEN }));\n",
    });
    const pub = await fetch(`${server.url}/api/agent-releases?version=3.1.0`, {
      method: 'POST',
      headers: { authorization: `Token ${admin}`, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(bundle),
    });
    expect(pub.status).toBe(200);
    const ok = await runInstall(commands.curl);
    expect(ok.out).toContain('sha256');
    expect(ok.code).toBe(0);
    const started = JSON.parse(readFileSync(path.join(ok.home, 'started.json'), 'utf8'));
    expect(started).toEqual({ argv: ['--server', server.url, '--backend', 'host'], token });
    const env = path.join(ok.home, 'agent.env');
    expect(statSync(env).mode & 0o777).toBe(0o600);
    expect(readFileSync(env, 'utf8')).toBe(`AGENT_SERVER=${server.url}\nAGENT_TOKEN=${token}\n`);
    expect(readFileSync(path.join(ok.home, 'current', 'release.json'), 'utf8')).toContain('3.1.0');

    // A bundle changed on the server no longer matches its sha256.
    writeFileSync(
      path.join(server.dataDir, 'agent-releases', '3.1.0.tar.gz'),
      Buffer.concat([bundle, Buffer.from('x')]),
    );
    const bad = await runInstall(commands.curl);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('sha256 mismatch');

    // Without the token, and with a wrong one.
    const missing = await runInstall(`curl -fsSL ${server.url}/api/download/install.sh | sh`);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain('AGENT_TOKEN is not set');
    const wrong = await runInstall(`curl -fsSL ${server.url}/api/download/install.sh | AGENT_TOKEN=nope sh`);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toContain('refused the token');
  });
});
