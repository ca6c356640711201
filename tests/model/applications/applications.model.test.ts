/**
 * The applications list machine on model-based paths (§2 /applications; §3 data, lastUpdate, loading,
 * page_info, features; §7 POST applications): load, fail and reload; delete asked, cancelled, confirmed
 * (reload) or refused (error kept, toast). The shared list machine's harness (tests/model/listHarness.ts).
 */
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import {
  applicationsMachine,
  type ApplicationsLoaded,
} from '../../../machines/applications/applications.machine';
import { sampleApplication } from './fixtures';
import { listEvents, runListModel, type ListSamples } from '../listHarness';

type Snap = SnapshotFrom<typeof applicationsMachine>;

const loaded: ApplicationsLoaded = {
  app: [sampleApplication],
  page_info: { page: 1, per_page: 1, total_items: 1, pages: 1 },
  features: [{ key: 'camera', kind: 'input', name: 'Camera', description: '', tasks: [] }],
};

const shared: ListSamples = {
  load: { src: 'loadApplications', output: loaded },
  remove: { src: 'deleteApplication', error: 'Application not found.' },
  listedId: 'a1',
};

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
    const { paths, ends } = await runListModel({
      machine: applicationsMachine,
      actors: ['loadApplications', 'deleteApplication'],
      events: (_s, type) => listEvents(shared, type),
      key,
      states: ['idle', 'loading', 'ready', 'failed', 'confirming', 'deleting'],
    });
    expect(ends.some((s) => s.matches('ready') && s.context.error === 'Application not found.')).toBe(true);
    // Only a listed application can be asked to be deleted.
    for (const p of paths)
      for (const st of p.steps)
        if (st.state.matches('confirming')) expect(st.state.context.target?.id).toBe('a1');
  });
});
