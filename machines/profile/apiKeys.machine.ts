/**
 * API keys — issue 13 /profile/keys-secrets (Grafana-style: name, scope, optional expiry, last use; the secret
 * shown once, revocable); §8 "Generated!" for a token (shown once, copied, "New token is copied to clipboard.").
 *
 * idle → keys.load → loading → ready | failed (keys.retry). In ready: key.create { name, scope, expiresInDays }
 * → creating when the name is not empty (else ready with `invalid`) → created (the secret held only here, toast
 * "Generated!") | ready with the server's error; in created: key.copied → toast "New token is copied to
 * clipboard."; key.dismiss → ready (the secret forgotten). key.revoke { id } → confirmingRevoke →
 * key.revoke.confirm → revoking → ready (the key shown revoked) | key.revoke.cancel → ready. keys.reset
 * (sign-out) → idle. Pure: the calls are the provided actors `loadKeys`, `createKey`, `revokeKey`.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { ApiKey, ApiKeyCreated, ApiKeyScope } from '../../src/protocol/profile';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';

export interface ApiKeysContext {
  keys: ApiKey[];
  /** The key just created with its secret (shown once); null otherwise. */
  created: ApiKeyCreated | null;
  /** The key whose revocation is asked or running. */
  revoking: string | null;
  error: string | null;
  /** The name was empty. */
  invalid: boolean;
}

export interface ApiKeyDraft {
  name: string;
  scope: ApiKeyScope;
  /** Lifetime in days; null = never expires. */
  expiresInDays: number | null;
}

export type ApiKeysEvent =
  | { type: 'keys.load' }
  | { type: 'keys.retry' }
  | ({ type: 'key.create' } & ApiKeyDraft)
  | { type: 'key.copied' }
  | { type: 'key.dismiss' }
  | { type: 'key.revoke'; id: string }
  | { type: 'key.revoke.confirm' }
  | { type: 'key.revoke.cancel' }
  | { type: 'keys.reset' };

const INITIAL: ApiKeysContext = { keys: [], created: null, revoking: null, error: null, invalid: false };
const notProvided = (name: string) => async (): Promise<never> => {
  throw new Error(`apiKeys: ${name} is not provided`);
};
/** §8 texts. */
export const GENERATED_TITLE = 'Generated!';
export const COPIED_TEXT = 'New token is copied to clipboard.';

export const apiKeysMachine = setup({
  types: { context: {} as ApiKeysContext, events: {} as ApiKeysEvent, emitted: {} as ConsoleEmitted },
  actors: {
    loadKeys: fromPromise<ApiKey[]>(notProvided('loadKeys')),
    createKey: fromPromise<ApiKeyCreated, ApiKeyDraft>(notProvided('createKey')),
    revokeKey: fromPromise<ApiKey, { id: string }>(notProvided('revokeKey')),
  },
  guards: {
    named: ({ event }) => event.type === 'key.create' && event.name.trim() !== '',
    known: ({ context, event }) => event.type === 'key.revoke' && context.keys.some((k) => k.id === event.id),
  },
}).createMachine({
  id: 'apiKeys',
  context: INITIAL,
  initial: 'idle',
  on: { 'keys.reset': { target: '.idle', actions: assign(INITIAL) } },
  states: {
    idle: { on: { 'keys.load': 'loading' } },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadKeys',
        src: 'loadKeys',
        onDone: { target: 'ready', actions: assign({ keys: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The API keys could not be read.'),
          }),
        },
      },
    },
    failed: { on: { 'keys.retry': 'loading' } },
    ready: {
      on: {
        'keys.load': 'loading',
        'key.create': [
          { guard: 'named', target: 'creating', actions: assign({ invalid: false, error: null }) },
          { actions: assign({ invalid: true, error: null }) },
        ],
        'key.revoke': {
          guard: 'known',
          target: 'confirmingRevoke',
          actions: assign({ revoking: ({ event }) => event.id, error: null }),
        },
      },
    },
    creating: {
      tags: ['busy'],
      invoke: {
        id: 'createKey',
        src: 'createKey',
        input: ({ event }) =>
          event.type === 'key.create'
            ? { name: event.name.trim(), scope: event.scope, expiresInDays: event.expiresInDays }
            : { name: '', scope: 'read' as const, expiresInDays: null },
        onDone: {
          target: 'created',
          actions: [
            assign({
              created: ({ event }) => event.output,
              keys: ({ context, event }) => [event.output.key, ...context.keys],
            }),
            emit({
              type: 'notice',
              title: GENERATED_TITLE,
              message: 'Copy the key now: it is shown only once.',
              variant: 'success',
              i18n: { message: { key: 'profile.keys.shownOnce' } },
            } as const),
          ],
        },
        onError: {
          target: 'ready',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The API key could not be created.'),
          }),
        },
      },
    },
    created: {
      on: {
        'key.copied': {
          actions: emit({
            type: 'notice',
            title: GENERATED_TITLE,
            message: COPIED_TEXT,
            variant: 'success',
          } as const),
        },
        'key.dismiss': { target: 'ready', actions: assign({ created: null }) },
      },
    },
    confirmingRevoke: {
      on: {
        'key.revoke.confirm': 'revoking',
        'key.revoke.cancel': { target: 'ready', actions: assign({ revoking: null }) },
      },
    },
    revoking: {
      tags: ['busy'],
      invoke: {
        id: 'revokeKey',
        src: 'revokeKey',
        input: ({ context }) => ({ id: context.revoking ?? '' }),
        onDone: {
          target: 'ready',
          actions: assign({
            keys: ({ context, event }) =>
              context.keys.map((k) => (k.id === event.output.id ? event.output : k)),
            revoking: null,
          }),
        },
        onError: {
          target: 'ready',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The API key could not be revoked.'),
            revoking: null,
          }),
        },
      },
    },
  },
});
