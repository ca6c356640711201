import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { containerLogsMachine, type ReadLogsInput } from '../../../machines/containers/containerLogs.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';
import { done, fail } from './fixtures';

type Snap = SnapshotFrom<typeof containerLogsMachine>;

/** Sample events: open container c1 (or c2 once c1 is shown), reads answer lines or fail. */
function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'logs.open':
      return [
        { type, deviceId: 'dev-1', containerId: 'c1', title: 'lab-1' },
        ...(s.context.containerId === 'c1'
          ? [{ type, deviceId: 'dev-1', containerId: 'c2', title: 'lab-2' }]
          : []),
      ] as unknown as EventObject[];
    case 'xstate.done.actor.readLogs':
      return [done('readLogs', [`${s.context.containerId} line`])];
    case 'xstate.error.actor.readLogs':
      return [fail('readLogs', 'timeout', 'no answer')];
    default:
      return undefined;
  }
}

const key = (s: Snap) => JSON.stringify([s.value, s.context.containerId, s.context.lines, s.context.error]);

describe('container log (model-based paths)', () => {
  const model = createMachineTestModel(containerLogsMachine, {
    events: eventsFor,
    key,
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches reading, shown, clearing and the cleared log', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.matches('clearing') && s.context.lines.length > 0)).toBe(true);
    expect(ends.some((s) => s.matches({ open: 'shown' }) && s.context.error === 'no answer')).toBe(true);
    // §9: every path through `clearing` whose 3 s passed ends with no lines.
    const cleared = paths.filter((p) =>
      p.steps.some((step) => step.event.type.startsWith('xstate.after.clear')),
    );
    expect(cleared.length).toBeGreaterThan(0);
    for (const p of cleared) {
      if (p.state.matches('closed')) expect(p.state.context).toMatchObject({ lines: [], containerId: null });
    }
  });

  it('follows every modelled path on the real machine (refresh and clear timers on a simulated clock)', async () => {
    const start = (driver: Driver) =>
      createActor(
        containerLogsMachine.provide({
          actors: { readLogs: driver.promise<string[], ReadLogsInput>('readLogs') },
        }),
        {
          clock: driver.clock,
        },
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
  });
});
