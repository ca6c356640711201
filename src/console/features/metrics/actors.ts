/**
 * The metrics feature's side effects (machines/metrics/*.machine.ts): the metricsView actor's history
 * (get-metrics-info with its chunks), live usages (get-usages) and saving settings
 * (change-save-metrics-info). Loaded in its own chunk after sign-in (ConsoleFeature.loadActors).
 */
import { fromPromise } from 'xstate';
import type { HistoryData, SaveSettings, UsagesLike } from '../../../../machines/metrics/metricsData';
import { metricsMachine } from '../../../../machines/metrics/metrics.machine';
import { metricsViewMachine, type LoadHistoryInput } from '../../../../machines/metrics/metricsView.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';
import { metricsCommands } from './api';

/**
 * Loads the Metrics tab's chunk (uPlot, the texts) when the browser is idle after sign-in, so opening the
 * tab does not wait for it (bench: first chart drawn ≤ 300 ms).
 */
function prefetchTab(): void {
  if (typeof window === 'undefined') return;
  const load = () => void import('./screens/MetricsTab').catch(() => undefined);
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(load, { timeout: 1_000 });
  else setTimeout(load, 1_000);
}

export function metricsActors({ peerLink }: Platform): FeatureActor[] {
  prefetchTab();
  const commands = metricsCommands(peerLink.callDevice.bind(peerLink));
  const metricsView = metricsViewMachine.provide({
    actors: {
      loadHistory: fromPromise<HistoryData, LoadHistoryInput>(({ input }) =>
        commands.history(input.deviceId, input.from, input.to, input.maxPoints),
      ),
      readUsages: fromPromise<UsagesLike, { deviceId: string }>(({ input }) =>
        commands.usages(input.deviceId),
      ),
      saveSettings: fromPromise<SaveSettings, { deviceId: string; settings: SaveSettings }>(({ input }) =>
        commands.saveSettings(input.deviceId, input.settings),
      ),
    },
  });
  return [
    featureActor({
      systemId: SYSTEM_IDS.metrics,
      logic: metricsMachine.provide({ actors: { metricsView } }),
      onSignOut: [{ type: 'metrics.reset' }],
    }),
  ];
}
