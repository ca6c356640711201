/** The directory scan machine (§7 get-occupied-storage-of-directory, with progress): model-based paths. */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  directoryScanMachine,
  type DirectoryScanEvent,
  type DirectoryScanInput,
} from '../../../machines/storage/directoryScan.machine';
import type { DirectoryUsage } from '../../../src/protocol/storage';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof directoryScanMachine>;

const input: DirectoryScanInput = { deviceId: 'dev-1', path: '/var', scanId: 'scan-1', top: 5 };
const progress = (files: number) => ({
  scan_id: 'scan-1',
  files,
  dirs: files / 10,
  bytes: files * 4096,
  errors: 0,
});
const usage: DirectoryUsage = {
  ...progress(500),
  path: '/var',
  largest: [{ name: 'lib', bytes: 1_000_000 }],
  duration_ms: 1200,
};

function eventsFor(s: Snap, type: string): object[] | undefined {
  switch (type) {
    case 'scan.progress':
      // Two progress messages at most in a path, so the graph stays finite.
      return s.context.progress?.files === 200
        ? []
        : [{ type, progress: progress(s.context.progress ? 200 : 100) }];
    case 'scan.done':
      return [{ type, usage }];
    case 'scan.failed':
      return [
        { type, error: { code: 'not_found', message: 'No such folder: /var' } },
        { type, error: { code: 'canceled', message: 'The scan was canceled' } },
      ];
    case 'xstate.error.actor.cancelScan':
      return [{ type, error: Object.assign(new Error('link closed'), { code: 'link_closed' }) }];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.status,
    s.context.progress?.files ?? null,
    s.context.usage?.bytes ?? null,
    s.context.error,
  ]);

describe('directory scan (model-based paths)', () => {
  const model = createMachineTestModel(directoryScanMachine, {
    events: (s, type) => eventsFor(s, type) as EventObject[] | undefined,
    key,
    input,
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches done with the usage, failed with the error, and canceled both ways', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.matches('done') && s.context.usage?.largest[0]?.name === 'lib')).toBe(true);
    expect(ends.some((s) => s.matches('failed') && s.context.error?.code === 'not_found')).toBe(true);
    expect(
      paths.some((p) => p.state.matches('canceled') && p.steps.some((st) => st.event.type === 'scan.cancel')),
    ).toBe(true);
    expect(
      paths.some(
        (p) => p.state.matches('canceled') && !p.steps.some((st) => st.event.type === 'scan.cancel'),
      ),
    ).toBe(true);
    // Progress only grows, and done shows the final totals.
    for (const s of ends.filter((e) => e.matches('done'))) expect(s.context.progress?.files).toBe(500);
  });

  it('follows every modelled path on the real machine', async () => {
    const start = (driver: Driver) =>
      createActor(
        directoryScanMachine.provide({
          actors: {
            scan: driver.callback<DirectoryScanEvent, DirectoryScanInput>('scan'),
            cancelScan: driver.promise<unknown, DirectoryScanInput>('cancelScan'),
          },
        }),
        { input, clock: driver.clock },
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
  });
});
