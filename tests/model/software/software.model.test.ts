/**
 * The software registry on model-based paths (xstate/graph over the real machine): the tab's checks (version,
 * stream engine, companion update and restart) answered and failing, one update per device, a second start
 * ignored while one runs, an ended update re-reads the version, dismiss, and sign-out.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, sendTo, setup, type EventObject, type SnapshotFrom } from 'xstate';
import type { ClientUpdateInput } from '../../../machines/software/clientUpdate.machine';
import {
  softwareMachine,
  type CheckTaskInput,
  type SoftwareEvent,
} from '../../../machines/software/software.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof softwareMachine>;

/** A stand-in update (its flow has its own model test); the paths send its `update.ended` report. */
const fakeUpdate = setup({
  types: { input: {} as ClientUpdateInput, context: {} as { input: ClientUpdateInput } },
  actions: {
    report: sendTo(
      ({ context }) => context.input.reportTo!,
      ({ context }) => ({
        type: 'update.ended',
        deviceId: context.input.deviceId,
        outcome: 'done',
        version: '0.2.0',
      }),
    ),
  },
}).createMachine({
  context: ({ input }) => ({ input }),
  initial: 'running',
  states: { running: { on: { 'fake.end': 'done' } }, done: { type: 'final', entry: 'report' } },
});

const busy = (s: Snap, op: string) =>
  (s.context.checks['dev-1'] as Record<string, { busy: boolean }> | undefined)?.[op]?.busy === true;

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const ev = (e: object) => [{ type, ...e }] as unknown as EventObject[];
  switch (type) {
    case 'software.check':
      return [
        { type, deviceId: 'dev-1', op: 'version' },
        { type, deviceId: 'dev-1', op: 'companion-restart' },
      ] as unknown as EventObject[];
    case 'software.result':
      return busy(s, 'version')
        ? ev({ deviceId: 'dev-1', op: 'version', result: { current: '0.1.0', update_available: true } })
        : [];
    case 'software.failed':
      return busy(s, 'companion-restart')
        ? ev({ deviceId: 'dev-1', op: 'companion-restart', error: 'no answer' })
        : [];
    case 'update.start':
      return ev({ deviceId: 'dev-1', deviceName: 'Box A', version: null });
    case 'update.ended':
      return s.context.running.length > 0 ? ev({ deviceId: 'dev-1', outcome: 'done', version: '0.2.0' }) : [];
    case 'update.dismiss':
      return ev({ deviceId: 'dev-1' });
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([Object.keys(s.context.updates), s.context.running, s.context.checks['dev-1'] ?? null]);

describe('software registry (model-based paths)', () => {
  const model = createMachineTestModel(softwareMachine, { events: eventsFor, key, transitionCoverage: true });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches a running update, an ended one, answered and failed checks', () => {
    const ends = paths.map((p) => p.state.context);
    expect(ends.some((c) => c.running.includes('dev-1'))).toBe(true);
    expect(ends.some((c) => c.updates['dev-1'] && !c.running.includes('dev-1'))).toBe(true);
    expect(
      ends.some((c) => c.checks['dev-1']?.version?.result !== null && !!c.checks['dev-1']?.version),
    ).toBe(true);
    expect(ends.some((c) => c.checks['dev-1']?.['companion-restart']?.error === 'no answer')).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    const tasks: CheckTaskInput[] = [];
    const start = (driver: Driver) =>
      createActor(
        softwareMachine.provide({
          actors: {
            clientUpdate: fakeUpdate as never,
            checkTask: driver.callback<SoftwareEvent, CheckTaskInput>('checkTask', (input) => {
              tasks.push(input);
              return `${input.deviceId}:${input.op}`;
            }),
          },
        }),
        { clock: driver.clock },
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(0);
    expect(tasks.some((t) => t.op === 'companion-restart')).toBe(true);
  });

  it('an ended update reads the version again', async () => {
    const actor = createActor(
      softwareMachine.provide({
        actors: { clientUpdate: fakeUpdate as never, checkTask: fromCallback(() => undefined) },
      }),
    );
    actor.start();
    actor.send({ type: 'update.start', deviceId: 'dev-1', deviceName: 'Box A', version: null });
    actor.send({ type: 'update.start', deviceId: 'dev-1', deviceName: 'Box A', version: null });
    expect(actor.getSnapshot().context.spawned).toBe(1);
    actor.send({ type: 'update.ended', deviceId: 'dev-1', outcome: 'done', version: '0.2.0' });
    expect(actor.getSnapshot().context.checks['dev-1']?.version?.busy).toBe(true);
    expect(actor.getSnapshot().context.running).toEqual([]);
    actor.send({ type: 'software.reset' });
    expect(actor.getSnapshot().context.updates).toEqual({});
  });
});
