/**
 * The per-device engines machine on model-based paths (xstate/graph over the real machine): the check (engines
 * and the GPU driver), a download with progress that never goes back, its failure and its cancel, a download
 * started elsewhere followed until it ends, a failed check and a refresh.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  deviceEnginesMachine,
  type DeviceEnginesEvent,
  type DeviceEnginesInput,
  type EngineCheckResult,
} from '../../../machines/engines/deviceEngines.machine';
import { createMachineTestModel, runPaths } from '../harness';

type Snap = SnapshotFrom<typeof deviceEnginesMachine>;
const IMAGE = 'nvcr.io/nvidia/deepstream:7.1-triton-multiarch';
const input: DeviceEnginesInput = { deviceId: 'dev-1', kind: 'x86' };

const check = (state: 'not_installed' | 'downloading' | 'ready'): EngineCheckResult => ({
  engines: {
    backend: 'sim',
    kind: 'x86',
    gpu: true,
    engines: [
      {
        name: 'deepstream',
        state,
        version: null,
        runs_in: 'container',
        image: IMAGE,
        image_size_mb: 5600,
        download_percent: state === 'downloading' ? 40 : null,
        execution_providers: [],
        execution_provider: null,
        message: null,
      },
    ],
  },
  driver: { kind: 'version', driver_version: '550.54.15', gpus: ['RTX'] },
});

function eventsFor(s: Snap, type: string): Array<EventObject & Record<string, unknown>> | undefined {
  switch (type) {
    case 'xstate.done.actor.checkEngines':
      return [
        { type, output: check('not_installed') },
        { type, output: check('downloading') },
      ];
    case 'xstate.error.actor.checkEngines':
      return [{ type, error: new Error('Could not get an answer from the device') }];
    case 'engines.download':
      return [{ type, image: IMAGE }];
    case 'download.progress':
      // 30 then a stale 20: the bar stays at 30.
      return s.context.percent === 0
        ? [{ type, percent: 30 }]
        : s.context.percent === 30
          ? [{ type, percent: 20 }]
          : [];
    case 'download.failed':
      return [{ type, error: 'manifest unknown' }];
    case 'xstate.done.actor.cancelDownload':
      return [{ type, output: true }];
    case 'xstate.error.actor.cancelDownload':
      return [{ type, error: new Error('link closed') }];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.image,
    s.context.percent,
    s.context.error,
    s.context.check?.engines.engines[0]?.state ?? null,
  ]);

describe('device engines machine (model-based paths)', () => {
  const model = createMachineTestModel(deviceEnginesMachine, {
    events: eventsFor,
    key,
    input,
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches every state, and a stale progress value does not move the bar back', () => {
    const ends = paths.map((p) => p.state);
    for (const v of ['checking', 'ready', 'following', 'downloading', 'canceling', 'failed']) {
      expect(ends.map((s) => s.value)).toContain(v);
    }
    const progressed = paths.filter(
      (p) => p.steps.filter((st) => st.event.type === 'download.progress').length === 2,
    );
    expect(progressed.length).toBeGreaterThan(0);
    for (const p of progressed) expect(p.state.context.percent).toBe(30);
    expect(ends.some((s) => s.value === 'ready' && s.context.error === 'manifest unknown')).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    const steps = await runPaths(
      paths,
      (driver) => {
        const download = driver.callback<DeviceEnginesEvent, { deviceId: string; image: string }>(
          'downloadImage',
        );
        return createActor(
          deviceEnginesMachine.provide({
            actors: {
              checkEngines: driver.promise<EngineCheckResult, DeviceEnginesInput>('checkEngines'),
              downloadImage: download,
              cancelDownload: driver.promise<boolean, { deviceId: string; image: string }>('cancelDownload'),
            },
          }),
          { input, clock: driver.clock },
        ).start();
      },
      key,
    );
    expect(steps).toBeGreaterThan(0);
  });
});
