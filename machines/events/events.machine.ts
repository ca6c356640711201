/**
 * The events timeline — issue 11 `/events` (spec §2 "If the page URL contains events the app goes to
 * /events"): the user's events newest first with filters (camera, class, severity, reviewed, time range),
 * more pages on demand, a selection reviewed in bulk, and one event opened in the viewer (snapshot and clip).
 *
 * idle → (events.load) → loading → ready | failed; filters.set → loading (new first page); events.more →
 * loadingMore → ready (appended); select.toggle / select.page / select.none change the selection in ready;
 * review.selected / review.one → reviewing → loading (same filters; selection cleared) | ready + notice;
 * event.open / event.close set the viewer's event. Pure: the calls are `loadEvents` and `reviewEvents`.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { EventsPage, EventsQueryIn, EventView } from '../../src/protocol/events';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';

/** The timeline's filters (empty string / null: no filter). */
export interface EventFilters {
  camera_id: string;
  class: string;
  severity: '' | 'info' | 'warning' | 'critical';
  reviewed: '' | 'true' | 'false';
  /** ISO instants or ''. */
  from: string;
  to: string;
}

export const NO_FILTERS: EventFilters = {
  camera_id: '',
  class: '',
  severity: '',
  reviewed: '',
  from: '',
  to: '',
};

/** The query of one page for the filters (empty filters left out). */
export function queryOf(f: EventFilters, next: EventsPage['next'] = null): EventsQueryIn {
  const q: EventsQueryIn = {};
  if (f.camera_id) q.camera_id = f.camera_id;
  if (f.class) q.class = f.class;
  if (f.severity) q.severity = f.severity;
  if (f.reviewed) q.reviewed = f.reviewed;
  if (f.from) q.from = f.from;
  if (f.to) q.to = f.to;
  if (next) {
    q.before_at = next.before_at;
    q.before_id = next.before_id;
  }
  return q;
}

export interface EventsContext {
  filters: EventFilters;
  events: EventView[];
  next: EventsPage['next'];
  selected: string[];
  openId: string | null;
  error: string | null;
}

export type EventsEvent =
  | { type: 'events.load' }
  | { type: 'events.refresh' }
  | { type: 'filters.set'; filters: Partial<EventFilters> }
  | { type: 'events.more' }
  | { type: 'select.toggle'; id: string }
  | { type: 'select.page' }
  | { type: 'select.none' }
  | { type: 'review.selected'; reviewed: boolean }
  | { type: 'review.one'; id: string; reviewed: boolean }
  | { type: 'event.open'; id: string }
  | { type: 'event.close' }
  | { type: 'events.reset' };

const INITIAL: EventsContext = {
  filters: NO_FILTERS,
  events: [],
  next: null,
  selected: [],
  openId: null,
  error: null,
};

export const eventsMachine = setup({
  types: { context: {} as EventsContext, events: {} as EventsEvent, emitted: {} as ConsoleEmitted },
  actors: {
    loadEvents: fromPromise<EventsPage, EventsQueryIn>(async () => {
      throw new Error('events: loadEvents is not provided');
    }),
    reviewEvents: fromPromise<{ updated: number }, { ids: string[]; reviewed: boolean }>(async () => {
      throw new Error('events: reviewEvents is not provided');
    }),
  },
  guards: {
    hasMore: ({ context }) => context.next !== null,
    hasSelection: ({ context }) => context.selected.length > 0,
  },
}).createMachine({
  id: 'events',
  context: INITIAL,
  initial: 'idle',
  on: {
    'events.reset': { target: '.idle', actions: assign(INITIAL) },
    'event.open': { actions: assign({ openId: ({ event }) => event.id }) },
    'event.close': { actions: assign({ openId: null }) },
  },
  states: {
    idle: {
      on: {
        'events.load': 'loading',
        'filters.set': {
          target: 'loading',
          actions: assign({ filters: ({ context, event }) => ({ ...context.filters, ...event.filters }) }),
        },
      },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadEvents',
        src: 'loadEvents',
        input: ({ context }) => queryOf(context.filters),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            events: event.output.events,
            next: event.output.next,
            selected: context.selected.filter((id) => event.output.events.some((e) => e.id === id)),
            error: null,
          })),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, 'The events could not be read.') }),
        },
      },
    },
    failed: {
      on: {
        'events.load': 'loading',
        'events.refresh': 'loading',
        'filters.set': {
          target: 'loading',
          actions: assign({ filters: ({ context, event }) => ({ ...context.filters, ...event.filters }) }),
        },
      },
    },
    ready: {
      on: {
        'events.load': 'loading',
        'events.refresh': 'loading',
        'filters.set': {
          target: 'loading',
          actions: assign({
            filters: ({ context, event }) => ({ ...context.filters, ...event.filters }),
            selected: [],
          }),
        },
        'events.more': { guard: 'hasMore', target: 'loadingMore' },
        'select.toggle': {
          actions: assign({
            selected: ({ context, event }) =>
              context.selected.includes(event.id)
                ? context.selected.filter((x) => x !== event.id)
                : [...context.selected, event.id],
          }),
        },
        'select.page': { actions: assign({ selected: ({ context }) => context.events.map((e) => e.id) }) },
        'select.none': { actions: assign({ selected: [] }) },
        'review.selected': { guard: 'hasSelection', target: 'reviewing' },
        'review.one': 'reviewing',
      },
    },
    loadingMore: {
      tags: ['busy'],
      invoke: {
        id: 'loadEvents',
        src: 'loadEvents',
        input: ({ context }) => queryOf(context.filters, context.next),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            events: [...context.events, ...event.output.events],
            next: event.output.next,
          })),
        },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => errorText(event.error, 'The events could not be read.') }),
        },
      },
    },
    reviewing: {
      tags: ['busy'],
      invoke: {
        id: 'reviewEvents',
        src: 'reviewEvents',
        input: ({ context, event }) =>
          event.type === 'review.one'
            ? { ids: [event.id], reviewed: event.reviewed }
            : { ids: context.selected, reviewed: (event as { reviewed: boolean }).reviewed },
        onDone: {
          target: 'loading',
          actions: [
            assign({ selected: [] }),
            emit(({ event }) => ({
              type: 'notice' as const,
              variant: 'success' as const,
              title: 'Events updated',
              message: String(event.output.updated),
              i18n: { title: { key: 'events.updated' } },
            })),
          ],
        },
        onError: {
          target: 'ready',
          actions: emit(({ event }) => ({
            type: 'notice' as const,
            variant: 'danger' as const,
            title: 'Review failed',
            message: errorText(event.error, 'The events could not be updated.'),
            i18n: { title: { key: 'events.reviewFailed' } },
          })),
        },
      },
    },
  },
});
