/**
 * The SSH install routes (src/server/routes/sshInstall.ts) against a real OpenSSH server (tests/sshd.ts) and
 * a real console server: connect with a password and with a key (host key pinned on first use), every step
 * run for real in the throwaway user's space (stand-ins for docker, sudo and reboot), the installed client
 * coming online by itself; a wrong password; a changed host key refused until forgotten; a failing step and
 * its retry; a canceled step; bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SshCommandLine, SshProcess, SshStepResult } from '../../../src/protocol/sshInstall';
import { buildBundle } from '../../../src/server/routes/software';
import { api, login, startTestServer, type TestServer } from '../server/helpers';
import { canRunTestHost, startTestHost, type TestHost } from '../../sshd';

let server: TestServer;
let token: string;

beforeAll(async () => {
  if (!canRunTestHost()) return;
  server = await startTestServer();
  await server.seed.ensureUser({
    email: 'admin@ssh.test',
    password: 'admin-pass-1',
    roles: ['admin', 'user'],
  });
  token = (await login(server, 'admin@ssh.test', 'admin-pass-1')).token;
  const bundle = await buildBundle({
    'release.json': JSON.stringify({ version: '0.2.0' }),
    'NOTES.txt': 'demo\n',
  });
  const res = await fetch(`${server.url}/api/agent-releases?version=0.2.0&notes=demo`, {
    method: 'POST',
    headers: { authorization: `Token ${token}`, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(bundle),
  });
  expect(res.status).toBe(200);
}, 90_000);
afterAll(() => server?.dispose());

const createDevice = async (label: string) =>
  (await api(server, 'POST', 'ssh-install/device', { token, body: { label } })).body as {
    id: string;
    device_id: string;
  };

const connectPassword = (host: TestHost, deviceId: string, password = host.password) =>
  api(server, 'POST', 'connect-ssh', {
    token,
    body: { device_id: deviceId, hostname: host.host, port: host.port, username: host.user, password },
  });

async function connectKey(host: TestHost, deviceId: string) {
  const form = new FormData();
  form.set('pemFile', new Blob([host.privateKey]), 'id_ed25519');
  form.set(
    'formInfo',
    JSON.stringify({ device_id: deviceId, hostname: host.host, port: host.port, username: host.user }),
  );
  const res = await fetch(`${server.url}/api/connect-ssh`, {
    method: 'POST',
    headers: { authorization: `Token ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Runs one step; returns its output lines and result. */
async function step(
  sessionId: string,
  process: SshProcess,
  payload: Record<string, unknown> = {},
  signal?: AbortSignal,
) {
  const res = await fetch(`${server.url}/api/ssh-command`, {
    method: 'POST',
    headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ session_id: sessionId, process, payload }),
    signal,
  });
  if (res.status !== 200)
    return { status: res.status, output: [] as string[], result: null, error: await res.json() };
  const text = await res.text();
  const lines = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SshCommandLine);
  const output = lines.flatMap((l) => (l.type === 'output' ? [l.text] : []));
  const result = lines.find((l) => l.type === 'result')?.result as SshStepResult;
  return { status: 200, output, result, error: null };
}

async function online(deviceId: string): Promise<boolean> {
  const res = await api(server, 'GET', 'get-online-devices', { token });
  return (res.body.onlineDevices as string[]).includes(deviceId);
}

