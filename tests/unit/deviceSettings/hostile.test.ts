/**
 * Hostile payloads for every settings command through the agent's dispatcher: wrong types, out-of-range
 * numbers, extra fields, odd URLs. Nothing throws or crashes; every answer is either a coded refusal
 * (invalid_payload) or a reply that fits the command's `{ data, error }` contract, and the settings file
 * keeps only valid values.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../../src/agent/backends/types';
import { handlers, type CommandContext } from '../../../src/agent/commands';
import { createDeviceSettings, SETTINGS_FILE, SettingsStore } from '../../../src/agent/deviceSettings';
import { dispatchRequest } from '../../../src/agent/link/dispatcher';
import { silentLogger } from '../../../src/agent/log';
import { deviceCommands } from '../../../src/protocol';
import { deviceSettingsCommands } from '../../../src/protocol/deviceSettings';

const dir = mkdtempSync(path.join(os.tmpdir(), 'settings-hostile-'));
const settings = createDeviceSettings({
  mode: 'sim',
  backend: { kind: 'jetson' } as Backend,
  deviceId: 'dev-1',
  label: 'Sim',
  stateDir: dir,
  log: silentLogger,
  broadcast: () => undefined,
});
afterAll(async () => {
  await settings.close();
  rmSync(dir, { recursive: true, force: true });
});
const ctx = { deviceId: 'dev-1', settings } as Partial<CommandContext> as CommandContext;

const HOSTILE: unknown[] = [
  undefined,
  null,
  [],
  'x',
  42,
  { enabled: 'yes' },
  { enabled: true, delayS: 1e308 },
  { enabled: true, delayS: -1 },
  { enabled: true, delayS: 60.5 },
  { enabled: true, delayS: Number.NaN },
  { level: '__proto__', retentionDays: 7 },
  { level: 'info', retentionDays: 7, extra: { deep: [1, 2, 3] } },
  { powerMode: 99, jetsonClocks: true },
  { powerMode: 2, jetsonClocks: 'true' },
  { dns: 1, time: 0, ip: null },
  { infoType: 'general-settings-info ' },
  { infoType: { toString: 'x' } },
  { url: 'http://[' },
  { url: 'http://cie.invalid/' },
  { url: 'javascript:alert(1)' },
  { url: `http://${'a'.repeat(3000)}` },
  { __proto__: { enabled: true } },
];

describe('settings commands under hostile payloads', () => {
  it('answer every case with a coded refusal or a reply that fits the contract', async () => {
    let n = 0;
    for (const process of Object.keys(deviceSettingsCommands) as (keyof typeof deviceSettingsCommands)[]) {
      for (const payload of HOSTILE) {
        const reply = await dispatchRequest(
          { type: 'request', process, requestId: `h${++n}`, payload },
          handlers,
          ctx,
          silentLogger,
        );
        if (reply.ok) {
          expect(
            deviceCommands[process].reply.safeParse(reply.data).success,
            `${process} ${JSON.stringify(payload)}`,
          ).toBe(true);
        } else {
          expect(reply.error.code, `${process} ${JSON.stringify(payload)}`).toBe('invalid_payload');
        }
      }
    }
    // What is on disk is still a valid settings file.
    if (existsSync(path.join(dir, SETTINGS_FILE))) {
      JSON.parse(readFileSync(path.join(dir, SETTINGS_FILE), 'utf8'));
      const warnings: string[] = [];
      await new SettingsStore(dir, { ...silentLogger, warn: (m) => warnings.push(m) }).read();
      expect(warnings).toEqual([]);
    }
  });
});
