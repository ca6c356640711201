/**
 * One list machine for the screens that load a list, change its rows and delete one after a confirmation
 * (spec §2 list routes; ARCHITECTURE "every stateful flow is an XState machine"): the face gallery
 * (/blacklist-faces), the alarms (/alarms), the applications (/applications), the analytics collections and
 * dashboards, and the admin engine backends. Each feature keeps its own `setup({...})` (its context, events,
 * actors, guards) and its own changes (enrol, save, rename ...) as extra states; the factory adds the shape
 * they share:
 *
 *   [idle → (start event) →] loading → ready | failed; the reload events go back to loading from ready or
 *   failed; in ready: delete.ask { id } (guarded by the feature's "is listed" guard) → confirming →
 *   delete.confirm → deleting → loading (an optional success notice), or ready with the error (kept in
 *   `error` and/or shown as a danger notice); delete.cancel → ready. An optional reset event (sign-out) goes
 *   back to idle with the initial context. Tags: `busy` while loading or deleting.
 *
 * Pure: no fetch, no DOM; the load and delete calls are the feature's provided actors (`load.src`,
 * `remove.src`). State names, event names, invoke ids and context fields are the feature's own, so a
 * machine built here has the same snapshots its selectors and screens read.
 */
import { assign as xAssign, emit as xEmit } from 'xstate';
import { errorText } from '../notifications/emitted';

/** A notice the machine emits (machines/notifications/emitted.ts NoticeEmitted): English title, i18n key. */
export interface ListNotice {
  title: string;
  key: string;
}

/** The shape every list's setup result has (`setup({...})`): it makes the machine and types extra states. */
export interface ListSetup {
  createMachine: (config: never) => unknown;
}

/** The states every list has (plus `idle` when it waits for a start event). */
export type ListState = 'loading' | 'failed' | 'ready' | 'confirming' | 'deleting';

/** The setup's machine config, with the state names known (so `snapshot.matches('ready')` is checked). */
export type ListMachineConfig<S extends ListSetup, TState extends string> = Omit<
  Parameters<S['createMachine']>[0],
  'states'
> & { states: Record<TState, object> };

export interface ListMachineSpec<TContext, TLoaded, TStart extends string | null, TExtra extends string> {
  /** The machine id (the diagram's and the inspector's name). */
  id: string;
  /** The context field holding the rows (each with an `id`). */
  items: keyof TContext & string;
  /** The initial context, or a function of the machine's input. */
  context: TContext | ((args: { input: never }) => TContext);
  /** The event that leaves `idle` and loads; null: the machine starts loading (no idle state). */
  start: TStart;
  /** The events that reload, from ready and from failed. */
  reload: { ready: string[]; failed: string[] };
  /** Sign-out: this event goes back to idle with `context` (the initial one). */
  reset?: { event: string; context: TContext };
  load: {
    /** The provided actor (and invoke id) that reads the list. */
    src: string;
    input?: (args: { context: TContext }) => unknown;
    /** The context patch a successful load makes. */
    loaded: (output: TLoaded) => Partial<TContext>;
    /** The English text of a failed load without a server message. */
    failedText: string;
  };
  remove: {
    /** The provided actor (and invoke id) that deletes the confirmed row. */
    src: string;
    /** The feature's guard (a setup guard name) that delete.ask's id is listed. */
    guard: string;
    /** Default `{ id }` of the confirmed row. */
    input?: (args: { context: TContext }) => unknown;
    /** A success notice (its message: what the target row says). */
    deleted?: ListNotice & { message: (target: never) => string };
    /** The English text of a failed delete without a server message. */
    failedText: string;
    /** A failed delete keeps its text in `error`. */
    keepError: boolean;
    /** A failed delete shows a danger notice with this title. */
    failedNotice?: ListNotice;
  };
  /** Extra transitions of `ready` (the feature's changes); typed with the setup's `createStateConfig`. */
  ready?: { on?: object };
  /** Extra states (the feature's changes), between `ready` and `confirming`. */
  states?: Record<TExtra, object>;
}

