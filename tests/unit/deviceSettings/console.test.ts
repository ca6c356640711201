/**
 * The console side's pure pieces: §8 replies unwrapped into thrown device errors, the link event's infoType,
 * the form's and client action's views, and the six languages giving every text.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { clientActionMachine } from '../../../machines/deviceSettings/clientAction.machine';
import {
  settingsFormMachine,
  type SaveChangesInput,
  type SettingsFormInput,
} from '../../../machines/deviceSettings/settingsForm.machine';
import { changedInfoType } from '../../../src/console/features/deviceSettings/actors';
import { settingsCommands, unwrap } from '../../../src/console/features/deviceSettings/api';
import { textKeyOf } from '../../../src/console/features/deviceSettings/i18n';
import { ch } from '../../../src/console/features/deviceSettings/languages/ch';
import { de } from '../../../src/console/features/deviceSettings/languages/de';
import { en } from '../../../src/console/features/deviceSettings/languages/en';
import { es } from '../../../src/console/features/deviceSettings/languages/es';
import { fr } from '../../../src/console/features/deviceSettings/languages/fr';
import { jp } from '../../../src/console/features/deviceSettings/languages/jp';
import {
  actionToView,
  connectedLabel,
  formToView,
} from '../../../src/console/features/deviceSettings/selectors';
import type { CallDevice } from '../../../src/console/platform/peerLink';
import {
  SETTINGS_EVENTS,
  SETTINGS_TEXTS,
  type DeviceSettingsInfo,
} from '../../../src/protocol/deviceSettings';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('deviceSettings console', () => {
  it('throws the device error of a { data: null, error } reply and stops a save at the first refusal', async () => {
    expect(unwrap('x', { data: 1, error: null })).toBe(1);
    expect(() => unwrap('x', { data: null, error: { code: 'unsupported', message: 'no' } })).toThrow(
      expect.objectContaining({ code: 'unsupported', message: 'no' }),
    );
    const calls: string[] = [];
    const call = (async (_d: string, process: string) => {
      calls.push(process);
      return process === 'change-startup-info'
        ? { data: null, error: { code: 'unsupported', message: SETTINGS_TEXTS.noStartupUnit } }
        : { data: {}, error: null };
    }) as unknown as CallDevice;
    await expect(
      settingsCommands(call).save('dev-1', [
        { process: 'change-startup-info', payload: { enabled: false } },
        { process: 'change-connection-alert-info', payload: { enabled: true, delayS: 60 } },
      ]),
    ).rejects.toMatchObject({ code: 'unsupported' });
    expect(calls).toEqual(['change-startup-info']);
  });

  it('reads the infoType of the device event', () => {
    expect(SETTINGS_EVENTS.changed).toBe('settings.changed');
    expect(changedInfoType({ infoType: 'client-engine-info' })).toBe('client-engine-info');
    expect(changedInfoType({ infoType: 'nope' })).toBeNull();
    expect(changedInfoType(null)).toBeNull();
  });

  it('views: errors show once touched; a refusal keeps the device words', async () => {
    const form = createActor(
      settingsFormMachine.provide({
        actors: {
          loadSection: fromPromise<DeviceSettingsInfo, SettingsFormInput>(async () => ({
            infoType: 'system-check-settings-info',
            info: { dns: true, time: true, ip: true },
          })),
          saveChanges: fromPromise<void, SaveChangesInput>(async () => {
            throw Object.assign(new Error('disk full'), { code: 'failed' });
          }),
        },
      }),
      { input: { deviceId: 'dev-1', infoType: 'system-check-settings-info' } },
    ).start();
    expect(formToView(form.getSnapshot()).status).toBe('loading');
    await tick();
    expect(formToView(form.getSnapshot())).toMatchObject({ status: 'editing', dirty: false });
    form.send({ type: 'form.set', field: 'dns', value: false });
    expect(formToView(form.getSnapshot()).dirty).toBe(true);
    form.send({ type: 'form.save' });
    await tick();
    expect(formToView(form.getSnapshot())).toMatchObject({
      status: 'refused',
      deviceError: { code: 'failed', message: 'disk full' },
      values: { dns: false },
    });
    const action = createActor(clientActionMachine, { input: { deviceId: 'dev-1' } }).start();
    action.send({ type: 'action.ask', action: 'connectCie' });
    action.send({ type: 'action.confirm' });
    expect(actionToView(action.getSnapshot())).toMatchObject({
      status: 'confirming',
      cieError: { key: 'required' },
    });
  });

  it('the connected label comes from the device pool', () => {
    const pool = {
      context: {
        status: { a: 'open', b: 'connecting' },
        connections: { a: { getSnapshot: () => ({ context: { device: { label: 'Box A' } } }) } },
      },
    };
    expect(connectedLabel(pool, 'a')).toBe('Box A');
    expect(connectedLabel(pool, 'b')).toBeNull();
  });

  it('every language gives every text; the device refusals are known texts', () => {
    const keys = (o: object): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'string' ? [k] : keys(v as object).map((j) => `${k}.${j}`),
      );
    for (const lang of [ch, de, es, fr, jp]) expect(keys(lang).sort()).toEqual(keys(en).sort());
    for (const [name, text] of Object.entries(SETTINGS_TEXTS)) {
      expect(textKeyOf(text)).toBe(`deviceSettings.texts.${name}`);
    }
  });
});
