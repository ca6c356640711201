/**
 * The metrics feature's long-lived actor (systemId 'metrics'; issue 16 §1 "Metrics"): one metricsView actor
 * per device whose metrics tab is open. `metrics.open` { deviceId, range? } spawns it (showing `range` first) (id `metricsView-<deviceId>`)
 * or counts one more user; `metrics.close` { deviceId } counts one less and stops it at none. `metrics.reset`
 * (sign-out) stops them all.
 */
import { assign, enqueueActions, setup, type ActorRefFrom } from 'xstate';
import type { MetricsRange } from './metricsData';
import { metricsViewMachine } from './metricsView.machine';

export type MetricsViewRef = ActorRefFrom<typeof metricsViewMachine>;

export interface MetricsContext {
  /** Open views by device id, with how many tabs show each. */
  views: Record<string, { ref: MetricsViewRef; users: number }>;
}

export type MetricsEvent =
  | { type: 'metrics.open'; deviceId: string; range?: MetricsRange }
  | { type: 'metrics.close'; deviceId: string }
  | { type: 'metrics.reset' };

export const metricsMachine = setup({
  types: { context: {} as MetricsContext, events: {} as MetricsEvent },
  actors: { metricsView: metricsViewMachine },
  actions: {
    open: assign(({ context, event, spawn }) => {
      if (event.type !== 'metrics.open') return {};
      const view = context.views[event.deviceId];
      if (view) return { views: { ...context.views, [event.deviceId]: { ...view, users: view.users + 1 } } };
      const ref = spawn('metricsView', {
        id: `metricsView-${event.deviceId}`,
        input: { deviceId: event.deviceId, ...(event.range ? { range: event.range } : {}) },
      });
      return { views: { ...context.views, [event.deviceId]: { ref, users: 1 } } };
    }),
    close: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'metrics.close') return;
      const view = context.views[event.deviceId];
      if (!view) return;
      const views = { ...context.views };
      if (view.users > 1) views[event.deviceId] = { ...view, users: view.users - 1 };
      else {
        delete views[event.deviceId];
        enqueue.stopChild(view.ref);
      }
      enqueue.assign({ views });
    }),
    reset: enqueueActions(({ context, enqueue }) => {
      for (const view of Object.values(context.views)) enqueue.stopChild(view.ref);
      enqueue.assign({ views: {} });
    }),
  },
}).createMachine({
  id: 'metrics',
  context: { views: {} },
  on: {
    'metrics.open': { actions: 'open' },
    'metrics.close': { actions: 'close' },
    'metrics.reset': { actions: 'reset' },
  },
});
