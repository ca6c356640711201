/**
 * The signed-in user's licences — spec §1 "licences", §2 /profile/my-licences; issue 13 "what an expired
 * licence stops and how the console says so". One long-lived actor (systemId 'myLicences'): the my-licences
 * screen lists them, the header's renew banner reads `lapsed` (recently expired, not renewed).
 *
 * idle → (licences.load) → loading → ready | failed; licences.refresh reloads from ready or failed (after a
 * checkout); licences.reset (sign-out) forgets everything. Pure: the call is the provided actor
 * `loadLicences`. Tag `busy` while loading.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Licence, MyLicencesResponse } from '../../src/protocol/billing';
import { errorText } from '../notifications/emitted';

export interface MyLicencesContext {
  licences: Licence[];
  lapsed: Licence[];
  error: string | null;
  /** ms since the epoch of the last successful load. */
  lastUpdate: number | null;
}

export type MyLicencesEvent =
  { type: 'licences.load' } | { type: 'licences.refresh' } | { type: 'licences.reset' };

const INITIAL: MyLicencesContext = { licences: [], lapsed: [], error: null, lastUpdate: null };

export const myLicencesMachine = setup({
  types: { context: {} as MyLicencesContext, events: {} as MyLicencesEvent },
  actors: {
    loadLicences: fromPromise<MyLicencesResponse>(async () => {
      throw new Error('myLicences: loadLicences is not provided');
    }),
  },
}).createMachine({
  id: 'myLicences',
  context: INITIAL,
  initial: 'idle',
  on: { 'licences.reset': { target: '.idle', actions: assign(INITIAL) } },
  states: {
    idle: { on: { 'licences.load': 'loading', 'licences.refresh': 'loading' } },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadLicences',
        src: 'loadLicences',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            licences: event.output.licences,
            lapsed: event.output.lapsed,
            error: null,
            lastUpdate: Date.now(),
          })),
        },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'Your licences could not be read.'),
          }),
        },
      },
    },
    ready: { on: { 'licences.refresh': 'loading', 'licences.load': 'loading' } },
    failed: { on: { 'licences.refresh': 'loading', 'licences.load': 'loading' } },
  },
});
