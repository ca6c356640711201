/**
 * The records screen (issue 16 §2 records; §2 /control-panel/records; §8 "Records: device does not exist or
 * not connected for removal"): one device's recordings — choose a device → loading → list | error; remove
 * with a confirmation. Pure: the device calls are the provided actors `listRecords` and `removeRecord`
 * (src/console/features/records/actors.ts).
 *
 * `device.select` (deviceId, connected) may come in any state; a device that is not connected shows the
 * `offline` state. `device.connection` keeps `connected` current; confirming a removal while the device is
 * not connected (or is gone) refuses with the §8 text NOT_CONNECTED_FOR_REMOVAL, without calling it.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { RecordItem, RecordsListReply } from '../../src/protocol/records';

/** §8 "Records: device does not exist or not connected for removal". */
export const NOT_CONNECTED_FOR_REMOVAL = 'device does not exist or not connected for removal';

export interface RecordsContext {
  deviceId: string | null;
  connected: boolean;
  items: RecordItem[];
  total: number;
  /** Last error text (a device error's message, or NOT_CONNECTED_FOR_REMOVAL); null when none. */
  error: string | null;
  /** The recording asked to be removed (confirming / removing). */
  target: string | null;
}

export type RecordsEvent =
  | { type: 'device.select'; deviceId: string; connected: boolean }
  | { type: 'device.connection'; connected: boolean }
  | { type: 'refresh' }
  | { type: 'remove.ask'; name: string }
  | { type: 'remove.confirm' }
  | { type: 'remove.cancel' }
  | { type: 'error.dismiss' }
  /** Sign-out: forget the device and its list. */
  | { type: 'records.reset' };

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export const recordsMachine = setup({
  types: { context: {} as RecordsContext, events: {} as RecordsEvent },
  actors: {
    listRecords: fromPromise<RecordsListReply, { deviceId: string }>(async () => {
      throw new Error('records: listRecords is not provided');
    }),
    removeRecord: fromPromise<unknown, { deviceId: string; name: string }>(async () => {
      throw new Error('records: removeRecord is not provided');
    }),
  },
  guards: {
    selectedConnected: ({ event }) => event.type === 'device.select' && event.connected,
    connected: ({ context }) => context.connected,
  },
}).createMachine({
  id: 'records',
  context: { deviceId: null, connected: false, items: [], total: 0, error: null, target: null },
  initial: 'noDevice',
  on: {
    'device.select': [
      {
        guard: 'selectedConnected',
        target: '.loading',
        actions: assign(({ event }) => ({
          deviceId: event.deviceId,
          connected: true,
          items: [],
          total: 0,
          error: null,
          target: null,
        })),
      },
      {
        target: '.offline',
        actions: assign(({ event }) => ({
          deviceId: event.deviceId,
          connected: false,
          items: [],
          total: 0,
          error: null,
          target: null,
        })),
      },
    ],
    'device.connection': { actions: assign({ connected: ({ event }) => event.connected }) },
    'records.reset': {
      target: '.noDevice',
      actions: assign({ deviceId: null, connected: false, items: [], total: 0, error: null, target: null }),
    },
  },
  states: {
    noDevice: {},
    offline: {
      on: { refresh: { guard: 'connected', target: 'loading' } },
    },
    loading: {
      invoke: {
        id: 'listRecords',
        src: 'listRecords',
        input: ({ context }) => ({ deviceId: context.deviceId! }),
        onDone: {
          target: 'list',
          actions: assign(({ event }) => ({ items: event.output.items, total: event.output.total })),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => message(event.error) }) },
      },
    },
    failed: { on: { refresh: { target: 'loading', actions: assign({ error: null }) } } },
    list: {
      on: {
        refresh: { target: 'loading', actions: assign({ error: null }) },
        'remove.ask': {
          target: 'confirming',
          actions: assign({ target: ({ event }) => event.name, error: null }),
        },
        'error.dismiss': { actions: assign({ error: null }) },
      },
    },
    confirming: {
      on: {
        'remove.confirm': [
          { guard: 'connected', target: 'removing' },
          { target: 'list', actions: assign({ error: NOT_CONNECTED_FOR_REMOVAL, target: null }) },
        ],
        'remove.cancel': { target: 'list', actions: assign({ target: null }) },
      },
    },
    removing: {
      invoke: {
        id: 'removeRecord',
        src: 'removeRecord',
        input: ({ context }) => ({ deviceId: context.deviceId!, name: context.target! }),
        onDone: { target: 'loading', actions: assign({ target: null }) },
        onError: {
          target: 'list',
          actions: assign({ error: ({ event }) => message(event.error), target: null }),
        },
      },
    },
  },
});
