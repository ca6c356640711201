/**
 * The agent's settings part (src/agent/deviceSettings/): the sim device, the settings file (persisted across
 * restarts, atomic, a corrupt file gives the defaults and a warning) and the host machine's real pieces
 * (the home path; systemctl and nvpmodel through a fake runner, and for real where this machine can say).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Backend } from '../../../src/agent/backends/types';
import {
  createDeviceSettings,
  DEFAULT_SETTINGS,
  hostSystem,
  SETTINGS_FILE,
  type DeviceSettings,
  type SettingsSystem,
} from '../../../src/agent/deviceSettings';
import type { run } from '../../../src/agent/deviceSettings/system';
import type { Logger } from '../../../src/agent/log';
import { SETTINGS_TEXTS } from '../../../src/protocol/deviceSettings';

const dirs: string[] = [];
const parts: DeviceSettings[] = [];
afterEach(async () => {
  for (const p of parts.splice(0)) await p.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function stateDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'settings-test-'));
  dirs.push(d);
  return d;
}

function recordingLog() {
  const warnings: string[] = [];
  const log: Logger = { info: () => {}, warn: (m) => warnings.push(m), error: () => {} };
  return { log, warnings };
}

function part(
  dir: string,
  opts: { kind?: 'jetson' | 'x86'; mode?: 'host' | 'sim'; log?: Logger; system?: SettingsSystem } = {},
) {
  const events: { name: string; data: unknown }[] = [];
  const p = createDeviceSettings(
    {
      mode: opts.mode ?? 'sim',
      backend: { kind: opts.kind ?? 'x86' } as Backend,
      deviceId: 'dev-1',
      label: 'Sim',
      stateDir: dir,
      log: opts.log ?? recordingLog().log,
      broadcast: (name, data) => events.push({ name, data }),
    },
    opts.system ? { system: opts.system } : {},
  );
  parts.push(p);
  return { p, events };
}

describe('sim settings part', () => {
  it('starts with the defaults and the simulated home', async () => {
    const { p } = part(stateDir());
    const all = await p.all();
    expect(all.homePath).toBe('/home/edge');
    expect(all['alert-metrics-settings-info']).toEqual(DEFAULT_SETTINGS.metricsAlert);
    expect(all['general-settings-info']).toMatchObject({ startAtBoot: true, startAtBootSupported: true });
    expect(all['client-engine-info'].jetsonService).toBeNull();
  });

  it('keeps a change across a restart of the agent, written as JSON in the state directory', async () => {
    const dir = stateDir();
    const { p, events } = part(dir);
    const changed = await p.changeMetricsAlert({ ...DEFAULT_SETTINGS.metricsAlert, cpuPercent: 55 });
    expect(changed).toMatchObject({ infoType: 'alert-metrics-settings-info', info: { cpuPercent: 55 } });
    expect(events).toContainEqual({
      name: 'settings.changed',
      data: { infoType: 'alert-metrics-settings-info' },
    });
    await p.changeStartup(false);
    const file = JSON.parse(readFileSync(path.join(dir, SETTINGS_FILE), 'utf8')) as { startAtBoot: boolean };
    expect(file.startAtBoot).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const again = part(dir).p;
    const section = await again.section('alert-metrics-settings-info');
    expect(section.info).toMatchObject({ cpuPercent: 55 });
    expect((await again.section('general-settings-info')).info).toMatchObject({ startAtBoot: false });
  });

  it('runs concurrent changes one after another without losing one', async () => {
    const dir = stateDir();
    const { p } = part(dir);
    await Promise.all([
      p.changeClientLog({ level: 'debug', retentionDays: 3 }),
      p.changeStreamEngineLog({ level: 'error', retentionDays: 30 }),
      p.changeSystemChecks({ dns: false, time: true, ip: false }),
    ]);
    const again = await part(dir).p.all();
    expect(again['client-engine-info'].clientLog).toEqual({ level: 'debug', retentionDays: 3 });
    expect(again['client-engine-info'].streamEngineLog).toEqual({ level: 'error', retentionDays: 30 });
    expect(again['system-check-settings-info']).toEqual({ dns: false, time: true, ip: false });
  });

  it('a corrupt file gives the defaults and a warning, and is kept aside', async () => {
    const dir = stateDir();
    writeFileSync(path.join(dir, SETTINGS_FILE), '{ not json');
    const { log, warnings } = recordingLog();
    const { p } = part(dir, { log });
    expect((await p.all())['system-check-settings-info']).toEqual(DEFAULT_SETTINGS.systemChecks);
    expect(warnings.join('\n')).toMatch(/not JSON/);
    expect(readdirSync(dir).some((f) => f.startsWith(`${SETTINGS_FILE}.corrupt-`))).toBe(true);
    await p.changeSystemChecks({ dns: false, time: false, ip: false });
    expect((await part(dir).p.all())['system-check-settings-info']).toEqual({
      dns: false,
      time: false,
      ip: false,
    });
  });

  it('an invalid field falls back to its default alone', async () => {
    const dir = stateDir();
    writeFileSync(
      path.join(dir, SETTINGS_FILE),
      JSON.stringify({
        clientLog: { level: 'loud', retentionDays: 7 },
        systemChecks: { dns: false, time: true, ip: true },
      }),
    );
    const { log, warnings } = recordingLog();
    const all = await part(dir, { log }).p.all();
    expect(all['client-engine-info'].clientLog).toEqual(DEFAULT_SETTINGS.clientLog);
    expect(all['system-check-settings-info'].dns).toBe(false);
    expect(warnings.join('\n')).toMatch(/invalid fields/);
  });

  it('force refresh reads what is on disk now', async () => {
    const dir = stateDir();
    const { p } = part(dir);
    expect((await p.all())['system-check-settings-info'].ip).toBe(true);
    writeFileSync(
      path.join(dir, SETTINGS_FILE),
      JSON.stringify({ systemChecks: { dns: true, time: true, ip: false } }),
    );
    expect((await p.refresh())['system-check-settings-info'].ip).toBe(false);
  });

  it('refuses the Jetson service on x86 and keeps it on Jetson', async () => {
    const x86 = part(stateDir()).p;
    await expect(x86.changeJetsonService({ powerMode: 1, jetsonClocks: true })).rejects.toMatchObject({
      code: 'unsupported',
      message: SETTINGS_TEXTS.jetsonOnly,
    });
    const jetson = part(stateDir(), { kind: 'jetson' }).p;
    const changed = await jetson.changeJetsonService({ powerMode: 2, jetsonClocks: true });
    expect(changed.info).toMatchObject({ jetsonService: { powerMode: 2, jetsonClocks: true } });
  });

  it('restarts the client engine and the FRP client, answering when done', async () => {
    const { p } = part(stateDir());
    const engine = await p.restartClientEngine();
    expect(engine.tookMs).toBeGreaterThanOrEqual(0);
    expect((await p.section('client-engine-info')).info).toMatchObject({
      engineRestartedAt: engine.restartedAt,
    });
    expect((await p.restartFrpClient()).service).toBe('frpc.service');
  });

  it('connects a CIE and refuses an unreachable one', async () => {
    const { p } = part(stateDir());
    await expect(p.connectCie('http://cie.invalid/')).rejects.toMatchObject({ code: 'unreachable' });
    const cie = await p.connectCie('http://cie.example/api');
    expect(cie).toMatchObject({ url: 'http://cie.example/api', connected: true });
    expect((await p.section('client-engine-info')).info).toMatchObject({
      cie: { url: 'http://cie.example/api' },
    });
  });
});

/** A fake runner answering by the command line. */
function fakeRun(answers: Record<string, { code?: number; stdout?: string; missing?: boolean }>) {
  const calls: string[] = [];
  const runner: typeof run = async (file, args) => {
    const line = [file, ...args].join(' ');
    calls.push(line);
    const a = answers[line] ?? answers[file] ?? { code: 1 };
    return { code: a.code ?? 0, stdout: a.stdout ?? '', stderr: '', missing: a.missing ?? false };
  };
  return { runner, calls };
}

