/**
 * The device scores machine on model-based paths: devices set → usage read → waiting → read again after
 * SCORE_POLL_MS; the same list again changes nothing; no devices → idle; a device that did not answer has no
 * usage; sign-out resets.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { deviceScoresMachine } from '../../../machines/engines/deviceScores.machine';
import type { UsagesLike } from '../../../machines/engines/engineView';
import { createMachineTestModel, runPaths } from '../harness';

type Snap = SnapshotFrom<typeof deviceScoresMachine>;
const U: UsagesLike = {
  cpu: 50,
  memory_used_mb: 1,
  memory_total_mb: 2,
  gpus: [{ name: 'g', utilisation: 10, memory_used_mb: 1, memory_total_mb: 4 }],
  temperature_c: null,
};

function eventsFor(s: Snap, type: string): Array<EventObject & Record<string, unknown>> | undefined {
  switch (type) {
    case 'devices.set':
      return s.context.deviceIds.length === 0
        ? [{ type, deviceIds: ['a', 'b'] }]
        : [
            { type, deviceIds: ['a', 'b'] },
            { type, deviceIds: [] },
            { type, deviceIds: ['b'] },
          ];
    case 'xstate.done.actor.readUsages':
      return [{ type, output: { a: U, b: null } }];
    case 'xstate.error.actor.readUsages':
      return [{ type, error: new Error('unexpected') }];
    default:
      return undefined;
  }
}

const key = (s: Snap) => JSON.stringify([s.value, s.context.deviceIds, s.context.usages]);

describe('device scores machine (model-based paths)', () => {
  const model = createMachineTestModel(deviceScoresMachine, {
    events: eventsFor,
    key,
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reads, waits, reads again, keeps the last usage of a device still watched', () => {
    const ends = paths.map((p) => p.state);
    expect(
      ends.some(
        (s) => s.value === 'waiting' && s.context.usages.a?.cpu === 50 && s.context.usages.b === null,
      ),
    ).toBe(true);
    expect(ends.some((s) => s.value === 'reading' && s.context.deviceIds.join() === 'b')).toBe(true);
    expect(ends.some((s) => s.value === 'idle' && s.context.deviceIds.length === 0)).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    const steps = await runPaths(
      paths,
      (driver) =>
        createActor(
          deviceScoresMachine.provide({
            actors: {
              readUsages: driver.promise<Record<string, UsagesLike | null>, { deviceIds: string[] }>(
                'readUsages',
              ),
            },
          }),
          { clock: driver.clock },
        ).start(),
      key,
    );
    expect(steps).toBeGreaterThan(0);
  });
});
