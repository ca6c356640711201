/**
 * The face alarms timeline — issue 11 "face alarms for people on the blacklist", spec §2 auth route
 * `/face-alarms`: the events of the user's face alarms, newest first, each with the person's gallery label,
 * filtered by person, paged, and marked reviewed (or not) one by one.
 *
 * idle → (faceAlarms.load) → loading → ready | failed; filter.set (identity, '' for everyone) and
 * faceAlarms.refresh reload; faceAlarms.more → loadingMore → ready (appended); review.set → reviewing →
 * ready (the flag is shown at once and put back, with the error, when refused). Pure: the calls are the provided actors `loadFaceEvents` and
 * `loadMoreFaceEvents` (one page and the gallery's people for the filter) and `reviewEvent`. Tag `busy` while loading or reviewing.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { FaceAlarmEvent, FaceAlarmEventsPage } from '../../src/protocol/faces';
import { errorText } from '../notifications/emitted';

/** The filter's choices: the gallery's people. */
export interface FacePerson {
  identity: string;
  label: string;
}

export interface FaceEventsLoaded {
  page: FaceAlarmEventsPage;
  people: FacePerson[];
}

export interface FaceEventsInput {
  identity: string;
  before: FaceAlarmEventsPage['next'];
}

export interface FaceAlarmsContext {
  events: FaceAlarmEvent[];
  next: FaceAlarmEventsPage['next'];
  people: FacePerson[];
  /** The person filter ('' = everyone). */
  identity: string;
  error: string | null;
  /** The review under way (shown already; put back if refused). */
  marking: { id: string; reviewed: boolean } | null;
}

export type FaceAlarmsEvent =
  | { type: 'faceAlarms.load' }
  | { type: 'faceAlarms.refresh' }
  | { type: 'faceAlarms.more' }
  | { type: 'filter.set'; identity: string }
  | { type: 'review.set'; id: string; reviewed: boolean }
  | { type: 'faceAlarms.reset' };

const INITIAL: FaceAlarmsContext = {
  events: [],
  next: null,
  people: [],
  identity: '',
  error: null,
  marking: null,
};

export const faceAlarmsMachine = setup({
  types: { context: {} as FaceAlarmsContext, events: {} as FaceAlarmsEvent },
  actors: {
    loadFaceEvents: fromPromise<FaceEventsLoaded, FaceEventsInput>(async () => {
      throw new Error('faceAlarms: loadFaceEvents is not provided');
    }),
    loadMoreFaceEvents: fromPromise<FaceEventsLoaded, FaceEventsInput>(async () => {
      throw new Error('faceAlarms: loadMoreFaceEvents is not provided');
    }),
    reviewEvent: fromPromise<{ id: string; reviewed: boolean }, { id: string; reviewed: boolean }>(
      async () => {
        throw new Error('faceAlarms: reviewEvent is not provided');
      },
    ),
  },
  guards: {
    hasMore: ({ context }) => context.next !== null,
    known: ({ context, event }) =>
      event.type === 'review.set' && context.events.some((e) => e.id === event.id),
  },
}).createMachine({
  id: 'faceAlarms',
  context: INITIAL,
  initial: 'idle',
  on: { 'faceAlarms.reset': { target: '.idle', actions: assign(INITIAL) } },
  states: {
    idle: { on: { 'faceAlarms.load': 'loading' } },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadFaceEvents',
        src: 'loadFaceEvents',
        input: ({ context }) => ({ identity: context.identity, before: null }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            events: event.output.page.events,
            next: event.output.page.next,
            people: event.output.people,
            error: null,
          })),
        },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The face alarms’ events could not be read.'),
          }),
        },
      },
    },
    failed: {
      on: {
        'faceAlarms.load': 'loading',
        'faceAlarms.refresh': 'loading',
        'filter.set': { target: 'loading', actions: assign({ identity: ({ event }) => event.identity }) },
      },
    },
    ready: {
      on: {
        'faceAlarms.load': 'loading',
        'faceAlarms.refresh': 'loading',
        'filter.set': { target: 'loading', actions: assign({ identity: ({ event }) => event.identity }) },
        'faceAlarms.more': { guard: 'hasMore', target: 'loadingMore' },
        // Shown at once (the checkbox follows the click); put back when the server refuses.
        'review.set': {
          guard: 'known',
          target: 'reviewing',
          actions: assign(({ context, event }) => ({
            events: context.events.map((e) => (e.id === event.id ? { ...e, reviewed: event.reviewed } : e)),
            marking: { id: event.id, reviewed: event.reviewed },
          })),
        },
      },
    },
    loadingMore: {
      tags: ['busy'],
      invoke: {
        id: 'loadMoreFaceEvents',
        src: 'loadMoreFaceEvents',
        input: ({ context }) => ({ identity: context.identity, before: context.next }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            events: [...context.events, ...event.output.page.events],
            next: event.output.page.next,
            error: null,
          })),
        },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => errorText(event.error, 'More events could not be read.') }),
        },
      },
    },
    reviewing: {
      tags: ['busy'],
      invoke: {
        id: 'reviewEvent',
        src: 'reviewEvent',
        input: ({ event }) => {
          const e = event as Extract<FaceAlarmsEvent, { type: 'review.set' }>;
          return { id: e.id, reviewed: e.reviewed };
        },
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            events: context.events.map((e) =>
              e.id === event.output.id ? { ...e, reviewed: event.output.reviewed } : e,
            ),
            error: null,
            marking: null,
          })),
        },
        onError: {
          target: 'ready',
          actions: assign(({ context, event }) => {
            const tried = context.marking;
            return {
              error: errorText(event.error, 'The event could not be marked.'),
              marking: null,
              events: context.events.map((e) =>
                tried && e.id === tried.id ? { ...e, reviewed: !tried.reviewed } : e,
              ),
            };
          }),
        },
      },
    },
  },
});
