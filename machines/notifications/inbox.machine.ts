/**
 * The notification bell's inbox — spec §3 Notification (title, message, variant, time, read, id); §7 "A
 * real-time socket with a token header also exists"; issue 11 "a notification bell with unread count".
 *
 * Signed in (`inbox.start`), it keeps the real-time socket open (`socket`, a callback actor that reports
 * `inbox.socket.up` / `inbox.socket.down` and forwards pushed messages as `inbox.pushed` / `inbox.readElsewhere`)
 * and loads the latest notifications (`load`). A pushed notification goes on top and counts as unread; a
 * reconnect reloads (what came while the socket was down). Mark one read / mark all read change the list at
 * once and are saved by `markRead` / `markAllRead`; a failed save reloads the truth. `inbox.stop` (sign-out)
 * closes the socket and forgets the list.
 *
 * No side effects here: the console provides the actors (src/console/features/notifications/actors.ts).
 */
import { assign, fromCallback, fromPromise, setup, type ActorRefFrom, type EventObject } from 'xstate';
import type { Notification } from '../../src/protocol/notifications';
import { errorText } from './emitted';

/** Most notifications kept in the list (the newest). */
export const INBOX_LIMIT = 50;
export const INBOX_LOAD_FAILED = 'Notifications could not be loaded.';

export interface InboxContext {
  notifications: Notification[];
  /** Unread on the server, including those beyond the list. */
  unread: number;
  connected: boolean;
  error: string | null;
}

export type InboxEvent =
  | { type: 'inbox.start' }
  | { type: 'inbox.stop' }
  | { type: 'inbox.retry' }
  | { type: 'inbox.socket.up' }
  | { type: 'inbox.socket.down' }
  | { type: 'inbox.pushed'; notification: Notification }
  | { type: 'inbox.readElsewhere'; ids: string[] | null }
  | { type: 'inbox.markRead'; id: string }
  | { type: 'inbox.markAllRead' };

/** Adds a pushed notification on top (once), keeps the newest INBOX_LIMIT. Pure. */
export function addPushed(ctx: Pick<InboxContext, 'notifications' | 'unread'>, n: Notification) {
  if (ctx.notifications.some((x) => x.id === n.id))
    return { notifications: ctx.notifications, unread: ctx.unread };
  return {
    notifications: [n, ...ctx.notifications].slice(0, INBOX_LIMIT),
    unread: ctx.unread + (n.read ? 0 : 1),
  };
}

/** Marks `ids` (null: all) read. Pure. */
export function markReadIn(
  ctx: Pick<InboxContext, 'notifications' | 'unread'>,
  ids: readonly string[] | null,
) {
  if (ids === null) return { notifications: ctx.notifications.map((n) => ({ ...n, read: true })), unread: 0 };
  const hit = ctx.notifications.filter((n) => ids.includes(n.id) && !n.read).length;
  return {
    notifications: ctx.notifications.map((n) => (ids.includes(n.id) ? { ...n, read: true } : n)),
    unread: Math.max(0, ctx.unread - hit),
  };
}

export const inboxMachine = setup({
  types: {
    context: {} as InboxContext,
    events: {} as InboxEvent,
  },
  actors: {
    /** GET notifications → the newest and the unread count. */
    load: fromPromise<{ notifications: Notification[]; unread: number }>(async () => {
      throw new Error("inbox: actor 'load' is not provided");
    }),
    /** POST notifications/:id/read. */
    markRead: fromPromise<unknown, { id: string }>(async () => {
      throw new Error("inbox: actor 'markRead' is not provided");
    }),
    /** POST notifications/read-all. */
    markAllRead: fromPromise<unknown>(async () => {
      throw new Error("inbox: actor 'markAllRead' is not provided");
    }),
    /** The real-time socket: sends inbox.socket.up/down, inbox.pushed, inbox.readElsewhere to its parent. */
    socket: fromCallback<EventObject>(() => {
      throw new Error("inbox: actor 'socket' is not provided");
    }),
  },
  actions: {
    reset: assign({ notifications: [], unread: 0, connected: false, error: null }),
    setLoaded: assign(({ event }) => {
      const out = (event as unknown as { output: { notifications: Notification[]; unread: number } }).output;
      return { notifications: out.notifications.slice(0, INBOX_LIMIT), unread: out.unread, error: null };
    }),
    setLoadError: assign(({ event }) => ({
      error: errorText((event as unknown as { error: unknown }).error, INBOX_LOAD_FAILED),
    })),
    addPushed: assign(({ context, event }) =>
      event.type === 'inbox.pushed' ? addPushed(context, event.notification) : {},
    ),
    readElsewhere: assign(({ context, event }) =>
      event.type === 'inbox.readElsewhere' ? markReadIn(context, event.ids) : {},
    ),
    readOne: assign(({ context, event }) =>
      event.type === 'inbox.markRead' ? markReadIn(context, [event.id]) : {},
    ),
    readAll: assign(({ context }) => markReadIn(context, null)),
    up: assign({ connected: true }),
    down: assign({ connected: false }),
  },
}).createMachine({
  id: 'inbox',
  context: { notifications: [], unread: 0, connected: false, error: null },
  initial: 'signedOut',
  states: {
    signedOut: {
      entry: 'reset',
      on: { 'inbox.start': 'signedIn' },
    },
    signedIn: {
      invoke: { id: 'socket', src: 'socket' },
      on: {
        'inbox.stop': 'signedOut',
        'inbox.socket.down': { actions: 'down' },
        'inbox.pushed': { actions: 'addPushed' },
        'inbox.readElsewhere': { actions: 'readElsewhere' },
      },
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          on: { 'inbox.socket.up': { actions: 'up' } },
          invoke: {
            id: 'load',
            src: 'load',
            onDone: { target: 'ready', actions: 'setLoaded' },
            onError: { target: 'failed', actions: 'setLoadError' },
          },
        },
        failed: {
          on: {
            'inbox.retry': 'loading',
            'inbox.socket.up': { target: 'loading', actions: 'up' },
          },
        },
        ready: {
          on: {
            // Back after a drop: reload what came meanwhile.
            'inbox.socket.up': { target: 'loading', actions: 'up' },
            'inbox.markRead': { target: 'savingOne', actions: 'readOne' },
            'inbox.markAllRead': { target: 'savingAll', actions: 'readAll' },
          },
        },
        savingOne: {
          on: {
            'inbox.markRead': { target: 'savingOne', reenter: true, actions: 'readOne' },
            'inbox.markAllRead': { target: 'savingAll', actions: 'readAll' },
          },
          invoke: {
            id: 'markRead',
            src: 'markRead',
            input: ({ event }) => ({ id: event.type === 'inbox.markRead' ? event.id : '' }),
            onDone: 'ready',
            onError: 'loading',
          },
        },
        savingAll: {
          on: { 'inbox.markRead': { actions: 'readOne' } },
          invoke: { id: 'markAllRead', src: 'markAllRead', onDone: 'ready', onError: 'loading' },
        },
      },
    },
  },
});

export type InboxRef = ActorRefFrom<typeof inboxMachine>;
