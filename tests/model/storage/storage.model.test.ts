/**
 * The storage actor (systemId 'storage'; §7 "Storage"): overview load, scans spawned per request, delete of
 * product data with confirmation — model-based paths on the real machine.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  directoryScanMachine,
  type DirectoryScanEvent,
  type DirectoryScanInput,
} from '../../../machines/storage/directoryScan.machine';
import {
  storageMachine,
  type DeletedData,
  type StorageOverview,
} from '../../../machines/storage/storage.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof storageMachine>;

const overview = (used: number): StorageOverview => ({
  totals: {
    filesystems: [
      { mount: '/', device: '/dev/mmcblk0p1', type: 'ext4', size: 1000, used, free: 1000 - used },
    ],
    total: { size: 1000, used, free: 1000 - used },
  },
  images: [],
  productData: { root: '/pd', folders: [] },
});
const deleted: DeletedData = { path: '/pd/recordings', freed: 300, files: 4 };
const fail = (id: string, code: string, message: string) =>
  ({ type: `xstate.error.actor.${id}`, error: Object.assign(new Error(message), { code }) }) as EventObject;

function eventsFor(s: Snap, type: string): object[] | undefined {
  switch (type) {
    case 'storage.open':
      // A second device only from a quiet first one, so the graph stays small.
      return s.context.deviceId === 'dev-2' || s.context.lastDeleted || s.context.deleteError
        ? []
        : [{ type, deviceId: s.context.deviceId ? 'dev-2' : 'dev-1' }];
    case 'storage.scan':
      return s.context.scans.length > 0 ? [] : [{ type, path: '/' }];
    case 'storage.cancelScan':
      return [{ type, scanId: s.context.scans[0]?.id ?? 'none' }];
    case 'storage.delete':
      return [{ type, path: '/pd/recordings' }];
    case 'xstate.done.actor.loadOverview':
      return [{ type, output: overview(s.context.lastDeleted ? 400 : 700) }];
    case 'xstate.error.actor.loadOverview':
      return [fail('loadOverview', 'timeout', 'no answer')];
    case 'xstate.done.actor.deleteProductData':
      return [{ type, output: deleted }];
    case 'xstate.error.actor.deleteProductData':
      return [fail('deleteProductData', 'forbidden', 'Only product data can be deleted')];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.deviceId,
    s.context.overview?.totals.total.used ?? null,
    s.context.loadError?.code ?? null,
    s.context.scans.length,
    s.context.pendingDelete,
    s.context.deleteError?.code ?? null,
    s.context.lastDeleted?.freed ?? null,
  ]);

describe('storage actor (model-based paths)', () => {
  const model = createMachineTestModel(storageMachine, {
    events: (s, type) => eventsFor(s, type) as EventObject[] | undefined,
    key,
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('deletes only after confirmation, and loads the overview again after a delete', () => {
    for (const p of paths) {
      const types = p.steps.map((st) => st.event.type);
      const done = types.indexOf('xstate.done.actor.deleteProductData');
      if (done >= 0) {
        expect(types.slice(0, done)).toContain('storage.delete.confirm');
      }
    }
    const afterDelete = paths.filter((p) => p.state.context.lastDeleted && p.state.hasTag('loading'));
    expect(afterDelete.length).toBeGreaterThan(0);
    expect(paths.some((p) => p.state.context.deleteError?.code === 'forbidden')).toBe(true);
    expect(
      paths.some((p) => p.state.hasTag('confirming') && p.steps.at(-1)?.event.type === 'storage.delete'),
    ).toBe(true);
    // Canceling the confirmation deletes nothing.
    for (const p of paths.filter((q) => q.steps.at(-1)?.event.type === 'storage.delete.cancel')) {
      expect(p.state.context.pendingDelete).toBeNull();
      expect(p.state.context.lastDeleted).toEqual(p.steps.at(-2)?.state.context.lastDeleted);
    }
    // Another device, close and sign-out forget what was shown.
    for (const p of paths.filter((q) =>
      ['storage.close', 'storage.reset'].includes(q.steps.at(-1)?.event.type ?? ''),
    )) {
      expect(p.state.context).toMatchObject({ deviceId: null, overview: null, scans: [] });
    }
  });

  it('follows every modelled path on the real machine, with its scans spawned and canceled', async () => {
    const canceled: string[] = [];
    const start = (driver: Driver) =>
      createActor(
        storageMachine.provide({
          actors: {
            loadOverview: driver.promise<StorageOverview, { deviceId: string }>('loadOverview'),
            deleteProductData: driver.promise<DeletedData, { deviceId: string; path: string }>(
              'deleteProductData',
            ),
            directoryScan: directoryScanMachine.provide({
              actors: {
                scan: driver.callback<DirectoryScanEvent, DirectoryScanInput>('scan', (i) => i.scanId),
                cancelScan: driver.promise<unknown, DirectoryScanInput>('cancelScan', (i) => {
                  canceled.push(i.scanId);
                  return i.scanId;
                }),
              },
            }) as never,
          },
        }),
        { clock: driver.clock },
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    // A scan running when the user leaves (another device, close, sign-out) or cancels it is told to stop.
    expect(canceled.length).toBeGreaterThan(0);
    expect(canceled.every((id) => id.startsWith('scan-1-dev-'))).toBe(true);
  });
});
