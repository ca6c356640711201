/**
 * The /remote-downloads machine on model-based paths: opened, read (or failing, keeping the last list),
 * read again every REMOTE_DOWNLOADS_POLL_MS, an entry forgotten, closed.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { remoteDownloadsMachine } from '../../../machines/models/remoteDownloads.machine';
import type { ModelDeployment } from '../../../src/protocol/models';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof remoteDownloadsMachine>;

const DEPLOYMENT: ModelDeployment = {
  id: '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11',
  device_id: 'dev-1',
  device_label: 'Box',
  model_id: 'M0123456789A',
  model_name: 'people',
  version_id: 'v',
  version: 1,
  file_name: 'a.onnx',
  state: 'installed',
  bytes_done: 10,
  bytes_total: 10,
  error: null,
  created_at: '2026-11-26T10:00:00.000Z',
  updated_at: '2026-11-26T10:00:00.000Z',
};

function eventsFor(s: Snap, type: string): Array<EventObject & Record<string, unknown>> | undefined {
  switch (type) {
    case 'deployment.forget':
      return [{ type, id: DEPLOYMENT.id }];
    case 'xstate.done.actor.fetchDeployments':
      return [{ type, output: [DEPLOYMENT] }];
    case 'xstate.done.actor.forgetDeployment':
      return [{ type, output: { ok: true } }];
    case 'xstate.error.actor.fetchDeployments':
    case 'xstate.error.actor.forgetDeployment':
      return [{ type, error: new Error('Servers are unavailable.') }];
    default:
      return undefined;
  }
}

const key = (s: Snap) => JSON.stringify([s.value, s.context.deployments.length, s.context.error]);

describe('remote downloads machine (model-based paths)', () => {
  const model = createMachineTestModel(remoteDownloadsMachine, {
    events: eventsFor,
    key,
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches the list, a failed read, a forget and a new read after the poll delay', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.matches({ open: 'waiting' }) && s.context.deployments.length === 1)).toBe(true);
    expect(ends.some((s) => s.matches({ open: 'waiting' }) && s.context.error !== null)).toBe(true);
    expect(ends.some((s) => s.matches({ open: 'forgetting' }))).toBe(true);
    expect(paths.some((p) => p.steps.some((st) => st.event.type.startsWith('xstate.after.')))).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    const start = (driver: Driver) =>
      createActor(
        remoteDownloadsMachine.provide({
          actors: {
            fetchDeployments: driver.promise<ModelDeployment[], unknown>('fetchDeployments'),
            forgetDeployment: driver.promise<unknown, { id: string }>('forgetDeployment'),
          },
        }),
        { clock: driver.clock },
      ).start();
    expect(await runPaths(paths, start, key)).toBeGreaterThan(0);
  });
});
