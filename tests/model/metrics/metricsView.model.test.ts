/**
 * Model-based paths (xstate/graph) over the real metricsView machine: history loading for each range,
 * failure and retry, live polling on a simulated clock (paused while hidden, off and on), and the saving
 * settings (checked, saved, refused by the form or by the device).
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import type { HistoryData, SaveSettings, UsagesLike } from '../../../machines/metrics/metricsData';
import { metricsViewMachine, type LoadHistoryInput } from '../../../machines/metrics/metricsView.machine';
import { done, fail } from '../containers/fixtures';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof metricsViewMachine>;
const NOW = 1_800_000_000_000;
const input = { deviceId: 'dev-1', now: () => NOW };

const FINE: SaveSettings = { save: true, interval_s: 5, retention_h: 24 };
const TOO_MANY: SaveSettings = { save: true, interval_s: 1, retention_h: 72 };

const history = (range: string): HistoryData => ({
  from: NOW - 3_600_000,
  to: NOW - (range === '1h' ? 0 : 1),
  bucketMs: 3_600,
  times: [NOW - 3_600_000],
  series: [{ key: 'cpu', unit: 'percent', gpu: null, gpu_name: null }],
  columns: { cpu: { min: [1], avg: [2], max: [3] } },
  settings: { save: true, interval_s: 1, retention_h: 24 },
  samples: 86_400,
});
const usages: UsagesLike = { cpu: 20, memory_used_mb: 1, memory_total_mb: 2, gpus: [], temperature_c: 50 };

/**
 * Sample events. To keep the paths few, the regions are driven one at a time: the range and live events
 * while no settings were saved, the settings form once the history is ready and live reading is off.
 */
function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const settingsIdle = s.matches({ settings: 'idle' });
  if (
    (type.startsWith('metrics.') && !settingsIdle) ||
    (type === 'settings.save' && !(s.matches({ history: 'ready' }) && s.matches({ live: 'off' })))
  ) {
    return [];
  }
  switch (type) {
    case 'metrics.range':
      return (['1h', '6h', '24h'] as const).map((range) => ({ type, range }));
    case 'metrics.live':
      return [{ type, on: s.matches({ live: 'off' }) }] as unknown as EventObject[];
    case 'metrics.visible':
      return [{ type, visible: s.matches({ live: { on: 'paused' } }) }] as unknown as EventObject[];
    case 'settings.save':
      return [
        { type, settings: FINE },
        { type, settings: TOO_MANY },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.loadHistory':
      return [done('loadHistory', history(s.context.range))];
    case 'xstate.error.actor.loadHistory':
      return [fail('loadHistory', 'timeout', 'no answer')];
    case 'xstate.done.actor.readUsages':
      return [done('readUsages', usages)];
    case 'xstate.error.actor.readUsages':
      return [fail('readUsages', 'link_closed', 'not connected')];
    case 'xstate.done.actor.saveSettings':
      return [done('saveSettings', FINE)];
    case 'xstate.error.actor.saveSettings':
      return [fail('saveSettings', 'too_many_samples', 'refused')];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.range,
    s.context.history?.to ?? null,
    s.context.historyError,
    Math.min(2, s.context.live.length),
    s.context.liveError,
    s.context.settings,
    s.context.settingsProblem,
    s.context.settingsError,
  ]);

describe('metrics view (model-based paths)', () => {
  const model = createMachineTestModel(metricsViewMachine, { events: eventsFor, key, input });
  const paths = model.getShortestPaths();

  it('reaches every region’s states', () => {
    const ends = model.getShortestPaths({ allowDuplicatePaths: true }).map((p) => p.state);
    for (const range of ['1h', '6h', '24h']) {
      expect(ends.some((s) => s.matches({ history: 'ready' }) && s.context.range === range)).toBe(true);
    }
    expect(ends.some((s) => s.matches({ history: 'failed' }) && s.context.historyError === 'no answer')).toBe(
      true,
    );
    expect(ends.some((s) => s.matches({ live: { on: 'paused' } }))).toBe(true);
    expect(ends.some((s) => s.matches({ live: 'off' }) && s.context.live.length > 0)).toBe(true);
    expect(ends.some((s) => s.context.liveError === 'not connected')).toBe(true);
    expect(
      ends.some(
        (s) => s.matches({ settings: 'saved' }) && s.context.settings?.interval_s === FINE.interval_s,
      ),
    ).toBe(true);
    expect(
      ends.some((s) => s.matches({ settings: 'invalid' }) && s.context.settingsProblem === 'tooMany'),
    ).toBe(true);
    expect(ends.some((s) => s.matches({ settings: 'failed' }) && s.context.settingsError === 'refused')).toBe(
      true,
    );
    // A loaded history brings the device's settings.
    for (const s of ends.filter((e) => e.context.history && e.matches({ settings: 'idle' }))) {
      expect(s.context.settings).toEqual(s.context.history!.settings);
    }
  });

  it('follows every modelled path on the real machine (live polling on a simulated clock)', async () => {
    const start = (driver: Driver) =>
      createActor(
        metricsViewMachine.provide({
          actors: {
            loadHistory: driver.promise<HistoryData, LoadHistoryInput>('loadHistory'),
            readUsages: driver.promise<UsagesLike, { deviceId: string }>('readUsages'),
            saveSettings: driver.promise<SaveSettings, { deviceId: string; settings: SaveSettings }>(
              'saveSettings',
            ),
          },
        }),
        { input, clock: driver.clock },
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
  });
});
