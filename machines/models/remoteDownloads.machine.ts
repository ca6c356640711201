/**
 * /remote-downloads — issue 9: "shows every device download in flight and done"; §2 /remote-downloads. The
 * server's model deployments of every device of the user, newest first, read every REMOTE_DOWNLOADS_POLL_MS
 * while the screen is shown, and a finished entry forgotten on request. Pure: the server calls are the
 * provided actors `fetchDeployments` and `forgetDeployment`.
 *
 * `downloads.open` starts polling, `downloads.close` stops it. A failed read keeps the last list, shows the
 * error and tries again on the next tick.
 */
import { assign, fromPromise, setup } from 'xstate';
import { REMOTE_DOWNLOADS_POLL_MS, type ModelDeployment } from '../../src/protocol/models';
import { errorText } from '../notifications/emitted';

export interface RemoteDownloadsContext {
  deployments: ModelDeployment[];
  /** ms since the epoch of the last good read (null before). */
  lastUpdate: number | null;
  error: string | null;
}

export type RemoteDownloadsEvent =
  | { type: 'downloads.open' }
  | { type: 'downloads.close' }
  | { type: 'refresh' }
  | { type: 'deployment.forget'; id: string };

export const remoteDownloadsMachine = setup({
  types: { context: {} as RemoteDownloadsContext, events: {} as RemoteDownloadsEvent },
  actors: {
    fetchDeployments: fromPromise<ModelDeployment[]>(async () => {
      throw new Error('models: fetchDeployments is not provided');
    }),
    forgetDeployment: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('models: forgetDeployment is not provided');
    }),
  },
  delays: { poll: REMOTE_DOWNLOADS_POLL_MS },
}).createMachine({
  id: 'remoteDownloads',
  context: { deployments: [], lastUpdate: null, error: null },
  initial: 'closed',
  states: {
    closed: { on: { 'downloads.open': 'open' } },
    open: {
      initial: 'loading',
      on: { 'downloads.close': 'closed' },
      states: {
        loading: {
          tags: ['loading'],
          // A forget clicked while a poll is in flight is taken (it was dropped, and the row stayed).
          on: { 'deployment.forget': 'forgetting' },
          invoke: {
            id: 'fetchDeployments',
            src: 'fetchDeployments',
            onDone: {
              target: 'waiting',
              actions: assign({
                deployments: ({ event }) => event.output,
                lastUpdate: () => Date.now(),
                error: null,
              }),
            },
            onError: {
              target: 'waiting',
              actions: assign({ error: ({ event }) => errorText(event.error, 'Failed') }),
            },
          },
        },
        waiting: {
          after: { poll: 'loading' },
          on: {
            refresh: 'loading',
            'deployment.forget': 'forgetting',
          },
        },
        forgetting: {
          invoke: {
            id: 'forgetDeployment',
            src: 'forgetDeployment',
            input: ({ event }) => ({ id: event.type === 'deployment.forget' ? event.id : '' }),
            onDone: 'loading',
            onError: {
              target: 'loading',
              actions: assign({ error: ({ event }) => errorText(event.error, 'Failed') }),
            },
          },
        },
      },
    },
  },
});
