/**
 * Confirm-and-apply of an admin's action on a user — issue 13 admin panel "users (… roles, disable, reset
 * 2FA)": disable, enable, reset two-factor, set roles. Nothing is applied before the admin confirms.
 *
 * idle → (action.ask { action, user }) → confirming → (action.confirm) → applying → idle on success, or back to
 * confirming with the server's error (e.g. 409 Last_admin) shown in the dialog (confirm again or cancel);
 * action.cancel → idle. On success it emits a success notice and `applied` (the users list reloads).
 * Pure: the call is the provided actor `applyAction`. Tags: `busy` while applying.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';

export type UserActionKind = 'disable' | 'enable' | 'resetTwoFactor' | 'makeAdmin' | 'removeAdmin';

/** The user an action is about (enough to name them in the dialog). */
export interface ActionTarget {
  id: string;
  email: string;
}

export interface UserActionContext {
  action: UserActionKind | null;
  user: ActionTarget | null;
  error: string | null;
}

export type UserActionEvent =
  | { type: 'action.ask'; action: UserActionKind; user: ActionTarget }
  | { type: 'action.confirm' }
  | { type: 'action.cancel' };

export type UserActionEmitted = ConsoleEmitted | { type: 'applied'; action: UserActionKind; userId: string };

const NOTICE_KEYS: Record<UserActionKind, string> = {
  disable: 'admin.users.done.disable',
  enable: 'admin.users.done.enable',
  resetTwoFactor: 'admin.users.done.resetTwoFactor',
  makeAdmin: 'admin.users.done.makeAdmin',
  removeAdmin: 'admin.users.done.removeAdmin',
};

export const userActionMachine = setup({
  types: {
    context: {} as UserActionContext,
    events: {} as UserActionEvent,
    emitted: {} as UserActionEmitted,
  },
  actors: {
    applyAction: fromPromise<unknown, { action: UserActionKind; userId: string }>(async () => {
      throw new Error('admin: applyAction is not provided');
    }),
  },
}).createMachine({
  id: 'userAction',
  context: { action: null, user: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'action.ask': {
          target: 'confirming',
          actions: assign(({ event }) => ({ action: event.action, user: event.user, error: null })),
        },
      },
    },
    confirming: {
      on: {
        'action.confirm': 'applying',
        'action.cancel': { target: 'idle', actions: assign({ action: null, user: null, error: null }) },
      },
    },
    applying: {
      tags: ['busy'],
      invoke: {
        id: 'applyAction',
        src: 'applyAction',
        input: ({ context }) => ({ action: context.action!, userId: context.user!.id }),
        onDone: {
          target: 'idle',
          actions: [
            emit(({ context }) => ({
              type: 'notice' as const,
              variant: 'success' as const,
              title: 'Done',
              message: context.user!.email,
              i18n: {
                title: { key: NOTICE_KEYS[context.action!] },
                message: { key: 'admin.users.done.who', values: { email: context.user!.email } },
              },
            })),
            emit(({ context }) => ({
              type: 'applied' as const,
              action: context.action!,
              userId: context.user!.id,
            })),
            assign({ action: null, user: null, error: null }),
          ],
        },
        onError: {
          target: 'confirming',
          actions: assign({ error: ({ event }) => errorText(event.error, 'The change could not be made.') }),
        },
      },
    },
  },
});
