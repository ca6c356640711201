/**
 * The alarm dashboard — issue 11 `/alarm-dashboard`: counts per alarm and severity, events per hour and the
 * recent events over a range (the last 24 h, 7 days or 30 days).
 *
 * idle → (dashboard.load) → loading → ready | failed; range.set → loading; dashboard.refresh → loading.
 * Pure: the call is `loadSummary` (GET events/summary).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { EventsSummary } from '../../src/protocol/events';
import { errorText } from '../notifications/emitted';

export const DASHBOARD_RANGES = { day: 24, week: 24 * 7, month: 24 * 30 } as const;
export type DashboardRange = keyof typeof DASHBOARD_RANGES;

export interface DashboardContext {
  range: DashboardRange;
  summary: EventsSummary | null;
  error: string | null;
}

export type DashboardEvent =
  | { type: 'dashboard.load' }
  | { type: 'dashboard.refresh' }
  | { type: 'range.set'; range: DashboardRange }
  | { type: 'dashboard.reset' };

const INITIAL: DashboardContext = { range: 'day', summary: null, error: null };

export const alarmDashboardMachine = setup({
  types: { context: {} as DashboardContext, events: {} as DashboardEvent },
  actors: {
    loadSummary: fromPromise<EventsSummary, { hours: number }>(async () => {
      throw new Error('alarmDashboard: loadSummary is not provided');
    }),
  },
}).createMachine({
  id: 'alarmDashboard',
  context: INITIAL,
  initial: 'idle',
  on: {
    'dashboard.reset': { target: '.idle', actions: assign(INITIAL) },
    'range.set': { target: '.loading', actions: assign({ range: ({ event }) => event.range }) },
  },
  states: {
    idle: { on: { 'dashboard.load': 'loading' } },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadSummary',
        src: 'loadSummary',
        input: ({ context }) => ({ hours: DASHBOARD_RANGES[context.range] }),
        onDone: { target: 'ready', actions: assign({ summary: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The dashboard could not be read.'),
          }),
        },
      },
    },
    ready: { on: { 'dashboard.load': 'loading', 'dashboard.refresh': 'loading' } },
    failed: { on: { 'dashboard.load': 'loading', 'dashboard.refresh': 'loading' } },
  },
});
