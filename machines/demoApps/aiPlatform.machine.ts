/**
 * The AI platform page — (spec §2 /ai-platform; README "Decisions where the spec is silent": AI platform): every
 * device of the user with the demo AI applications it can run and the engine that answers each (sim / host,
 * model), read with demo-apps-info from each online device.
 *
 *   idle → platform.load → loading (scanDevices) → ready | failed; platform.load again from ready or failed
 *   reads everything anew.
 *
 * Pure: scanDevices is provided (src/console/features/demoApps/actors.ts).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { DemoEngine } from '../../src/protocol/demoApps';

/** One device as the platform page shows it: its apps, or why they could not be read. */
export interface PlatformDevice {
  device_id: string;
  label: string;
  online: boolean;
  engines: DemoEngine[];
  error: string | null;
}

export interface AiPlatformContext {
  devices: PlatformDevice[];
  error: string | null;
}

export type AiPlatformEvent = { type: 'platform.load' };

export const aiPlatformMachine = setup({
  types: { context: {} as AiPlatformContext, events: {} as AiPlatformEvent },
  actors: {
    scanDevices: fromPromise<PlatformDevice[]>(async () => {
      throw new Error('demoApps: scanDevices is not provided');
    }),
  },
}).createMachine({
  id: 'aiPlatform',
  context: { devices: [], error: null },
  initial: 'idle',
  states: {
    idle: { on: { 'platform.load': 'loading' } },
    loading: {
      invoke: {
        src: 'scanDevices',
        onDone: { target: 'ready', actions: assign({ devices: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)),
          }),
        },
      },
    },
    ready: { on: { 'platform.load': 'loading' } },
    failed: { on: { 'platform.load': 'loading' } },
  },
});
