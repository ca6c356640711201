/**
 * The settings commands through the agent's dispatcher (src/agent/commands/deviceSettings.ts): replies are
 * §8's `{ data, error }` (data null plus the error on a refusal), payloads out of range never reach the
 * part (invalid_payload), and every reply fits its zod contract.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Backend } from '../../../src/agent/backends/types';
import { handlers, type CommandContext } from '../../../src/agent/commands';
import { createDeviceSettings, type DeviceSettings } from '../../../src/agent/deviceSettings';
import { dispatchRequest } from '../../../src/agent/link/dispatcher';
import { silentLogger } from '../../../src/agent/log';
import { deviceCommands, type ReplyMessage } from '../../../src/protocol';
import { SETTINGS_TEXTS } from '../../../src/protocol/deviceSettings';

const dirs: string[] = [];
const parts: DeviceSettings[] = [];
afterEach(async () => {
  for (const p of parts.splice(0)) await p.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function ctxFor(kind: 'x86' | 'jetson', dir?: string): CommandContext {
  const stateDir = dir ?? mkdtempSync(path.join(os.tmpdir(), 'settings-cmd-'));
  dirs.push(stateDir);
  const settings = createDeviceSettings({
    mode: 'sim',
    backend: { kind } as Backend,
    deviceId: 'dev-1',
    label: 'Sim',
    stateDir,
    log: silentLogger,
    broadcast: () => undefined,
  });
  parts.push(settings);
  return { deviceId: 'dev-1', settings } as Partial<CommandContext> as CommandContext;
}

let n = 0;
async function call(ctx: CommandContext, process: string, payload: unknown): Promise<ReplyMessage> {
  const reply = await dispatchRequest(
    { type: 'request', process, requestId: `r${++n}`, payload },
    handlers,
    ctx,
    silentLogger,
  );
  if (reply.ok) {
    const schema = deviceCommands[process as keyof typeof deviceCommands].reply;
    expect(schema.safeParse(reply.data).success).toBe(true);
  }
  return reply;
}
const data = (reply: ReplyMessage) => {
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.data as {
    data: Record<string, unknown> | null;
    error: { code: string; message: string } | null;
  };
};

describe('settings commands', () => {
  it('reads every section, one section, and the home path', async () => {
    const ctx = ctxFor('x86');
    const all = data(await call(ctx, 'get-settings-info', {}));
    expect(all.error).toBeNull();
    expect(Object.keys(all.data!)).toEqual(
      expect.arrayContaining(['homePath', 'general-settings-info', 'system-check-settings-info']),
    );
    for (const infoType of [
      'client-engine-info',
      'general-settings-info',
      'alert-metrics-settings-info',
      'system-check-settings-info',
    ]) {
      expect(data(await call(ctx, 'get-device-settings-info', { infoType })).data).toMatchObject({
        infoType,
      });
    }
    expect(data(await call(ctx, 'get-home-path', {})).data).toEqual({ homePath: '/home/edge' });
  });

  it('a change is read back, also after force refresh', async () => {
    const ctx = ctxFor('x86');
    const changed = data(await call(ctx, 'change-connection-alert-info', { enabled: false, delayS: 120 }));
    expect(changed).toEqual({
      data: expect.objectContaining({ infoType: 'general-settings-info' }),
      error: null,
    });
    const refreshed = data(await call(ctx, 'force-refresh-device-settings', {}));
    expect(refreshed.data!['general-settings-info']).toMatchObject({
      connectionAlert: { enabled: false, delayS: 120 },
    });
  });

  it('out-of-range values and unknown fields are refused before the device acts', async () => {
    const ctx = ctxFor('x86');
    for (const [process, payload] of [
      ['change-connection-alert-info', { enabled: true, delayS: 5 }],
      [
        'change-check-device-metrics-info',
        {
          enabled: true,
          intervalS: 60,
          cpuPercent: 101,
          gpuPercent: 90,
          memoryPercent: 90,
          temperatureC: 80,
        },
      ],
      ['change-client-log-info', { level: 'loud', retentionDays: 7 }],
      ['change-stream-engine-log-info', { level: 'info', retentionDays: 0 }],
      ['change-system-check-info', { dns: true, time: true, ip: true, extra: 1 }],
      ['get-device-settings-info', { infoType: 'nope' }],
      ['connect-cie', { url: 'ftp://x' }],
    ] as const) {
      const reply = await call(ctx, process, payload);
      expect(reply.ok, process).toBe(false);
      if (!reply.ok) expect(reply.error.code).toBe('invalid_payload');
    }
    const checks = data(
      await call(ctx, 'get-device-settings-info', { infoType: 'system-check-settings-info' }),
    );
    expect(checks.data).toMatchObject({ info: { dns: true, time: true, ip: true } });
  });

  it('a refusal is data null plus the error (§8)', async () => {
    const ctx = ctxFor('x86');
    expect(data(await call(ctx, 'change-jetson-service-info', { powerMode: 1, jetsonClocks: true }))).toEqual(
      {
        data: null,
        error: { code: 'unsupported', message: SETTINGS_TEXTS.jetsonOnly },
      },
    );
    expect(data(await call(ctx, 'connect-cie', { url: 'http://cie.invalid/' }))).toMatchObject({
      data: null,
      error: { code: 'unreachable' },
    });
    const jetson = ctxFor('jetson');
    expect(
      data(await call(jetson, 'change-jetson-service-info', { powerMode: 1, jetsonClocks: true })).error,
    ).toBeNull();
  });

  it('the restarts answer when done', async () => {
    const ctx = ctxFor('x86');
    expect(data(await call(ctx, 'restart-client-engine', {})).data).toMatchObject({
      restartedAt: expect.any(Number),
    });
    expect(data(await call(ctx, 'restart-frp-client', {})).data).toMatchObject({ service: 'frpc.service' });
  });
});
