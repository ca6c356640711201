/**
 * The alarm channels screen (`/alarm-channels`, spec §2 auth routes; issue 11 "Channels … Every channel has a
 * Test button … each attempt is visible"; src/protocol/alarmChannels.ts).
 *
 * Loads the user's channels; creates one (a webhook's signing secret is kept to be shown once, until
 * `channels.secret.dismiss`); sends a Test through a channel and keeps each channel's last Test attempt; opens
 * a channel's delivery log (its attempts, newest first) and refreshes it after a Test of that channel;
 * deletes a channel; subscribes this browser to a Web Push channel. A failed call leaves the list as it was
 * and shows the error (the create form's error separately, under the form).
 *
 * No side effects here: the console provides the actors (src/console/features/alarmChannels/actors.ts).
 */
import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { Channel, ChannelInput, DeliveryAttempt } from '../../src/protocol/alarmChannels';
import { errorText } from '../notifications/emitted';

export const CHANNELS_LOAD_FAILED = 'Channels could not be loaded.';
export const CHANNEL_ACTION_FAILED = 'The action failed.';

export interface ChannelsContext {
  channels: Channel[];
  /** The channel whose delivery log is open. */
  logOf: string | null;
  attempts: DeliveryAttempt[];
  /** Last Test attempt per channel id. */
  tests: Record<string, DeliveryAttempt>;
  /** The channel being tested, deleted or subscribed. */
  busyId: string | null;
  /** A new webhook's signing secret, shown once. */
  secret: { channelId: string; name: string; secret: string } | null;
  error: string | null;
  formError: string | null;
}

export type ChannelsEvent =
  | { type: 'channels.load' }
  | { type: 'channels.create'; input: ChannelInput }
  | { type: 'channels.test'; id: string }
  | { type: 'channels.delete'; id: string }
  | { type: 'channels.subscribe'; id: string }
  | { type: 'channels.openLog'; id: string }
  | { type: 'channels.closeLog' }
  | { type: 'channels.secret.dismiss' }
  | { type: 'channels.clear' };

const out = <T>(e: unknown) => (e as { output: T }).output;
const err = (e: unknown, fallback: string) => errorText((e as { error: unknown }).error, fallback);
const idOf = (e: ChannelsEvent) => ('id' in e ? e.id : '');

