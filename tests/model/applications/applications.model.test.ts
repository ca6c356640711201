/**
 * The applications list machine on model-based paths (§2 /applications; §3 data, lastUpdate, loading,
 * page_info, features; §7 POST applications): load, fail and reload; delete asked, cancelled, confirmed
 * (reload) or refused (error kept, toast).
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  applicationsMachine,
  type ApplicationsLoaded,
} from '../../../machines/applications/applications.machine';
import { sampleApplication } from './fixtures';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof applicationsMachine>;

const loaded: ApplicationsLoaded = {
  app: [sampleApplication],
  page_info: { page: 1, per_page: 1, total_items: 1, pages: 1 },
  features: [{ key: 'camera', kind: 'input', name: 'Camera', description: '', tasks: [] }],
};

function eventsFor(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'delete.ask':
      return [
        { type, id: 'a1' },
        { type, id: 'unknown' },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.loadApplications':
      return [{ type, output: loaded }] as unknown as EventObject[];
    case 'xstate.error.actor.loadApplications':
      return [{ type, error: new Error('Servers are unavailable.') }] as unknown as EventObject[];
    case 'xstate.done.actor.deleteApplication':
      return [{ type, output: { ok: true } }] as unknown as EventObject[];
    case 'xstate.error.actor.deleteApplication':
      return [{ type, error: new Error('Application not found.') }] as unknown as EventObject[];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.data.length,
    s.context.target?.id ?? null,
    s.context.error,
    s.context.lastUpdate !== null,
  ]);

describe('applications machine (model-based paths)', () => {
  it('follows every modelled path on the real machine', async () => {
    const paths = createMachineTestModel(applicationsMachine, { events: eventsFor, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (driver: Driver) =>
      createActor(
        applicationsMachine.provide({
          actors: {
            loadApplications: driver.promise('loadApplications'),
            deleteApplication: driver.promise('deleteApplication'),
          },
        }),
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['idle', 'loading', 'ready', 'failed', 'confirming', 'deleting'] as const)
      expect(ends.some((s) => s.matches(st))).toBe(true);
    expect(ends.some((s) => s.matches('ready') && s.context.error === 'Application not found.')).toBe(true);
    // Only a listed application can be asked to be deleted.
    for (const p of paths)
      for (const st of p.steps)
        if (st.state.matches('confirming')) expect(st.state.context.target?.id).toBe('a1');
  });
});
