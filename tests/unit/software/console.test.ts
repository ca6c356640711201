/**
 * The Software tab's pure parts: the update view read from the real client update machine in each step
 * (progress percent, countdown, §4 error types), the registry view, progress message parsing, the machine
 * texts' i18n keys in all six languages, and byte formatting.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, type EventObject } from 'xstate';
import { clientUpdateMachine, UPDATE_FLOW_TEXTS } from '../../../machines/software/clientUpdate.machine';
import { softwareMachine } from '../../../machines/software/software.machine';
import { progressOf } from '../../../src/console/features/software/actors';
import { ch } from '../../../src/console/features/software/languages/ch';
import { de } from '../../../src/console/features/software/languages/de';
import { en } from '../../../src/console/features/software/languages/en';
import { es } from '../../../src/console/features/software/languages/es';
import { fr } from '../../../src/console/features/software/languages/fr';
import { jp } from '../../../src/console/features/software/languages/jp';
import {
  componentOf,
  formatBytes,
  softwareToView,
  textKeyOf,
  updateToView,
} from '../../../src/console/features/software/selectors';

function updateActor() {
  const sent: Array<(e: EventObject) => void> = [];
  const actor = createActor(
    clientUpdateMachine.provide({
      actors: {
        runUpdate: fromCallback(({ sendBack }) => void sent.push(sendBack as (e: EventObject) => void)),
        sendRestart: fromPromise(() => new Promise(() => undefined)),
        watchPresence: fromCallback(() => undefined),
        readVersion: fromPromise(() => new Promise<{ current: string }>(() => undefined)),
      },
    }),
    { input: { deviceId: 'd', deviceName: 'Box', version: null } },
  ).start();
  return { actor, sendBack: (e: object) => sent[0]!(e as EventObject) };
}

describe('software console views', () => {
  it('reads each step of a real client update', () => {
    const { actor, sendBack } = updateActor();
    expect(updateToView(actor.getSnapshot())).toMatchObject({ step: 'checking', percent: null, busy: true });
    sendBack({
      type: 'update.progress',
      state: 'downloading',
      version: '0.2.0',
      bytes_done: 25,
      bytes_total: 100,
    });
    expect(updateToView(actor.getSnapshot())).toMatchObject({
      step: 'downloading',
      percent: 25,
      version: '0.2.0',
    });
    sendBack({
      type: 'update.progress',
      state: 'installing',
      version: '0.2.0',
      bytes_done: 100,
      bytes_total: 100,
    });
    expect(updateToView(actor.getSnapshot()).step).toBe('installing');
    sendBack({ type: 'update.installed', version: '0.2.0' });
    expect(updateToView(actor.getSnapshot())).toMatchObject({ step: 'awaitingRestartConfirm', busy: false });
    const before = Date.now();
    actor.send({ type: 'update.confirmRestart' });
    const v = updateToView(actor.getSnapshot());
    expect(v.step).toBe('countdown');
    expect(v.restartAt! - before).toBeGreaterThanOrEqual(10_000);
    actor.send({ type: 'update.cancelRestart' });
    expect(updateToView(actor.getSnapshot())).toMatchObject({
      step: 'awaitingRestartConfirm',
      restartAt: null,
    });
    actor.send({ type: 'update.later' });
    expect(updateToView(actor.getSnapshot())).toMatchObject({ step: 'installed', ended: true });
  });

  it('maps the §4 error types to the §8 texts', () => {
    for (const code of ['notEnoughStorage', 'downloadError'] as const) {
      const { actor, sendBack } = updateActor();
      sendBack({ type: 'update.failed', code, message: 'device words' });
      const v = updateToView(actor.getSnapshot());
      expect(v).toMatchObject({
        step: 'failed',
        errorType: code,
        error: UPDATE_FLOW_TEXTS[code],
        ended: true,
      });
    }
    const { actor, sendBack } = updateActor();
    sendBack({ type: 'update.failed', code: 'timeout', message: 'The device did not answer' });
    expect(updateToView(actor.getSnapshot())).toMatchObject({
      errorType: 'other',
      error: 'The device did not answer',
    });
  });

  it('reads the registry for one device', () => {
    const actor = createActor(
      softwareMachine.provide({ actors: { checkTask: fromCallback(() => undefined) } }),
    ).start();
    expect(softwareToView(actor.getSnapshot(), 'd')).toEqual({
      version: null,
      checks: {},
      update: null,
      running: false,
    });
    actor.send({ type: 'software.check', deviceId: 'd', op: 'version' });
    actor.send({
      type: 'software.result',
      deviceId: 'd',
      op: 'version',
      result: {
        current: '0.1.0',
        update_available: true,
        installed: null,
        latest: { version: '0.2.0', notes: '', size: 10, created_at: '' },
      },
    });
    expect(softwareToView(actor.getSnapshot(), 'd').version).toMatchObject({
      current: '0.1.0',
      updateAvailable: true,
    });
  });

  it('parses progress messages and component answers, refusing other shapes', () => {
    expect(progressOf({ state: 'downloading', version: '1.0.0', bytes_done: 1, bytes_total: 2 })).toEqual({
      state: 'downloading',
      version: '1.0.0',
      bytes_done: 1,
      bytes_total: 2,
    });
    expect(progressOf({ state: 'downloading' })).toBeNull();
    expect(progressOf('x')).toBeNull();
    expect(componentOf({ component: 'stream-engine', installed: 'a:1', running: true })).toMatchObject({
      installed: 'a:1',
      running: true,
      restartNeeded: false,
    });
    expect(componentOf(null)).toBeNull();
  });

  it('translates every machine text in the six languages', () => {
    for (const [name, english] of Object.entries(UPDATE_FLOW_TEXTS)) {
      expect(textKeyOf(english)).toBe(`software.flow.${name}`);
      expect(en.flow[name as keyof typeof en.flow]).toBe(english);
      for (const lang of [ch, de, es, fr, jp]) {
        expect(lang.flow[name as keyof typeof en.flow]).toBeTruthy();
        expect(lang.flow[name as keyof typeof en.flow]).not.toBe(english);
      }
    }
    expect(textKeyOf('device words')).toBeNull();
  });

  it('formats bytes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(48 * 1024 ** 2)).toBe('50.3 MB');
  });
});

describe('an update under way on the device', () => {
  it('reads get-download-upload-status answers', async () => {
    const { deviceUpdateOf } = await import('../../../src/console/features/software/selectors');
    expect(
      deviceUpdateOf({
        state: 'downloading',
        version: '0.2.0',
        bytes_done: 30,
        bytes_total: 60,
        error: null,
      }),
    ).toEqual({ version: '0.2.0', percent: 50 });
    expect(
      deviceUpdateOf({ state: 'installed', version: '0.2.0', bytes_done: 60, bytes_total: 60 }),
    ).toBeNull();
    expect(deviceUpdateOf({ state: 'idle', version: null, bytes_done: 0, bytes_total: 0 })).toBeNull();
    expect(deviceUpdateOf(null)).toBeNull();
  });
});