export const channelsMachine = setup({
  types: { context: {} as ChannelsContext, events: {} as ChannelsEvent },
  actors: {
    /** GET alarm-channels. */
    list: fromPromise<Channel[]>(async () => {
      throw new Error("channels: actor 'list' is not provided");
    }),
    /** POST alarm-channels → the channel and its secret (webhook). */
    create: fromPromise<{ channel: Channel; secret: string | null }, { input: ChannelInput }>(async () => {
      throw new Error("channels: actor 'create' is not provided");
    }),
    /** POST alarm-channels/:id/test → the attempt. */
    test: fromPromise<DeliveryAttempt, { id: string }>(async () => {
      throw new Error("channels: actor 'test' is not provided");
    }),
    /** DELETE alarm-channels/:id. */
    remove: fromPromise<unknown, { id: string }>(async () => {
      throw new Error("channels: actor 'remove' is not provided");
    }),
    /** Subscribes this browser (service worker, PushManager) and POSTs the subscription. */
    subscribe: fromPromise<unknown, { id: string }>(async () => {
      throw new Error("channels: actor 'subscribe' is not provided");
    }),
    /** GET alarm-channels/:id/attempts. */
    attempts: fromPromise<DeliveryAttempt[], { id: string }>(async () => {
      throw new Error("channels: actor 'attempts' is not provided");
    }),
  },
  guards: {
    logOfTested: ({ context }) => context.logOf !== null && context.logOf === context.busyId,
  },
  actions: {
    clearAll: assign({
      channels: [],
      logOf: null,
      attempts: [],
      tests: {},
      busyId: null,
      secret: null,
      error: null,
      formError: null,
    }),
    setChannels: assign(({ event }) => ({ channels: out<Channel[]>(event), error: null })),
    setLoadError: assign(({ event }) => ({ error: err(event, CHANNELS_LOAD_FAILED) })),
    setError: assign(({ event }) => ({ error: err(event, CHANNEL_ACTION_FAILED), busyId: null })),
    setFormError: assign(({ event }) => ({ formError: err(event, CHANNEL_ACTION_FAILED) })),
    setCreated: assign(({ event }) => {
      const r = out<{ channel: Channel; secret: string | null }>(event);
      return {
        formError: null,
        secret: r.secret ? { channelId: r.channel.id, name: r.channel.name, secret: r.secret } : null,
      };
    }),
    setBusy: assign(({ event }) => ({ busyId: idOf(event), error: null })),
    setTested: assign(({ context, event }) => {
      const a = out<DeliveryAttempt>(event);
      return context.busyId ? { tests: { ...context.tests, [context.busyId]: a } } : {};
    }),
    clearBusy: assign({ busyId: null }),
    openLog: assign(({ event }) => ({ logOf: idOf(event), attempts: [] })),
    closeLog: assign({ logOf: null, attempts: [] }),
    setAttempts: assign(({ event }) => ({ attempts: out<DeliveryAttempt[]>(event) })),
    dismissSecret: assign({ secret: null }),
  },
}).createMachine({
  id: 'alarmChannels',
  context: {
    channels: [],
    logOf: null,
    attempts: [],
    tests: {},
    busyId: null,
    secret: null,
    error: null,
    formError: null,
  },
  initial: 'idle',
  on: { 'channels.clear': { target: '.idle', actions: 'clearAll' } },
  states: {
    idle: { on: { 'channels.load': 'loading' } },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'list',
        src: 'list',
        onDone: { target: 'ready', actions: 'setChannels' },
        onError: { target: 'failed', actions: 'setLoadError' },
      },
    },
    failed: { on: { 'channels.load': 'loading' } },
    ready: {
      on: {
        'channels.load': 'loading',
        'channels.create': 'creating',
        'channels.test': { target: 'testing', actions: 'setBusy' },
        'channels.delete': { target: 'deleting', actions: 'setBusy' },
        'channels.subscribe': { target: 'subscribing', actions: 'setBusy' },
        'channels.openLog': { target: 'logLoading', actions: 'openLog' },
        'channels.closeLog': { actions: 'closeLog' },
        'channels.secret.dismiss': { actions: 'dismissSecret' },
      },
    },
    creating: {
      tags: ['saving'],
      invoke: {
        id: 'create',
        src: 'create',
        input: ({ event }) => ({
          input: (event as Extract<ChannelsEvent, { type: 'channels.create' }>).input,
        }),
        onDone: { target: 'loading', actions: 'setCreated' },
        onError: { target: 'ready', actions: 'setFormError' },
      },
    },
    testing: {
      invoke: {
        id: 'test',
        src: 'test',
        input: ({ context }) => ({ id: context.busyId ?? '' }),
        onDone: [
          { guard: 'logOfTested', target: 'logLoading', actions: ['setTested', 'clearBusy'] },
          { target: 'loading', actions: ['setTested', 'clearBusy'] },
        ],
        onError: { target: 'ready', actions: 'setError' },
      },
    },
    deleting: {
      invoke: {
        id: 'remove',
        src: 'remove',
        input: ({ context }) => ({ id: context.busyId ?? '' }),
        onDone: { target: 'loading', actions: ['clearBusy', 'closeLog'] },
        onError: { target: 'ready', actions: 'setError' },
      },
    },
    subscribing: {
      invoke: {
        id: 'subscribe',
        src: 'subscribe',
        input: ({ context }) => ({ id: context.busyId ?? '' }),
        onDone: { target: 'loading', actions: 'clearBusy' },
        onError: { target: 'ready', actions: 'setError' },
      },
    },
    logLoading: {
      invoke: {
        id: 'attempts',
        src: 'attempts',
        input: ({ context }) => ({ id: context.logOf ?? '' }),
        onDone: { target: 'ready', actions: 'setAttempts' },
        onError: { target: 'ready', actions: 'setError' },
      },
    },
  },
});

export type ChannelsRef = ActorRefFrom<typeof channelsMachine>;
