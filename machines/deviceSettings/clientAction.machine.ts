/**
 * The client actions of one device's settings tab (spec §7 "Client and settings": restart-client-engine,
 * restart-frp-client, force-refresh-device-settings, connect-cie), each asked for confirmation first; spawned
 * by the deviceSettings actor, one per device.
 *
 *   idle ──action.ask──▶ confirming ──action.confirm [CIE address checked]──▶ running ──done──▶ done
 *                             └─action.cancel──▶ idle                           └─error──▶ failed (device's error)
 *   done / failed ──action.ask──▶ confirming;  ──action.dismiss──▶ idle
 *
 * connect-cie takes an address typed in the confirmation (`action.setUrl`), checked by checkCieUrl before
 * anything is sent. After a force refresh, an engine restart or a CIE connection the parent is told
 * (`settings.changed`), so the device's forms read again. The actor `runAction` is provided by the console.
 */
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { checkCieUrl, deviceErrorOf, type DeviceError, type FieldError } from './settingsChecks';

export const CLIENT_ACTIONS = ['restartEngine', 'restartFrp', 'refresh', 'connectCie'] as const;
export type ClientActionName = (typeof CLIENT_ACTIONS)[number];

export interface ClientActionContext {
  deviceId: string;
  /** The action asked for / running / last run; null when idle. */
  action: ClientActionName | null;
  /** connect-cie: the address typed. */
  cieUrl: string;
  /** connect-cie: why the address is refused before sending (shown after a confirm attempt). */
  cieError: FieldError | null;
  /** The device's refusal of the last run. */
  error: DeviceError | null;
}

export type ClientActionEvent =
  | { type: 'action.ask'; action: ClientActionName }
  | { type: 'action.setUrl'; url: string }
  | { type: 'action.confirm' }
  | { type: 'action.cancel' }
  | { type: 'action.dismiss' };

export interface RunActionInput {
  deviceId: string;
  action: ClientActionName;
  /** connect-cie's address (trimmed). */
  url: string;
}

export const clientActionActors = {
  /** Runs the action's device command; rejects with `{ code, message }` when the device refuses. */
  runAction: fromPromise<void, RunActionInput>(async () => {
    throw new Error("clientAction: actor 'runAction' is not provided");
  }),
};

export const clientActionMachine = setup({
  types: {
    context: {} as ClientActionContext,
    events: {} as ClientActionEvent,
    input: {} as { deviceId: string },
  },
  actors: clientActionActors,
  actions: {
    ask: assign(({ event }) =>
      event.type === 'action.ask' ? { action: event.action, cieError: null, error: null } : {},
    ),
    setUrl: assign(({ event }) =>
      event.type === 'action.setUrl' ? { cieUrl: event.url, cieError: null } : {},
    ),
    refuseUrl: assign(({ context }) => ({ cieError: checkCieUrl(context.cieUrl) })),
    keepError: assign((_, params: { error: unknown }) => ({ error: deviceErrorOf(params.error) })),
    forget: assign({ action: null, cieError: null, error: null }),
    /** Tells the deviceSettings actor (when spawned by it) to read the device's forms again. */
    tellParent: enqueueActions(({ context, enqueue, self }) => {
      if (self._parent)
        enqueue.sendParent({ type: 'settings.changed', deviceId: context.deviceId, infoType: null });
    }),
  },
  guards: {
    badUrl: ({ context }) => context.action === 'connectCie' && checkCieUrl(context.cieUrl) !== null,
    changesSettings: ({ context }) => context.action !== 'restartFrp',
  },
}).createMachine({
  id: 'clientAction',
  context: ({ input }) => ({
    deviceId: input.deviceId,
    action: null,
    cieUrl: '',
    cieError: null,
    error: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'action.ask': { target: 'confirming', actions: 'ask' } },
    },
    confirming: {
      tags: ['dialog'],
      on: {
        'action.setUrl': { actions: 'setUrl' },
        'action.confirm': [{ guard: 'badUrl', actions: 'refuseUrl' }, { target: 'running' }],
        'action.cancel': { target: 'idle', actions: 'forget' },
      },
    },
    running: {
      tags: ['busy'],
      invoke: {
        id: 'runAction',
        src: 'runAction',
        input: ({ context }) => ({
          deviceId: context.deviceId,
          action: context.action!,
          url: context.cieUrl.trim(),
        }),
        onDone: [{ guard: 'changesSettings', target: 'done', actions: 'tellParent' }, { target: 'done' }],
        onError: {
          target: 'failed',
          actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    done: {
      on: {
        'action.ask': { target: 'confirming', actions: 'ask' },
        'action.dismiss': { target: 'idle', actions: 'forget' },
      },
    },
    failed: {
      on: {
        'action.ask': { target: 'confirming', actions: 'ask' },
        'action.dismiss': { target: 'idle', actions: 'forget' },
      },
    },
  },
});
