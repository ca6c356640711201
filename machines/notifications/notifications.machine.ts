/**
 * Notifications — spec §2 "Toast notifications use the fields title, message, variant"; §2 root shell "a
 * generic dialog" (e.g. the confirm-mail dialog of login status 1, §4, and "Device is not reachable", §8).
 *
 * Holds the toasts on screen and the queue of dialogs, shown one at a time. Feature actors `emit` their
 * notices and dialogs (emitted.ts); the console forwards the emissions of the sources each feature lists
 * (its index.ts `notices`) here as `notice.show` and `dialog.show`. A dialog already queued with the same
 * title and message is not queued twice (two actors may report one fact). Closing a dialog sends its
 * `reply` (if any) to the actor that asked for it, e.g. `auth.confirmMail.close` to auth.
 *
 * No side effects: the views render `context.toasts` and the first of `context.dialogs`, and send
 * `notice.dismiss` / `dialog.close`.
 */
import { assign, enqueueActions, setup, type EventObject } from 'xstate';
import type { NoticeI18n, NoticeVariant } from './emitted';

/** A toast on screen. `id` is unique for the actor's life. */
export interface Toast {
  id: number;
  title: string;
  message: string;
  variant: NoticeVariant;
  /** Who emitted it (a systemId). */
  source: string;
  /** The title and message in the user's language (emitted.ts NoticeI18n). */
  i18n?: NoticeI18n;
}

/** What closing a dialog tells the actor that showed it. */
export interface DialogReply {
  systemId: string;
  event: EventObject;
}

/** A queued dialog. */
export interface QueuedDialog {
  id: number;
  title: string;
  message: string;
  /** Who emitted it (a systemId). */
  source: string;
  reply?: DialogReply;
}

export interface NotificationsContext {
  toasts: Toast[];
  /** Dialogs waiting, the shown one first. */
  dialogs: QueuedDialog[];
  nextId: number;
}

export type NotificationsEvent =
  | {
      type: 'notice.show';
      title: string;
      message: string;
      variant: NoticeVariant;
      source: string;
      i18n?: NoticeI18n;
    }
  | { type: 'notice.dismiss'; id: number }
  | { type: 'dialog.show'; title: string; message: string; source: string; reply?: DialogReply }
  | { type: 'dialog.close' };

/** Adds a dialog unless the same title and message are already queued. Pure. */
export function enqueueDialog(queue: readonly QueuedDialog[], dialog: QueuedDialog): QueuedDialog[] {
  return queue.some((d) => d.title === dialog.title && d.message === dialog.message)
    ? [...queue]
    : [...queue, dialog];
}

export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
  },
  actions: {
    addToast: assign(({ context, event }) => {
      if (event.type !== 'notice.show') return {};
      const { title, message, variant, source, i18n } = event;
      const toast: Toast = { id: context.nextId, title, message, variant, source, ...(i18n ? { i18n } : {}) };
      return {
        toasts: [...context.toasts, toast],
        nextId: context.nextId + 1,
      };
    }),
    removeToast: assign(({ context, event }) =>
      event.type === 'notice.dismiss' ? { toasts: context.toasts.filter((t) => t.id !== event.id) } : {},
    ),
    queueDialog: assign(({ context, event }) => {
      if (event.type !== 'dialog.show') return {};
      const { title, message, source, reply } = event;
      return {
        dialogs: enqueueDialog(context.dialogs, {
          id: context.nextId,
          title,
          message,
          source,
          ...(reply ? { reply } : {}),
        }),
        nextId: context.nextId + 1,
      };
    }),
    /** Drops the shown dialog and tells its source, when it asked to be told. */
    closeDialog: enqueueActions(({ context, system, enqueue }) => {
      const shown = context.dialogs[0];
      enqueue.assign({ dialogs: context.dialogs.slice(1) });
      const target = shown?.reply ? system.get(shown.reply.systemId) : undefined;
      if (shown?.reply && target) enqueue.sendTo(target, shown.reply.event);
    }),
  },
  guards: {
    moreDialogsQueued: ({ context }) => context.dialogs.length > 1,
  },
}).createMachine({
  id: 'notifications',
  context: { toasts: [], dialogs: [], nextId: 1 },
  on: {
    'notice.show': { actions: 'addToast' },
    'notice.dismiss': { actions: 'removeToast' },
  },
  initial: 'noDialog',
  states: {
    noDialog: {
      on: {
        'dialog.show': { target: 'dialogShown', actions: 'queueDialog' },
      },
    },
    dialogShown: {
      tags: ['dialog'],
      on: {
        'dialog.show': { actions: 'queueDialog' },
        'dialog.close': [
          { guard: 'moreDialogsQueued', actions: 'closeDialog' },
          { target: 'noDialog', actions: 'closeDialog' },
        ],
      },
    },
  },
});
