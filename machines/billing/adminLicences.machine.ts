/**
 * Admin licences — spec §2 /admin-panel/licences (role admin, §6); issue 13 "licences (grant, revoke). Every
 * admin action is written to an audit log". The server checks the role and writes the audit record.
 *
 * loading → ready | failed. In ready: list.search / list.page reload; grant.open → granting.editing;
 * grant.submit → granting.sending → loading (granted: the new licence's id kept for the view) or back to
 * granting.editing with the server's message; grant.cancel → ready. revoke.ask → confirmingRevoke;
 * revoke.confirm → revoking → loading (or ready with the error); revoke.cancel → ready. Pure: the calls are
 * the provided actors `loadLicences`, `grant` and `revoke`. Tag `busy` while a call runs.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AdminLicence, GrantBody } from '../../src/protocol/billing';
import { errorText } from '../notifications/emitted';

export const ADMIN_PER_PAGE = 20;

export interface AdminLicencesContext {
  licences: AdminLicence[];
  total: number;
  search: string;
  page: number;
  error: string | null;
  /** The licence asked to be revoked. */
  target: AdminLicence | null;
  /** What happened last ('granted' | 'revoked') and to which licence, for the view's status line. */
  done: { kind: 'granted' | 'revoked'; id: string } | null;
}

export type AdminLicencesEvent =
  | { type: 'list.search'; search: string }
  | { type: 'list.page'; page: number }
  | { type: 'list.retry' }
  | { type: 'grant.open' }
  | { type: 'grant.submit'; body: GrantBody }
  | { type: 'grant.cancel' }
  | { type: 'revoke.ask'; id: string }
  | { type: 'revoke.confirm' }
  | { type: 'revoke.cancel' };

export const adminLicencesMachine = setup({
  types: { context: {} as AdminLicencesContext, events: {} as AdminLicencesEvent },
  actors: {
    loadLicences: fromPromise<{ licences: AdminLicence[]; total: number }, { search: string; page: number }>(
      async () => {
        throw new Error('adminLicences: loadLicences is not provided');
      },
    ),
    grant: fromPromise<AdminLicence, GrantBody>(async () => {
      throw new Error('adminLicences: grant is not provided');
    }),
    revoke: fromPromise<AdminLicence, { id: string }>(async () => {
      throw new Error('adminLicences: revoke is not provided');
    }),
  },
  guards: {
    revocable: ({ context, event }) =>
      event.type === 'revoke.ask' &&
      context.licences.some((l) => l.id === event.id && l.state !== 'revoked' && l.state !== 'expired'),
    validPage: ({ context, event }) =>
      event.type === 'list.page' &&
      event.page >= 1 &&
      event.page <= Math.max(1, Math.ceil(context.total / ADMIN_PER_PAGE)),
  },
}).createMachine({
  id: 'adminLicences',
  context: { licences: [], total: 0, search: '', page: 1, error: null, target: null, done: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadLicences',
        src: 'loadLicences',
        input: ({ context }) => ({ search: context.search, page: context.page }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            licences: event.output.licences,
            total: event.output.total,
            error: null,
          })),
        },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The licences could not be read.'),
          }),
        },
      },
    },
    failed: { on: { 'list.retry': 'loading' } },
    ready: {
      on: {
        'list.search': {
          target: 'loading',
          actions: assign({ search: ({ event }) => event.search, page: 1, done: null }),
        },
        'list.page': {
          guard: 'validPage',
          target: 'loading',
          actions: assign({ page: ({ event }) => event.page }),
        },
        'grant.open': { target: 'granting', actions: assign({ error: null, done: null }) },
        'revoke.ask': {
          guard: 'revocable',
          target: 'confirmingRevoke',
          actions: assign(({ context, event }) => ({
            target: context.licences.find((l) => l.id === event.id) ?? null,
            error: null,
            done: null,
          })),
        },
      },
    },
    granting: {
      initial: 'editing',
      on: { 'grant.cancel': { target: 'ready', actions: assign({ error: null }) } },
      states: {
        editing: { on: { 'grant.submit': 'sending' } },
        sending: {
          tags: ['busy'],
          invoke: {
            id: 'grant',
            src: 'grant',
            input: ({ event }) => (event as Extract<AdminLicencesEvent, { type: 'grant.submit' }>).body,
            onDone: {
              target: '#adminLicences.loading',
              actions: assign({
                done: ({ event }) => ({ kind: 'granted' as const, id: event.output.id }),
                error: null,
              }),
            },
            onError: {
              target: 'editing',
              actions: assign({
                error: ({ event }) => errorText(event.error, 'The licence could not be granted.'),
              }),
            },
          },
        },
      },
    },
    confirmingRevoke: {
      on: {
        'revoke.confirm': 'revoking',
        'revoke.cancel': { target: 'ready', actions: assign({ target: null }) },
      },
    },
    revoking: {
      tags: ['busy'],
      invoke: {
        id: 'revoke',
        src: 'revoke',
        input: ({ context }) => ({ id: context.target!.id }),
        onDone: {
          target: 'loading',
          actions: assign({
            done: ({ event }) => ({ kind: 'revoked' as const, id: event.output.id }),
            target: null,
          }),
        },
        onError: {
          target: 'ready',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The licence could not be revoked.'),
            target: null,
          }),
        },
      },
    },
  },
});