describe.skipIf(!canRunTestHost())('SSH install against a real sshd', () => {
  it('installs with a password: docker installed, restart confirmed, the device comes online by itself', async () => {
    const host = await startTestHost({ docker: false });
    try {
      const device = await createDevice('SSH box A');
      const conn = await connectPassword(host, device.device_id);
      expect(conn.status).toBe(200);
      expect(conn.body).toMatchObject({
        ok: true,
        fingerprint: host.fingerprint(),
        pinned_now: true,
        message: 'Successfully connected via SSH',
      });
      const sid = conn.body.session_id as string;

      const gpu = await step(sid, 'check-gpu');
      expect(gpu.result?.ok).toBe(true);
      expect(gpu.output.join('\n')).toMatch(/GPU/);
      const docker = await step(sid, 'check-docker');
      expect(docker.result).toMatchObject({ ok: false, data: { docker: 'missing' } });
      const install = await step(sid, 'install-docker');
      expect(install.result).toMatchObject({ ok: true, data: { restart_needed: '1' } });
      expect(install.output).toContain('# Executing docker install script');
      expect(host.sudoLog().some((l) => l.startsWith('usermod -aG docker'))).toBe(true);
      for (const p of [
        'check-docker-privileged',
        'install-requirements',
        'download-client',
        'install-client',
        'register-token',
      ] as const) {
        const r = await step(sid, p);
        expect(r.result, `${p}: ${r.output.join('\n')}`).toMatchObject({ ok: true });
      }
      expect(host.runAsUser('stat -c %a "$HOME/.config/edge-agent/agent.env"').trim()).toBe('600');
      const refused = await step(sid, 'restart-device');
      expect(refused.status).toBe(400);
      const restart = await step(sid, 'restart-device', { confirmed: true });
      expect(restart.result?.ok).toBe(true);
      expect(host.sudoLog()).toContain('systemctl reboot');
      const deadline = Date.now() + 40_000;
      while (!(await online(device.device_id)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 300));
      expect(await online(device.device_id)).toBe(true);
      expect(
        (await api(server, 'POST', 'ssh-disconnect', { token, body: { session_id: sid } })).body,
      ).toEqual({ ok: true, message: 'Disconnected.' });
      expect((await step(sid, 'check-gpu')).status).toBe(404);
    } finally {
      await host.dispose();
    }
  }, 120_000);

  it('installs with a key (docker present, no restart): start-client waits until the device is online', async () => {
    const host = await startTestHost({ docker: true });
    try {
      const device = await createDevice('SSH box B');
      const conn = await connectKey(host, device.device_id);
      expect(conn.status).toBe(200);
      const sid = conn.body.session_id as string;
      const docker = await step(sid, 'check-docker');
      expect(docker.result).toMatchObject({ ok: true, data: { installed: true } });
      const priv = await step(sid, 'check-docker-privileged');
      expect(priv.result).toMatchObject({ ok: true, data: { restart_needed: '0' } });
      for (const p of [
        'install-requirements',
        'download-client',
        'install-client',
        'register-token',
      ] as const)
        expect((await step(sid, p)).result?.ok).toBe(true);
      const start = await step(sid, 'start-client');
      expect(start.result, start.output.join('\n')).toMatchObject({ ok: true, data: { online: true } });
      expect(await online(device.device_id)).toBe(true);
    } finally {
      await host.dispose();
    }
  }, 120_000);

  it('refuses a wrong password, and a changed host key until it is forgotten', async () => {
    const host = await startTestHost({ docker: true });
    try {
      const device = await createDevice('SSH box C');
      const wrong = await connectPassword(host, device.device_id, 'not-the-password');
      expect(wrong).toMatchObject({ status: 409, body: { code: 'SSH_AUTH_FAILED' } });
      const first = await connectPassword(host, device.device_id);
      expect(first.status).toBe(200);
      const old = host.fingerprint();
      await host.changeHostKey();
      const changed = await connectPassword(host, device.device_id);
      expect(changed).toMatchObject({ status: 409, body: { code: 'SSH_HOST_KEY_CHANGED' } });
      expect(changed.body.message).toContain(old);
      expect(changed.body.message).toContain(host.fingerprint());
      const forget = await api(server, 'POST', 'ssh-host-keys/forget', {
        token,
        body: { hostname: host.host, port: host.port },
      });
      expect(forget.body).toEqual({ ok: true, removed: 1 });
      const again = await connectPassword(host, device.device_id);
      expect(again.body).toMatchObject({ fingerprint: host.fingerprint(), pinned_now: true });
    } finally {
      await host.dispose();
    }
  }, 60_000);

  it('a failing step reports its error and can be retried; a step can be canceled', async () => {
    const host = await startTestHost({ docker: false });
    try {
      const device = await createDevice('SSH box D');
      const sid = (await connectPassword(host, device.device_id)).body.session_id as string;
      const abort = new AbortController();
      const canceled = step(sid, 'install-docker', {}, abort.signal).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 500));
      abort.abort();
      expect(await canceled).toBeInstanceOf(Error);
      await new Promise((r) => setTimeout(r, 300));
      expect((await step(sid, 'download-client')).result?.ok).toBe(true);
      host.runAsUser(
        'mkdir -p "$HOME/.local/share/edge-agent" && chmod 0500 "$HOME/.local/share/edge-agent"',
      );
      const failed = await step(sid, 'install-client');
      expect(failed.result).toMatchObject({ ok: false, code: 'SSH_STEP_FAILED' });
      expect(failed.result?.message).toMatch(/Permission denied|cannot|Could not/i);
      host.runAsUser('chmod 0700 "$HOME/.local/share/edge-agent"');
      expect((await step(sid, 'install-client')).result?.ok).toBe(true);
    } finally {
      await host.dispose();
    }
  }, 60_000);

  it('answers bad input with { code, message }', async () => {
    const missing = await api(server, 'POST', 'connect-ssh', {
      token,
      body: { device_id: 'nope', hostname: '127.0.0.1', port: 22, username: 'x', password: 'y' },
    });
    expect(missing).toMatchObject({ status: 404 });
    const gone = await step('6f1d0c1e-3b9f-4a51-9a9e-2f4d3c1b0a99', 'check-gpu');
    expect(gone).toMatchObject({ status: 404, error: { code: 'SSH_SESSION_GONE' } });
    const device = await createDevice('SSH box E');
    const form = new FormData();
    form.set('pemFile', 'not a key');
    form.set(
      'formInfo',
      JSON.stringify({ device_id: device.device_id, hostname: '127.0.0.1', port: 22, username: 'x' }),
    );
    const res = await fetch(`${server.url}/api/connect-ssh`, {
      method: 'POST',
      headers: { authorization: `Token ${token}` },
      body: form,
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'SSH_KEY_INVALID' });
  });
});
