/**
 * The model page machine on model-based paths: a model loaded or failing, a version deleted (confirmed,
 * cancelled, failing), and a deploy: the server's deployment created (or refused), the device's progress,
 * installed, failed or canceled — each ending with the page reloaded and the deploy's last state kept.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { modelDetailMachine, type RunDeployEvent } from '../../../machines/models/modelDetail.machine';
import type { ModelDeployment, ModelDetail } from '../../../src/protocol/models';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof modelDetailMachine>;

const DETAIL: ModelDetail = {
  id: 'M0123456789A',
  name: 'people',
  task: 'object-detection',
  format: 'onnx',
  classes: ['person'],
  input_width: 640,
  input_height: 640,
  description: '',
  versions: 1,
  latest: null,
  size: 100,
  created_at: '2026-11-26T10:00:00.000Z',
  updated_at: '2026-11-26T10:00:00.000Z',
  version_list: [],
  deployments: [],
};
const DEPLOYMENT: ModelDeployment = {
  id: '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11',
  device_id: 'dev-1',
  device_label: 'Box',
  model_id: DETAIL.id,
  model_name: 'people',
  version_id: 'v',
  version: 1,
  file_name: 'a.onnx',
  state: 'queued',
  bytes_done: 0,
  bytes_total: 100,
  error: null,
  created_at: '2026-11-26T10:00:00.000Z',
  updated_at: '2026-11-26T10:00:00.000Z',
};

function eventsFor(s: Snap, type: string): Array<EventObject & Record<string, unknown>> | undefined {
  switch (type) {
    case 'detail.open':
      return s.matches('idle') ? [{ type, id: DETAIL.id }] : [];
    case 'version.delete.ask':
      return [{ type, version: 1 }];
    case 'deploy.start':
      return [{ type, version: 1, deviceId: 'dev-1' }];
    case 'deploy.progress':
      return s.context.deploy?.bytesDone === 0
        ? [
            {
              type,
              download: {
                deployment_id: DEPLOYMENT.id,
                model_id: DETAIL.id,
                model_name: 'people',
                version: 1,
                state: 'downloading',
                bytes_done: 40,
                bytes_total: 100,
                error: null,
                updated_at: 1,
              },
            },
          ]
        : [];
    case 'deploy.failed':
      return [{ type, error: 'The download broke off' }];
    case 'xstate.done.actor.fetchModel':
      return [{ type, output: DETAIL }];
    case 'xstate.done.actor.deleteVersion':
      return [{ type, output: { ok: true } }];
    case 'xstate.done.actor.createDeployment':
      return [{ type, output: DEPLOYMENT }];
    case 'xstate.error.actor.fetchModel':
    case 'xstate.error.actor.deleteVersion':
    case 'xstate.error.actor.createDeployment':
      return [{ type, error: new Error('Not found') }];
    case 'detail.reset':
    case 'refresh':
      return s.matches('shown') || s.matches('failed') ? [{ type }] : [];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.model !== null,
    s.context.error,
    s.context.targetVersion,
    s.context.deploy && [s.context.deploy.state, s.context.deploy.bytesDone, s.context.deploy.error],
  ]);

describe('model page machine (model-based paths)', () => {
  const model = createMachineTestModel(modelDetailMachine, {
    events: eventsFor,
    key,
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches a deploy in progress, installed, failed and canceled, and a version deletion', () => {
    const ends = paths.map((p) => p.state);
    const deployState = (s: Snap) => s.context.deploy?.state;
    expect(ends.some((s) => s.matches({ shown: 'downloading' }) && s.context.deploy?.bytesDone === 40)).toBe(
      true,
    );
    expect(ends.some((s) => deployState(s) === 'installed' && s.context.deploy?.bytesDone === 100)).toBe(
      true,
    );
    expect(
      ends.some((s) => deployState(s) === 'failed' && s.context.deploy?.error === 'The download broke off'),
    ).toBe(true);
    expect(ends.some((s) => deployState(s) === 'canceled')).toBe(true);
    expect(ends.some((s) => s.matches({ shown: 'deleting' }))).toBe(true);
    expect(ends.some((s) => s.matches('failed'))).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    const start = (driver: Driver) =>
      createActor(
        modelDetailMachine.provide({
          actors: {
            fetchModel: driver.promise<ModelDetail, { id: string }>('fetchModel'),
            deleteVersion: driver.promise<unknown, { id: string; version: number }>('deleteVersion'),
            createDeployment: driver.promise<
              ModelDeployment,
              { id: string; version: number; deviceId: string }
            >('createDeployment'),
            runDeploy: driver.callback<RunDeployEvent, { deviceId: string; deploymentId: string }>(
              'runDeploy',
            ),
          },
        }),
        { clock: driver.clock },
      ).start();
    expect(await runPaths(paths, start, key)).toBeGreaterThan(0);
  });
});
