/**
 * The forms' pure checks (machines/deviceSettings/settingsChecks.ts) agree with the contract: the same limits
 * as SETTINGS_LIMITS, every change a checked form sends parses with its command's zod schema, a value the
 * form refuses is refused by the device too; and the deviceSettings actor spawns and refreshes its forms.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { deviceSettingsMachine, formKey } from '../../../machines/deviceSettings/deviceSettings.machine';
import {
  changesOf,
  checkCieUrl,
  checkForm,
  formOf,
  INFO_TYPES,
  SETTINGS_FIELDS,
} from '../../../machines/deviceSettings/settingsChecks';
import { settingsFormMachine } from '../../../machines/deviceSettings/settingsForm.machine';
import { deviceCommands } from '../../../src/protocol';
import {
  ConnectCieInput,
  SETTINGS_LIMITS,
  type DeviceSettingsInfo,
} from '../../../src/protocol/deviceSettings';

const sections: DeviceSettingsInfo[] = [
  {
    infoType: 'general-settings-info',
    info: {
      homePath: '/home/edge',
      startAtBoot: true,
      startAtBootSupported: true,
      startAtBootNote: null,
      connectionAlert: { enabled: true, delayS: 60 },
    },
  },
  {
    infoType: 'alert-metrics-settings-info',
    info: {
      enabled: true,
      intervalS: 60,
      cpuPercent: 90,
      gpuPercent: 90,
      memoryPercent: 90,
      temperatureC: 80,
    },
  },
  {
    infoType: 'client-engine-info',
    info: {
      clientVersion: '1.0.0',
      kind: 'jetson',
      clientLog: { level: 'info', retentionDays: 7 },
      streamEngineLog: { level: 'warn', retentionDays: 7 },
      jetsonService: { powerMode: 0, jetsonClocks: false },
      engineRestartedAt: null,
      cie: { url: null, connected: false, connectedAt: null },
    },
  },
  { infoType: 'system-check-settings-info', info: { dns: true, time: true, ip: true } },
];

describe('settings checks', () => {
  it('use the contract limits', () => {
    const ints = Object.values(SETTINGS_FIELDS)
      .flat()
      .filter((f) => f.kind === 'int');
    const byName = Object.fromEntries(ints.map((f) => [f.name, [f.min, f.max]]));
    const l = SETTINGS_LIMITS;
    expect(byName).toEqual({
      connectionAlertDelayS: [l.connectionAlertDelayS.min, l.connectionAlertDelayS.max],
      intervalS: [l.checkIntervalS.min, l.checkIntervalS.max],
      cpuPercent: [l.percent.min, l.percent.max],
      gpuPercent: [l.percent.min, l.percent.max],
      memoryPercent: [l.percent.min, l.percent.max],
      temperatureC: [l.temperatureC.min, l.temperatureC.max],
      clientLogRetentionDays: [l.retentionDays.min, l.retentionDays.max],
      streamLogRetentionDays: [l.retentionDays.min, l.retentionDays.max],
      jetsonPowerMode: [l.powerMode.min, l.powerMode.max],
    });
  });

  it('a checked form sends only changed groups, each a valid payload of its command', () => {
    for (const section of sections) {
      const original = formOf(section);
      expect(changesOf(section.infoType, original, original)).toEqual([]);
      const edited = { ...original };
      for (const field of SETTINGS_FIELDS[section.infoType]) {
        if (field.kind === 'boolean') edited[field.name] = !original[field.name];
        else if (field.kind === 'int') edited[field.name] = String(field.max);
        else edited[field.name] = 'debug';
      }
      expect(checkForm(section.infoType, edited)).toEqual({});
      const changes = changesOf(section.infoType, original, edited);
      expect(changes.length).toBeGreaterThan(0);
      for (const c of changes) {
        expect(deviceCommands[c.process].request.safeParse(c.payload).success, c.process).toBe(true);
      }
    }
  });

  it('refuses what the device would refuse', () => {
    const general = formOf(sections[0]!);
    expect(checkForm('general-settings-info', { ...general, connectionAlertDelayS: '9' })).toEqual({
      connectionAlertDelayS: { key: 'range', min: 10, max: 3600 },
    });
    expect(
      checkForm('general-settings-info', { ...general, connectionAlertDelayS: '' }).connectionAlertDelayS
        ?.key,
    ).toBe('required');
    expect(
      checkForm('general-settings-info', { ...general, connectionAlertDelayS: '1.5' }).connectionAlertDelayS
        ?.key,
    ).toBe('integer');
    const engine = formOf(sections[2]!);
    expect(checkForm('client-engine-info', { ...engine, clientLogLevel: 'loud' }).clientLogLevel?.key).toBe(
      'choice',
    );
    for (const url of ['', 'cie.local', 'ftp://x', 'http://a b', 'http://cie.local:8080/x']) {
      expect(checkCieUrl(url) === null, url).toBe(ConnectCieInput.safeParse({ url }).success);
    }
  });
});

describe('deviceSettings actor', () => {
  it('spawns four forms and the client actions per device, and refreshes them on a change', async () => {
    let reads = 0;
    const form = settingsFormMachine.provide({
      actors: {
        loadSection: fromPromise(async ({ input }) => {
          reads++;
          return sections.find((s) => s.infoType === input.infoType)!;
        }),
      },
    });
    const actor = createActor(deviceSettingsMachine.provide({ actors: { settingsForm: form } })).start();
    actor.send({ type: 'settings.open', deviceId: 'dev-1' });
    await new Promise((r) => setTimeout(r, 0));
    const forms = actor.getSnapshot().context.forms;
    expect(Object.keys(forms).sort()).toEqual(INFO_TYPES.map((t) => formKey('dev-1', t)).sort());
    expect(reads).toBe(4);
    actor.send({ type: 'settings.changed', deviceId: 'dev-1', infoType: 'system-check-settings-info' });
    await new Promise((r) => setTimeout(r, 0));
    expect(reads).toBe(5);
    actor.send({ type: 'settings.open', deviceId: 'dev-1' });
    await new Promise((r) => setTimeout(r, 0));
    expect(reads).toBe(9);
    actor.send({ type: 'settings.reset' });
    expect(actor.getSnapshot().context.forms).toEqual({});
    actor.stop();
  });
});