type Row = { id: string; name?: string };
type Ctx = Record<string, unknown>;
/** The machine's own context and events are the feature's: these actions are typed by its setup, not here. */
const assign = xAssign as unknown as (assignment: object | ((args: never) => object)) => object;
const emit = xEmit as unknown as (notice: (args: never) => object) => object;

const on = (types: string[], target: string) => Object.fromEntries(types.map((t) => [t, target]));

/**
 * Makes the feature's list machine on its own setup (`s`). Returns the setup's machine type: the feature's
 * context, events, actors and emitted notices stay typed (state values are the machine's StateValue).
 */
export function listMachineConfig<
  S extends ListSetup,
  TContext,
  TLoaded,
  TStart extends string | null,
  TExtra extends string = never,
>(
  _s: S,
  spec: ListMachineSpec<TContext, TLoaded, TStart, TExtra>,
): ListMachineConfig<S, (TStart extends string ? 'idle' : never) | ListState | TExtra> {
  const { items, load, remove } = spec;
  const rows = (context: Ctx) => context[items] as Row[];
  const target = (context: Ctx) => context.target as Row;
  const deleteFailed = [
    assign(({ event }: { event: { error: unknown } }) => ({
      target: null,
      ...(remove.keepError ? { error: errorText(event.error, remove.failedText) } : {}),
    })),
    ...(remove.failedNotice
      ? [
          emit(({ event }: { event: { error: unknown } }) => ({
            type: 'notice' as const,
            variant: 'danger' as const,
            title: remove.failedNotice!.title,
            message: errorText(event.error, remove.failedText),
            i18n: { title: { key: remove.failedNotice!.key } },
          })),
        ]
      : []),
  ];
  const deleted = remove.deleted
    ? [
        emit(({ context }: { context: Ctx }) => ({
          type: 'notice' as const,
          variant: 'success' as const,
          title: remove.deleted!.title,
          message: remove.deleted!.message(target(context) as never),
          i18n: { title: { key: remove.deleted!.key } },
        })),
      ]
    : [];
  const config = {
    id: spec.id,
    context: spec.context,
    initial: spec.start ? 'idle' : 'loading',
    ...(spec.reset
      ? { on: { [spec.reset.event]: { target: '.idle', actions: assign(spec.reset.context as Ctx) } } }
      : {}),
    states: {
      ...(spec.start ? { idle: { on: { [spec.start]: 'loading' } } } : {}),
      loading: {
        tags: ['busy'],
        invoke: {
          id: load.src,
          src: load.src,
          ...(load.input ? { input: load.input } : {}),
          onDone: {
            target: 'ready',
            actions: assign(({ event }: { event: { output: TLoaded } }) => load.loaded(event.output) as Ctx),
          },
          onError: {
            target: 'failed',
            actions: assign({
              error: ({ event }: { event: { error: unknown } }) => errorText(event.error, load.failedText),
            }),
          },
        },
      },
      failed: { on: on(spec.reload.failed, 'loading') },
      ready: {
        ...spec.ready,
        on: {
          ...on(spec.reload.ready, 'loading'),
          ...spec.ready?.on,
          'delete.ask': {
            guard: remove.guard,
            target: 'confirming',
            actions: assign(({ context, event }: { context: Ctx; event: { id: string } }) => ({
              target: rows(context).find((r) => r.id === event.id) ?? null,
              error: null,
            })),
          },
        },
      },
      ...spec.states,
      confirming: {
        on: {
          'delete.confirm': 'deleting',
          'delete.cancel': { target: 'ready', actions: assign({ target: null }) },
        },
      },
      deleting: {
        tags: ['busy'],
        invoke: {
          id: remove.src,
          src: remove.src,
          input: remove.input ?? (({ context }: { context: Ctx }) => ({ id: target(context).id })),
          onDone: { target: 'loading', actions: [...deleted, assign({ target: null })] },
          onError: { target: 'ready', actions: deleteFailed },
        },
      },
    },
  };
  return config as never;
}
