/**
 * The records screen machine on model-based paths (xstate/graph over the real machine): a device chosen
 * (connected or not), its list loaded or failing, a removal confirmed, cancelled, failing, and refused with
 * the §8 text when the device is not connected.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { NOT_CONNECTED_FOR_REMOVAL, recordsMachine } from '../../../machines/records/records.machine';
import type { RecordsListReply } from '../../../src/protocol/records';
import { createMachineTestModel, runPaths } from '../harness';

type Snap = SnapshotFrom<typeof recordsMachine>;

const LIST: RecordsListReply = {
  items: [{ name: 'a.webm', size: 10, created: '2026-11-24T07:00:00.000Z', camera: null }],
  total: 1,
  page: 1,
  page_size: 50,
};

function eventsFor(s: Snap, type: string): Array<EventObject & Record<string, unknown>> | undefined {
  switch (type) {
    case 'device.select':
      return s.value === 'noDevice'
        ? [
            { type, deviceId: 'dev-1', connected: true },
            { type, deviceId: 'dev-1', connected: false },
          ]
        : [];
    case 'device.connection':
      return s.value === 'list' || s.value === 'confirming' || s.value === 'offline'
        ? [{ type, connected: !s.context.connected }]
        : [];
    case 'remove.ask':
      return [{ type, name: 'a.webm' }];
    case 'xstate.done.actor.listRecords':
      return [{ type, output: LIST }];
    case 'xstate.done.actor.removeRecord':
      return [{ type, output: { removed: true } }];
    case 'xstate.error.actor.listRecords':
    case 'xstate.error.actor.removeRecord':
      return [{ type, error: new Error('Device did not answer') }];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([s.value, s.context.connected, s.context.items.length, s.context.error, s.context.target]);

describe('records screen machine (model-based paths)', () => {
  const model = createMachineTestModel(recordsMachine, { events: eventsFor, key, transitionCoverage: true });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches the list, the offline state, a failure and the §8 refusal', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.value === 'list' && s.context.items.length === 1)).toBe(true);
    expect(ends.some((s) => s.value === 'offline')).toBe(true);
    expect(ends.some((s) => s.value === 'failed')).toBe(true);
    expect(ends.some((s) => s.value === 'list' && s.context.error === NOT_CONNECTED_FOR_REMOVAL)).toBe(true);
    expect(ends.some((s) => s.value === 'removing')).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    const steps = await runPaths(
      paths,
      (driver) => {
        const remove = driver.promise<unknown, { deviceId: string; name: string }>('removeRecord');
        return createActor(
          recordsMachine.provide({
            actors: {
              listRecords: driver.promise<RecordsListReply, { deviceId: string }>('listRecords'),
              removeRecord: remove,
            },
          }),
          { clock: driver.clock },
        ).start();
      },
      key,
    );
    expect(steps).toBeGreaterThan(0);
  });
});
