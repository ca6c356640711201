/**
 * The power part (src/agent/power/): the encrypted sudo store, the sim's sudo and power acts (off the air
 * through AgentLifecycle), the host's real sudo check (a stand-in sudo script, and the machine's own sudo
 * where there is one) and its power gate (EDGE_AGENT_ALLOW_POWER) with harmless commands.
 */
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../../src/agent/backends/types';
import { silentLogger } from '../../../src/agent/log';
import type { AgentPartDeps } from '../../../src/agent/parts';
import {
  createDevicePower,
  DEFAULT_SIM_SUDO_PASSWORD,
  type DevicePowerOptions,
} from '../../../src/agent/power';
import { checkSudoPassword } from '../../../src/agent/power/hostSudo';
import { createSudoStore } from '../../../src/agent/power/sudoStore';
import { POWER_ERROR_CODES, POWER_TEXTS } from '../../../src/protocol/power';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'power-test-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function part(mode: 'host' | 'sim', options: DevicePowerOptions = {}) {
  const offline: number[] = [];
  const dir = tmp();
  const deps: AgentPartDeps = {
    mode,
    backend: { kind: 'x86' } as Backend,
    deviceId: 'dev-1',
    label: 'Box',
    stateDir: dir,
    log: silentLogger,
    broadcast: () => undefined,
    lifecycle: {
      goOffline: async (ms) => {
        offline.push(ms);
      },
    },
  };
  return { p: createDevicePower(deps, { env: {}, ...options }), offline, dir };
}

/** Resolves when `list` has an entry (the act runs POWER_ACT_DELAY_MS after the reply). */
async function until<T>(list: T[]): Promise<T> {
  while (list.length === 0) await new Promise((r) => setTimeout(r, 20));
  return list[0]!;
}

/** A stand-in sudo: asks with the -p prompt, accepts `secret`; 'silent' succeeds without asking. */
function fakeSudo(behaviour: 'asks' | 'silent' | 'hangs'): string {
  const file = path.join(tmp(), 'sudo');
  const body = {
    asks: 'printf "%s" "$5" >&2; IFS= read -r pw; [ "$pw" = "secret" ] && exit 0; sleep 0.2; echo "Sorry, try again." >&2; exit 1',
    silent: 'exit 0',
    hangs: 'sleep 30',
  }[behaviour];
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string; message?: string }) => `${e.code}: ${e.message}`,
  );