describe('host machine', () => {
  it('get-home-path is the real home', async () => {
    const { p } = part(stateDir(), { mode: 'host' });
    expect(p.homePath()).toBe(os.homedir());
  });

  it('reads start-at-boot with systemctl, and enables it there', async () => {
    const { runner, calls } = fakeRun({
      'systemctl show -p LoadState --value edge-agent.service': { stdout: 'loaded\n' },
      'systemctl is-enabled edge-agent.service': { code: 1, stdout: 'disabled\n' },
      'systemctl enable edge-agent.service': { code: 0 },
    });
    const system = hostSystem({ run: runner });
    expect(await system.readStartup(true)).toEqual({ enabled: false, supported: true, note: null });
    await system.setStartup(true);
    expect(calls).toContain('systemctl enable edge-agent.service');
  });

  it('says clearly when there is no unit or no systemctl, and refuses the change', async () => {
    const noUnit = hostSystem({ run: fakeRun({ systemctl: { stdout: 'not-found\n' } }).runner });
    expect(await noUnit.readStartup(true)).toMatchObject({
      supported: false,
      note: SETTINGS_TEXTS.noStartupUnit,
    });
    await expect(noUnit.setStartup(false)).rejects.toMatchObject({ code: 'unsupported' });
    const noSystemctl = hostSystem({ run: fakeRun({ systemctl: { missing: true, code: 1 } }).runner });
    expect(await noSystemctl.readStartup(false)).toMatchObject({
      supported: false,
      note: SETTINGS_TEXTS.noSystemctl,
    });
    await expect(noSystemctl.restartFrp()).rejects.toMatchObject({ message: SETTINGS_TEXTS.noFrpClient });
  });

  it('reads the nvpmodel mode and reports a failed change with its words', async () => {
    const { runner } = fakeRun({
      'nvpmodel -q': { stdout: 'NV Power Mode: MAXN\n0\n' },
      'nvpmodel -m 3': { code: 1, stdout: 'Invalid mode 3' },
    });
    const system = hostSystem({ run: runner });
    expect(await system.readJetson({ powerMode: 5, jetsonClocks: true })).toEqual({
      powerMode: 0,
      jetsonClocks: true,
    });
    await expect(system.applyJetson({ powerMode: 3, jetsonClocks: false })).rejects.toMatchObject({
      code: 'failed',
      message: expect.stringContaining('Invalid mode 3'),
    });
  });

  it('on this machine, start-at-boot is read for real (systemctl or its absence) without failing', async () => {
    const { p } = part(stateDir(), { mode: 'host' });
    const general = (await p.section('general-settings-info')).info;
    expect(typeof general).toBe('object');
    if ('startAtBootSupported' in general && !general.startAtBootSupported) {
      expect(general.startAtBootNote).toMatch(/systemd unit|systemctl/);
      await expect(p.changeStartup(false)).rejects.toMatchObject({ code: 'unsupported' });
    }
  });

  it('a CIE that does not listen is unreachable, for real', async () => {
    const { p } = part(stateDir(), { mode: 'host' });
    await expect(p.connectCie('http://127.0.0.1:9/')).rejects.toMatchObject({ code: 'unreachable' });
  });
});
