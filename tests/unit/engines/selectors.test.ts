/**
 * The engines page's pure views (src/console/features/engines/selectors.ts) over snapshots of the real machines:
 * connected devices and their kind from the pool (§9 chipset id 0 = x86), engine rows through a check and an
 * image download (progress on the downloading row, Download only when not installed, Cancel only for the page's
 * own download), and the scores with the §9 choice.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import {
  deviceEnginesMachine,
  type DeviceEnginesEvent,
  type EngineCheckResult,
} from '../../../machines/engines/deviceEngines.machine';
import { deviceScoresMachine } from '../../../machines/engines/deviceScores.machine';
import type { UsagesLike } from '../../../machines/engines/engineView';
import {
  deviceEnginesToView,
  engineDevicesOf,
  scoresToView,
} from '../../../src/console/features/engines/selectors';

const IMAGE = 'nvcr.io/nvidia/deepstream:7.1-triton-multiarch';
const check = (deepstream: 'not_installed' | 'ready'): EngineCheckResult => ({
  engines: {
    backend: 'sim',
    kind: 'jetson',
    gpu: true,
    engines: [
      {
        name: 'sim',
        state: 'ready',
        version: '0.1.0',
        runs_in: 'simulated',
        image: null,
        image_size_mb: null,
        download_percent: null,
        execution_providers: [],
        execution_provider: null,
        message: null,
      },
      {
        name: 'deepstream',
        state: deepstream,
        version: deepstream === 'ready' ? '7.1' : null,
        runs_in: 'container',
        image: IMAGE,
        image_size_mb: 5600,
        download_percent: null,
        execution_providers: [],
        execution_provider: null,
        message: null,
      },
    ],
  },
  driver: { kind: 'x86Only' },
});

describe('engines page views', () => {
  it('lists connected devices only, with their kind from chipset_id', () => {
    const conn = (label: string, chipset_id: string) => ({
      getSnapshot: () => ({ context: { device: { label, chipset_id } } }),
    });
    expect(
      engineDevicesOf({
        context: {
          order: ['a', 'b', 'c'],
          status: { a: 'open', b: 'opening', c: 'open' },
          connections: { a: conn('Jetson', '3'), b: conn('Box B', '0'), c: conn('', '0') },
        },
      }),
    ).toEqual([
      { deviceId: 'a', name: 'Jetson', kind: 'jetson' },
      { deviceId: 'c', name: 'c', kind: 'x86' },
    ]);
    expect(engineDevicesOf(undefined)).toEqual([]);
  });

  it('turns a check and a download into rows with the right actions and progress', async () => {
    let checks = 0;
    let progress: ((e: DeviceEnginesEvent) => void) | null = null;
    const actor = createActor(
      deviceEnginesMachine.provide({
        actors: {
          checkEngines: fromPromise(async () => check(checks++ === 0 ? 'not_installed' : 'ready')),
          downloadImage: fromCallback<DeviceEnginesEvent, { deviceId: string; image: string }>(
            ({ sendBack }) => {
              progress = sendBack;
            },
          ),
          cancelDownload: fromPromise(async () => true),
        },
      }),
      { input: { deviceId: 'dev-1', kind: 'jetson' } },
    ).start();
    expect(deviceEnginesToView(actor.getSnapshot())).toMatchObject({ status: 'checking', loading: true });
    await waitFor(actor, (s) => s.value === 'ready');
    const ready = deviceEnginesToView(actor.getSnapshot());
    expect(ready).toMatchObject({ loading: false, backend: 'sim', gpu: true, driver: { kind: 'x86Only' } });
    expect(ready.engines.map((e) => [e.name, e.state, e.canDownload, e.canCancel, e.percent])).toEqual([
      ['sim', 'ready', false, false, null],
      ['deepstream', 'not_installed', true, false, null],
    ]);

    actor.send({ type: 'engines.download', image: IMAGE });
    progress!({ type: 'download.progress', percent: 42 });
    const downloading = deviceEnginesToView(actor.getSnapshot()).engines[1]!;
    expect(downloading).toMatchObject({
      state: 'downloading',
      percent: 42,
      canDownload: false,
      canCancel: true,
    });

    progress!({ type: 'download.done' });
    await waitFor(actor, (s) => s.value === 'ready');
    expect(deviceEnginesToView(actor.getSnapshot()).engines[1]).toMatchObject({
      state: 'ready',
      version: '7.1',
      percent: null,
      canDownload: false,
    });
    actor.stop();
  });

  it('shows the scores of the watched devices and the one §9 chooses', async () => {
    const usage = (cpu: number): UsagesLike => ({
      cpu,
      memory_used_mb: 0,
      memory_total_mb: 0,
      gpus: [],
      temperature_c: null,
    });
    const actor = createActor(
      deviceScoresMachine.provide({
        actors: {
          readUsages: fromPromise(async (): Promise<Record<string, UsagesLike | null>> => ({
            a: usage(10),
            b: usage(60),
            c: null,
          })),
        },
      }),
    ).start();
    expect(scoresToView(actor.getSnapshot())).toEqual({ scores: [], chosen: null });
    actor.send({ type: 'devices.set', deviceIds: ['a', 'b', 'c'] });
    await waitFor(actor, (s) => s.value === 'waiting');
    expect(scoresToView(actor.getSnapshot())).toEqual({
      scores: [
        { deviceId: 'a', score: 98 },
        { deviceId: 'b', score: 88 },
        { deviceId: 'c', score: null },
      ],
      chosen: 'b',
    });
    actor.stop();
  });
});
