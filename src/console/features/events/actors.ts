/**
 * The events feature's actors: the timeline machine (systemId 'events': GET events, POST events/review) and
 * the alarm dashboard machine (systemId 'alarmDashboard': GET events/summary over the chosen range).
 */
import { fromPromise } from 'xstate';
import { alarmDashboardMachine } from '../../../../machines/events/alarmDashboard.machine';
import { eventsMachine } from '../../../../machines/events/events.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';

export function eventsActors({ http }: Platform): FeatureActor[] {
  return [
    featureActor({
      systemId: SYSTEM_IDS.events,
      logic: eventsMachine.provide({
        actors: {
          loadEvents: fromPromise(({ input, signal }) => http.call('events.list', { query: input, signal })),
          reviewEvents: fromPromise(({ input, signal }) =>
            http.call('events.review', { body: input, signal }),
          ),
        },
      }),
      onSignOut: [{ type: 'events.reset' }],
    }),
    featureActor({
      systemId: SYSTEM_IDS.alarmDashboard,
      logic: alarmDashboardMachine.provide({
        actors: {
          loadSummary: fromPromise(({ input, signal }) => {
            const to = new Date();
            const from = new Date(to.getTime() - input.hours * 3_600_000);
            return http.call('events.summary', {
              query: { from: from.toISOString(), to: to.toISOString() },
              signal,
            });
          }),
        },
      }),
      onSignOut: [{ type: 'dashboard.reset' }],
    }),
  ];
}
