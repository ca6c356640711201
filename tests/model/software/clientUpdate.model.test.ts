/**
 * The client update on model-based paths (xstate/graph over the real machine, §4): checking, download
 * progress, installing, the three error types (notEnoughStorage, downloadError, other) with their §8 texts,
 * the restart offer, the §9 10 s countdown (cancel), the restart command, going offline, coming back and the
 * version check, the time-outs, and what the registry hears.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, type EventObject, type SnapshotFrom } from 'xstate';
import {
  clientUpdateMachine,
  UPDATE_FLOW_TEXTS,
  type ClientUpdateInput,
} from '../../../machines/software/clientUpdate.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof clientUpdateMachine>;

const coded = (code: string, message: string) => Object.assign(new Error(message), { code });
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
const fail = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error }) as EventObject;
const progress = (state: string, bytes_done: number) =>
  ({ type: 'update.progress', state, version: '0.2.0', bytes_done, bytes_total: 100 }) as EventObject;

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'update.progress':
      return s.matches({ working: 'checking' })
        ? [progress('checking', 0), progress('downloading', 40)]
        : s.matches({ working: 'downloading' })
          ? [progress('downloading', 80), progress('installing', 100)]
          : [progress('installing', 100)];
    case 'update.installed':
      return [{ type, version: '0.2.0' } as EventObject];
    case 'update.failed':
      return [
        { type, code: 'notEnoughStorage', message: 'Not enough storage: 0.50 GB free' },
        { type, code: 'downloadError', message: 'The download broke off' },
        { type, code: 'other', message: 'The server publishes no client release.' },
      ] as unknown as EventObject[];
    case 'update.presence':
      return [
        { type, online: false },
        { type, online: true },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.sendRestart':
      return [done('sendRestart', { restarting: true, version: '0.2.0', offline_ms: 3000 })];
    case 'xstate.error.actor.sendRestart':
      return [fail('sendRestart', coded('other', 'No installed update waits for a restart.'))];
    case 'xstate.done.actor.readVersion':
      return [done('readVersion', { current: '0.2.0' }), done('readVersion', { current: '0.1.0' })];
    case 'xstate.error.actor.readVersion':
      return [fail('readVersion', coded('timeout', 'no answer'))];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.bytesDone,
    s.context.errorType,
    s.context.error,
    s.context.restartAt !== null,
  ]);

const input: ClientUpdateInput = { deviceId: 'dev-1', deviceName: 'Box A', version: null };

function start(emitted: string[], reports: unknown[]) {
  return (driver: Driver) => {
    const reportTo = createActor(
      fromCallback(({ receive }) => {
        receive((e) => reports.push(e));
      }),
    ).start();
    const actor = createActor(
      clientUpdateMachine.provide({
        actors: {
          runUpdate: driver.callback('runUpdate'),
          sendRestart: driver.promise('sendRestart'),
          watchPresence: driver.callback('watchPresence'),
          readVersion: driver.promise('readVersion'),
        },
      }),
      { input: { ...input, reportTo }, clock: driver.clock },
    );
    actor.on('notice', (e) => emitted.push(`${e.title}|${e.message}`));
    return actor.start();
  };
}

describe('client update (model-based paths)', () => {
  const model = createMachineTestModel(clientUpdateMachine, { events: eventsFor, key, input });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('follows every modelled path on the real machine', async () => {
    const emitted: string[] = [];
    const steps = await runPaths(paths, start(emitted, []), key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const s of ['done', 'installed', 'failed', 'awaitingRestartConfirm'] as const) {
      expect(ends.some((e) => e.matches(s))).toBe(true);
    }
    // §4 error types with the §8 texts.
    const failedWith = (t: string) => ends.some((e) => e.matches('failed') && e.context.errorType === t);
    expect(failedWith('notEnoughStorage')).toBe(true);
    expect(failedWith('downloadError')).toBe(true);
    expect(failedWith('other')).toBe(true);
    expect(ends.some((e) => e.context.error === UPDATE_FLOW_TEXTS.notEnoughStorage)).toBe(true);
    expect(ends.some((e) => e.context.error === UPDATE_FLOW_TEXTS.downloadError)).toBe(true);
    expect(ends.some((e) => e.context.error === UPDATE_FLOW_TEXTS.wrongVersion)).toBe(true);
    expect(emitted).toContain(`${UPDATE_FLOW_TEXTS.updated}|Box A: 0.2.0`);
  });

  it('sends the restart only after the §9 countdown, and never before the confirm', () => {
    for (const p of paths) {
      const types = p.steps.map((st) => st.event.type);
      const sent = p.steps.findIndex((st) => st.state.matches({ restarting: 'sending' }));
      if (sent < 0) continue;
      expect(types.slice(0, sent + 1).some((t) => t.startsWith('xstate.after.clientRestart'))).toBe(true);
      expect(types.indexOf('update.confirmRestart')).toBeLessThan(sent);
    }
  });

  it('a storage refusal comes straight from checking, before any download progress', () => {
    const refused = paths.filter(
      (p) => p.state.matches('failed') && p.state.context.errorType === 'notEnoughStorage',
    );
    expect(refused.some((p) => p.steps.length === 2 && p.state.context.bytesDone === 0)).toBe(true);
  });

  it('tells the registry how it ended', async () => {
    const reports: Array<{ outcome: string }> = [];
    const ended = paths.filter((p) => p.state.status === 'done');
    await runPaths(ended, start([], reports), key);
    expect(new Set(reports.map((r) => r.outcome))).toEqual(new Set(['done', 'installed', 'failed']));
  });
});