describe('sudo store', () => {
  it('keeps the password encrypted (AES-256-GCM, 0600 files) and removes it', async () => {
    const dir = tmp();
    const store = createSudoStore(dir);
    expect(await store.has()).toBe(false);
    expect(await store.load()).toBeNull();
    await store.save('my pass wörd');
    expect(await store.has()).toBe(true);
    expect(await store.load()).toBe('my pass wörd');
    for (const f of readdirSync(dir)) expect(statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
    const raw = readFileSync(path.join(dir, 'sudo.enc'), 'utf8');
    expect(raw).not.toContain('pass');
    expect(JSON.parse(raw)).toMatchObject({ v: 1 });
    // A fresh store (agent restarted) opens it with the key file.
    expect(await createSudoStore(dir).load()).toBe('my pass wörd');
    expect(await store.remove()).toBe(true);
    expect(await store.remove()).toBe(false);
    expect(await store.load()).toBeNull();
  });

  it('counts a tampered or foreign file as none saved', async () => {
    const dir = tmp();
    const store = createSudoStore(dir);
    await store.save('secret');
    const sealed = JSON.parse(readFileSync(path.join(dir, 'sudo.enc'), 'utf8')) as { data: string };
    sealed.data = Buffer.from('other').toString('base64');
    writeFileSync(path.join(dir, 'sudo.enc'), JSON.stringify(sealed));
    expect(await store.load()).toBeNull();
    writeFileSync(path.join(dir, 'sudo.enc'), 'not json');
    expect(await store.load()).toBeNull();
  });
});

describe('sim power', () => {
  it('checks the configured sudo password and saves it on request', async () => {
    const { p } = part('sim');
    expect(await p.sudoStatus()).toEqual({ saved: false, needed: true });
    expect(await codeOf(p.checkSudo('wrong', true))).toBe(
      `${POWER_ERROR_CODES.invalidPassword}: ${POWER_TEXTS.invalidPassword}`,
    );
    expect(await p.sudoStatus()).toEqual({ saved: false, needed: true });
    expect(await p.checkSudo(DEFAULT_SIM_SUDO_PASSWORD, false)).toEqual({ valid: true, saved: false });
    expect(await p.checkSudo(DEFAULT_SIM_SUDO_PASSWORD, true)).toEqual({ valid: true, saved: true });
    expect(await p.sudoStatus()).toEqual({ saved: true, needed: true });
    expect(await p.removeSaved()).toBe(true);
    expect(await p.sudoStatus()).toEqual({ saved: false, needed: true });
  });

  it('takes the password from EDGE_SIM_SUDO_PASSWORD', async () => {
    const { p } = part('sim', { env: { EDGE_SIM_SUDO_PASSWORD: 'other' } });
    expect(await codeOf(p.checkSudo(DEFAULT_SIM_SUDO_PASSWORD, false))).toMatch(/^invalid_password/);
    expect(await p.checkSudo('other', false)).toMatchObject({ valid: true });
  });

  it('reboots off the air for EDGE_SIM_REBOOT_MS after answering, with the given or saved password', async () => {
    const { p, offline } = part('sim', { env: { EDGE_SIM_REBOOT_MS: '1234' } });
    expect(await codeOf(p.act('reboot'))).toBe(`sudo_required: ${POWER_TEXTS.sudoRequired}`);
    expect(await codeOf(p.act('reboot', 'wrong'))).toBe(`invalid_password: ${POWER_TEXTS.invalidPassword}`);
    expect(offline).toEqual([]);
    expect(await p.act('reboot', DEFAULT_SIM_SUDO_PASSWORD)).toEqual({
      accepted: true,
      action: 'reboot',
      offline_ms: 1234,
    });
    expect(offline).toEqual([]); // answered first
    expect(await until(offline)).toBe(1234);
  });

  it('shuts down (and force shuts down) for longer, using the saved password', async () => {
    const { p, offline } = part('sim', { env: { EDGE_SIM_SHUTDOWN_MS: '5000' } });
    await p.checkSudo(DEFAULT_SIM_SUDO_PASSWORD, true);
    expect(await p.act('shutdown')).toMatchObject({ action: 'shutdown', offline_ms: 5000 });
    expect(await p.act('forceShutdown')).toMatchObject({ action: 'forceShutdown', offline_ms: 5000 });
    expect(await until(offline)).toBe(5000);
  });

  it('answers but stays on the air with EDGE_SIM_POWER_DRY_RUN=1', async () => {
    const { p, offline } = part('sim', { env: { EDGE_SIM_POWER_DRY_RUN: '1' } });
    expect(await p.restartClient()).toEqual({ accepted: true, action: 'restartClient', offline_ms: 0 });
    expect(await p.act('reboot', DEFAULT_SIM_SUDO_PASSWORD)).toMatchObject({ offline_ms: 0 });
    await p.close();
    expect(offline).toEqual([]);
  });

  it('restarts its client without sudo; close cancels a pending act', async () => {
    const { p, offline } = part('sim');
    expect(await p.restartClient()).toEqual({ accepted: true, action: 'restartClient', offline_ms: 3000 });
    await p.close();
    await new Promise((r) => setTimeout(r, 400));
    expect(offline).toEqual([]);
  });
});

describe('host sudo check (real sudo -S -k -v)', () => {
  it('accepts only a password sudo asked for and took', async () => {
    expect(await checkSudoPassword('secret', { sudo: fakeSudo('asks') })).toBe('accepted');
    expect(await checkSudoPassword('wrong', { sudo: fakeSudo('asks') })).toBe('wrong');
    expect(await checkSudoPassword('secret', { sudo: fakeSudo('silent') })).toBe('unasked');
    expect(await checkSudoPassword('x', { sudo: path.join(tmp(), 'no-sudo') })).toBe('absent');
    expect(await checkSudoPassword('x', { sudo: fakeSudo('hangs'), timeoutMs: 300 })).toBe('timeout');
  });

  it('answers "Invalid Password." for a wrong password with the machine’s own sudo, whatever it is', async () => {
    // Present and asking: a real refusal. Absent (as on a bare container) or asking nothing (root, NOPASSWD):
    // nothing proves the password, so it is not taken either — and nothing waits on a terminal.
    const { p } = part('host', { root: false });
    expect(await codeOf(p.checkSudo('certainly-not-the-password-42', false))).toBe(
      `invalid_password: ${POWER_TEXTS.invalidPassword}`,
    );
    expect(await p.sudoStatus()).toEqual({ saved: false, needed: true });
  }, 20_000);

  it('saves a password the stand-in sudo accepted, and uses it for a command', async () => {
    const sudo = fakeSudo('asks');
    const { p } = part('host', {
      sudo,
      root: false,
      env: { EDGE_AGENT_ALLOW_POWER: '1' },
      hostCommands: { reboot: ['true'], shutdown: ['false'], forceShutdown: ['false'] },
    });
    expect(await p.checkSudo('secret', true)).toEqual({ valid: true, saved: true });
    // Root runs the command itself; as a user it goes through sudo, absent here: use root for the commands.
    const asRoot = part('host', {
      sudo,
      root: true,
      env: { EDGE_AGENT_ALLOW_POWER: '1' },
      hostCommands: { reboot: ['true'], shutdown: ['false'], forceShutdown: ['false'] },
    });
    expect(await asRoot.p.sudoStatus()).toEqual({ saved: false, needed: false });
    expect(await asRoot.p.act('reboot')).toEqual({ accepted: true, action: 'reboot', offline_ms: null });
    expect(await codeOf(asRoot.p.act('shutdown'))).toMatch(/^power_failed: /);
    expect(await codeOf(asRoot.p.act('forceShutdown'))).toMatch(
      new RegExp(`^force_failed: ${POWER_TEXTS.forceFailed}`),
    );
  });
});

describe('host power gate', () => {
  it('refuses every power action without EDGE_AGENT_ALLOW_POWER=1 (never powers off this machine)', async () => {
    const restarted: number[] = [];
    const { p } = part('host', { root: true, restartSelf: () => restarted.push(1) });
    for (const action of ['reboot', 'shutdown', 'forceShutdown'] as const) {
      expect(await codeOf(p.act(action))).toMatch(/^power_disabled: .*EDGE_AGENT_ALLOW_POWER=1/);
    }
    expect(await codeOf(p.restartClient())).toMatch(/^power_disabled: /);
    expect(restarted).toEqual([]);
  });

  it('restarts the agent itself when allowed (stand-in restart)', async () => {
    const restarted: number[] = [];
    const { p } = part('host', {
      root: true,
      env: { EDGE_AGENT_ALLOW_POWER: '1' },
      restartSelf: () => restarted.push(1),
    });
    expect(await p.restartClient()).toMatchObject({ accepted: true, action: 'restartClient' });
    expect(await until(restarted)).toBe(1);
  });
});
