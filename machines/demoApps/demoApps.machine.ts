/**
 * The demo AI applications — issue 14; (spec §2 /nanoowl, /llava, /speed_application, /ibb, /ai-platform): the
 * feature's long-lived actor (systemId 'demoApps'). It spawns one demoApp actor per app page the first time
 * the page opens (`demoApps.open`) and the AI platform's actor (`platform.open`), and keeps them while the
 * user is signed in, so a chat, a prompt or a measurement survives leaving the page and coming back.
 * Sign-out (`demoApps.reset`) stops them all.
 */
import { assign, enqueueActions, sendTo, setup, type ActorRefFrom } from 'xstate';
import type { DemoAppName } from '../../src/protocol/demoApps';
import { aiPlatformMachine } from './aiPlatform.machine';
import { demoAppMachine } from './demoApp.machine';

export type DemoAppRef = ActorRefFrom<typeof demoAppMachine>;
export type AiPlatformRef = ActorRefFrom<typeof aiPlatformMachine>;

export interface DemoAppsContext {
  apps: Partial<Record<DemoAppName, DemoAppRef>>;
  platform: AiPlatformRef | null;
}

export type DemoAppsEvent =
  { type: 'demoApps.open'; app: DemoAppName } | { type: 'platform.open' } | { type: 'demoApps.reset' };

export const demoAppsMachine = setup({
  types: { context: {} as DemoAppsContext, events: {} as DemoAppsEvent },
  actors: { demoApp: demoAppMachine, aiPlatform: aiPlatformMachine },
}).createMachine({
  id: 'demoApps',
  context: { apps: {}, platform: null },
  on: {
    'demoApps.open': {
      actions: [
        assign({
          apps: ({ context, event, spawn }) =>
            context.apps[event.app]
              ? context.apps
              : {
                  ...context.apps,
                  [event.app]: spawn('demoApp', { id: event.app, input: { app: event.app } }),
                },
        }),
        sendTo(({ event }) => event.app, { type: 'app.open' }),
      ],
    },
    'platform.open': {
      actions: [
        assign({
          platform: ({ context, spawn }) => context.platform ?? spawn('aiPlatform', { id: 'platform' }),
        }),
        sendTo('platform', { type: 'platform.load' }),
      ],
    },
    'demoApps.reset': {
      actions: enqueueActions(({ context, enqueue }) => {
        for (const ref of [...Object.values(context.apps), context.platform]) if (ref) enqueue.stopChild(ref);
        enqueue.assign({ apps: {}, platform: null });
      }),
    },
  },
});
