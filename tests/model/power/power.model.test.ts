/**
 * The power registry on model-based paths (xstate/graph over the real machine): one action per device, a
 * second start refused while one runs, ended actions dismissed, the saved-sudo state read, removed and
 * failing, and sign-out.
 */
import { describe, expect, it } from 'vitest';
import { createActor, sendTo, setup, type EventObject, type SnapshotFrom } from 'xstate';
import { powerMachine, type PowerEvent, type SudoTaskInput } from '../../../machines/power/power.machine';
import type { PowerActionInput } from '../../../machines/power/powerAction.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof powerMachine>;

/** A stand-in action (its flow has its own model test); the paths send its `power.ended` report. */
const fakeAction = setup({
  types: { input: {} as PowerActionInput, context: {} as { input: PowerActionInput } },
  actions: {
    report: sendTo(
      ({ context }) => context.input.reportTo!,
      ({ context }) => ({ type: 'power.ended', deviceId: context.input.deviceId, outcome: 'done' }),
    ),
  },
}).createMachine({
  context: ({ input }) => ({ input }),
  initial: 'running',
  states: { running: { on: { 'fake.end': 'done' } }, done: { type: 'final', entry: 'report' } },
});

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const running = s.context.running.length > 0;
  switch (type) {
    case 'power.start':
      return [{ type, deviceId: 'dev-1', deviceName: 'Box A', action: 'reboot' }] as unknown as EventObject[];
    case 'power.ended':
      // The running action's own report.
      return running ? ([{ type, deviceId: 'dev-1', outcome: 'done' }] as unknown as EventObject[]) : [];
    case 'power.dismiss':
    case 'sudo.refresh':
    case 'sudo.remove':
      return [{ type, deviceId: 'dev-1' }] as unknown as EventObject[];
    case 'sudo.status':
      return s.context.sudo['dev-1']?.busy
        ? ([
            { type, deviceId: 'dev-1', saved: s.context.sudo['dev-1'].saved !== true, needed: true },
          ] as unknown as EventObject[])
        : [];
    case 'sudo.failed':
      return s.context.sudo['dev-1']?.busy
        ? ([{ type, deviceId: 'dev-1', error: 'no answer' }] as unknown as EventObject[])
        : [];
    case 'power.sudoSaved':
      return [];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([Object.keys(s.context.actions), s.context.running, s.context.sudo['dev-1'] ?? null]);

describe('power registry (model-based paths)', () => {
  const model = createMachineTestModel(powerMachine, { events: eventsFor, key, transitionCoverage: true });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches a running action, an ended one, and the sudo states', () => {
    const ends = paths.map((p) => p.state.context);
    expect(ends.some((c) => c.running.includes('dev-1'))).toBe(true);
    expect(ends.some((c) => c.actions['dev-1'] && !c.running.includes('dev-1'))).toBe(true);
    expect(ends.some((c) => c.sudo['dev-1']?.saved === true)).toBe(true);
    expect(ends.some((c) => c.sudo['dev-1']?.error === 'no answer')).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    const tasks: SudoTaskInput[] = [];
    const start = (driver: Driver) =>
      createActor(
        powerMachine.provide({
          actors: {
            powerAction: fakeAction as never,
            sudoTask: driver.callback<PowerEvent, SudoTaskInput>('sudoTask', (input) => {
              tasks.push(input);
              return input.deviceId;
            }),
          },
        }),
        { clock: driver.clock },
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(0);
    expect(tasks.some((t) => t.op === 'remove')).toBe(true);
  });
});
