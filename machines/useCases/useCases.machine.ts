/**
 * The use cases of `/use-cases/*` — issue 11 "use cases" (spec §2 routes /use-cases/person-counter (+
 * /analytics), /use-cases/demographic, /use-cases/vehicle-plate-detection), src/protocol/analytics.ts: the
 * user's use cases (a person counter, a demographic or a plate reader on one running inference job), started
 * and stopped.
 *
 * idle → (useCases.load) → loading → ready | failed; useCases.refresh reloads from ready or failed.
 * useCase.start { input } → starting (actor `startUseCase`: POST use-cases; the device picks it up at its next
 * sync) → loading with a toast, or ready with the form error kept. useCase.stop { id } (a listed one) →
 * confirming → stop.confirm → stopping (actor `stopUseCase`: DELETE use-cases/:id, its records with it) →
 * loading, or ready with the error; stop.cancel → ready. form.clear forgets the form error. Tags: `busy`
 * while loading, starting or stopping. Pure: the calls are the provided actors.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { UseCase, UseCaseInput } from '../../src/protocol/analytics';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';

export interface UseCasesContext {
  useCases: UseCase[];
  /** ms since the epoch of the last successful load, null before. */
  lastUpdate: number | null;
  /** The list's or a stop's error. */
  error: string | null;
  /** The last start's error (the start form shows it). */
  formError: string | null;
  /** The use case asked to be stopped. */
  target: UseCase | null;
  /** The use case the last start created (the screen selects it). */
  created: string | null;
}

export type UseCasesEvent =
  | { type: 'useCases.load' }
  | { type: 'useCases.refresh' }
  | { type: 'useCase.start'; input: UseCaseInput }
  | { type: 'useCase.stop'; id: string }
  | { type: 'stop.confirm' }
  | { type: 'stop.cancel' }
  | { type: 'form.clear' }
  /** Sign-out: forget everything. */
  | { type: 'useCases.reset' };

const INITIAL: UseCasesContext = {
  useCases: [],
  lastUpdate: null,
  error: null,
  formError: null,
  target: null,
  created: null,
};

export const useCasesMachine = setup({
  types: {
    context: {} as UseCasesContext,
    events: {} as UseCasesEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    loadUseCases: fromPromise<UseCase[]>(async () => {
      throw new Error('useCases: loadUseCases is not provided');
    }),
    startUseCase: fromPromise<UseCase, UseCaseInput>(async () => {
      throw new Error('useCases: startUseCase is not provided');
    }),
    stopUseCase: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('useCases: stopUseCase is not provided');
    }),
  },
  guards: {
    known: ({ context, event }) =>
      event.type === 'useCase.stop' && context.useCases.some((u) => u.id === event.id),
  },
  actions: {
    clearForm: assign({ formError: null }),
  },
}).createMachine({
  id: 'useCases',
  context: INITIAL,
  initial: 'idle',
  on: {
    'useCases.reset': { target: '.idle', actions: assign(INITIAL) },
    'form.clear': { actions: 'clearForm' },
  },
  states: {
    idle: { on: { 'useCases.load': 'loading' } },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadUseCases',
        src: 'loadUseCases',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ useCases: event.output, lastUpdate: Date.now(), error: null })),
        },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The use cases could not be read.'),
          }),
        },
      },
    },
    ready: {
      on: {
        'useCases.load': 'loading',
        'useCases.refresh': 'loading',
        'useCase.start': { target: 'starting', actions: 'clearForm' },
        'useCase.stop': {
          guard: 'known',
          target: 'confirming',
          actions: assign(({ context, event }) => ({
            target: context.useCases.find((u) => u.id === event.id) ?? null,
            error: null,
          })),
        },
      },
    },
    failed: { on: { 'useCases.load': 'loading', 'useCases.refresh': 'loading' } },
    starting: {
      tags: ['busy'],
      invoke: {
        id: 'startUseCase',
        src: 'startUseCase',
        input: ({ event }) => (event as Extract<UseCasesEvent, { type: 'useCase.start' }>).input,
        onDone: {
          target: 'loading',
          actions: [
            assign({ created: ({ event }) => event.output.id }),
            emit(({ event }) => ({
              type: 'notice' as const,
              variant: 'success' as const,
              title: 'Use case started',
              message: event.output.name,
              i18n: { title: { key: 'useCases.started' } },
            })),
          ],
        },
        onError: {
          target: 'ready',
          actions: assign({
            formError: ({ event }) => errorText(event.error, 'The use case could not be started.'),
          }),
        },
      },
    },
    confirming: {
      on: {
        'stop.confirm': 'stopping',
        'stop.cancel': { target: 'ready', actions: assign({ target: null }) },
      },
    },
    stopping: {
      tags: ['busy'],
      invoke: {
        id: 'stopUseCase',
        src: 'stopUseCase',
        input: ({ context }) => ({ id: context.target!.id }),
        onDone: {
          target: 'loading',
          actions: [
            emit(({ context }) => ({
              type: 'notice' as const,
              variant: 'success' as const,
              title: 'Use case stopped',
              message: context.target!.name,
              i18n: { title: { key: 'useCases.stopped' } },
            })),
            assign(({ context }) => ({
              target: null,
              created: context.created === context.target!.id ? null : context.created,
            })),
          ],
        },
        onError: {
          target: 'ready',
          actions: [
            assign({
              error: ({ event }) => errorText(event.error, 'The use case could not be stopped.'),
              target: null,
            }),
            emit(({ event }) => ({
              type: 'notice' as const,
              variant: 'danger' as const,
              title: 'Stop failed',
              message: errorText(event.error, 'The use case could not be stopped.'),
              i18n: { title: { key: 'useCases.stopFailed' } },
            })),
          ],
        },
      },
    },
  },
});
