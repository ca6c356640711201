/**
 * The §9 device score of every connected device — live (spec §9 "Device score = 100 minus (0.5 x GPU memory
 * percent + 0.3 x GPU utilisation + 0.2 x CPU); the lowest score is chosen"; §3 usage data; §7 get-usages):
 * the engines page tells it which devices to watch (`devices.set`); it reads their usage (readUsages, one
 * get-usages per device; a device that does not answer counts as no score) → `waiting` SCORE_POLL_MS →
 * reading again. No device → `idle` (the page left, or nothing connected). The scores and the chosen device are
 * computed from `usages` by engineView.ts (scoresOf, chooseDevice).
 *
 * Pure: readUsages is provided (src/console/features/engines/actors.ts). Long-lived (systemId 'engines').
 */
import { assign, fromPromise, setup } from 'xstate';
import type { UsagesLike } from './engineView';

/** How often usage is read again, ms. */
export const SCORE_POLL_MS = 5_000;

export interface DeviceScoresContext {
  deviceIds: string[];
  /** Last usage per device (null: it did not answer). */
  usages: Record<string, UsagesLike | null>;
}

export type DeviceScoresEvent =
  | { type: 'devices.set'; deviceIds: string[] }
  /** Sign-out. */
  | { type: 'scores.reset' };

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

export const deviceScoresMachine = setup({
  types: { context: {} as DeviceScoresContext, events: {} as DeviceScoresEvent },
  actors: {
    readUsages: fromPromise<Record<string, UsagesLike | null>, { deviceIds: string[] }>(async () => {
      throw new Error('engines: readUsages is not provided');
    }),
  },
  guards: {
    noDevices: ({ event }) => event.type === 'devices.set' && event.deviceIds.length === 0,
    unchanged: ({ context, event }) =>
      event.type === 'devices.set' && same(context.deviceIds, event.deviceIds),
  },
  delays: { poll: SCORE_POLL_MS },
}).createMachine({
  id: 'deviceScores',
  context: { deviceIds: [], usages: {} },
  initial: 'idle',
  on: {
    'devices.set': [
      { guard: 'noDevices', target: '.idle', actions: assign({ deviceIds: [] }) },
      { guard: 'unchanged' },
      {
        target: '.reading',
        actions: assign({
          deviceIds: ({ event }) => event.deviceIds,
          usages: ({ context, event }) =>
            Object.fromEntries(event.deviceIds.map((id) => [id, context.usages[id] ?? null])),
        }),
      },
    ],
    'scores.reset': { target: '.idle', actions: assign({ deviceIds: [], usages: {} }) },
  },
  states: {
    idle: {},
    reading: {
      invoke: {
        id: 'readUsages',
        src: 'readUsages',
        input: ({ context }) => ({ deviceIds: context.deviceIds }),
        onDone: {
          target: 'waiting',
          actions: assign({
            usages: ({ context, event }) =>
              Object.fromEntries(context.deviceIds.map((id) => [id, event.output[id] ?? null])),
          }),
        },
        // readUsages answers null per device that fails; a rejection is unexpected: try again later.
        onError: 'waiting',
      },
    },
    waiting: { after: { poll: 'reading' } },
  },
});
