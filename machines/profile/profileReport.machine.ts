/**
 * A profile report read from the server — issue 13 /profile/stream-management (§7 usage/all_stream_limits),
 * /profile/storage-data-usage, /profile/network-data-usage and the device tokens of /profile/keys-secrets.
 * One machine, one actor per report (machines/profile/ids.ts), each given its own `load`.
 *
 * idle → report.load → loading → ready | failed; report.load again (refresh, "Retry") → loading, keeping the
 * last data while it loads; report.reset (sign-out) → idle, data forgotten. Tag `busy` while loading.
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorText } from '../notifications/emitted';

export interface ReportContext {
  data: unknown;
  error: string | null;
  /** When the data was read (ms since the epoch), null before. */
  readAt: number | null;
}

export type ReportEvent = { type: 'report.load' } | { type: 'report.reset' };

const INITIAL: ReportContext = { data: null, error: null, readAt: null };

export const reportMachine = setup({
  types: { context: {} as ReportContext, events: {} as ReportEvent },
  actors: {
    load: fromPromise<unknown>(async () => {
      throw new Error('report: load is not provided');
    }),
  },
}).createMachine({
  id: 'profileReport',
  context: INITIAL,
  initial: 'idle',
  on: { 'report.reset': { target: '.idle', actions: assign(INITIAL) } },
  states: {
    idle: { on: { 'report.load': 'loading' } },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'load',
        src: 'load',
        onDone: {
          target: 'ready',
          actions: assign({ data: ({ event }) => event.output, error: null, readAt: () => Date.now() }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, 'The report could not be read.') }),
        },
      },
    },
    ready: { on: { 'report.load': 'loading' } },
    failed: { on: { 'report.load': 'loading' } },
  },
});
