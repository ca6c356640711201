/**
 * Features whose actors come in a chunk of their own (ConsoleFeature.loadActors): loaded at the first sign-in
 * or when a screen asks before (system.features.want), started under their systemIds by the root machine, told
 * their sign-in events, and never started twice; a chunk that fails schedules the page reload (§2).
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup } from 'xstate';
import { authMachine, type StoredSession } from '../../../machines/accounts/auth.machine';
import { featureActor, systemMachine } from '../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import type { ConsoleFeature, Platform } from '../../../src/console/features/feature';
import { loadLazyFeatures } from '../../../src/console/shell/featureLoader';
import { flush, user } from '../machines/fixtures';

/** A feature actor that records the events it is told. */
const recorder = setup({
  types: { context: {} as { told: string[] }, events: {} as { type: string } },
}).createMachine({
  context: { told: [] },
  on: { '*': { actions: assign({ told: ({ context, event }) => [...context.told, event.type] }) } },
});

function lazyFeature(name: string, systemId: string, chunk: () => Promise<void> = async () => undefined) {
  let loads = 0;
  const feature: ConsoleFeature = {
    name,
    loadActors: async () => {
      loads += 1;
      await chunk();
      return () => [
        featureActor({
          systemId,
          logic: recorder,
          onSignIn: [{ type: 'demo.signedIn' }],
          onSignOut: [{ type: 'demo.signedOut' }],
        }),
      ];
    },
  };
  return { feature, loads: () => loads };
}

function start(session: StoredSession | null) {
  const machine = systemMachine.provide({
    actors: {
      auth: authMachine.provide({
        actors: {
          restoreSession: fromPromise<StoredSession | null>(async () => session),
          logout: fromPromise<void, { token: string | null }>(async () => undefined),
        },
        actions: { clearSession: () => undefined },
      }),
    },
  });
  const root = createActor(machine, { input: { browserId: 'web-test' } });
  root.start();
  return root;
}

const platform = {} as Platform;
const told = (root: ReturnType<typeof start>, id: string) =>
  (root.system.get(id)?.getSnapshot() as { context: { told: string[] } } | undefined)?.context.told;

describe('lazily loaded features (shell/featureLoader.ts)', () => {
  it('loads at the first sign-in, starts the actors under their systemIds and tells them sign-in, once', async () => {
    const root = start({ token: 't', refreshToken: 'r', user });
    const demo = lazyFeature('demo', 'demoActor');
    loadLazyFeatures(root, platform, [demo.feature], () => expect.fail('no chunk fails'));
    await flush();
    expect(root.getSnapshot().matches('signedIn')).toBe(true);
    expect(root.getSnapshot().context.loaded).toEqual(['demo']);
    expect(told(root, 'demoActor')).toEqual(['demo.signedIn']);
    // A second loaded event for the same feature changes nothing.
    root.send({ type: 'system.features.loaded', name: 'demo', features: [] });
    expect(root.getSnapshot().context.loaded).toEqual(['demo']);
    expect(demo.loads()).toBe(1);

    root.system.get(SYSTEM_IDS.auth)!.send({ type: 'auth.logout' });
    await flush();
    expect(told(root, 'demoActor')).toEqual(['demo.signedIn', 'demo.signedOut']);
  });

  it('stays unloaded while signed out, and loads a feature a screen asks for', async () => {
    const root = start(null);
    const asked = lazyFeature('asked', 'askedActor');
    const other = lazyFeature('other', 'otherActor');
    loadLazyFeatures(root, platform, [asked.feature, other.feature], () => expect.fail('no chunk fails'));
    await flush();
    expect(root.getSnapshot().context.loaded).toEqual([]);
    root.send({ type: 'system.features.want', name: 'asked' });
    await flush();
    expect(root.getSnapshot().context.loaded).toEqual(['asked']);
    // Signed out: started, but not told of a sign-in.
    expect(told(root, 'askedActor')).toEqual([]);
    expect(root.system.get('otherActor')).toBeUndefined();
    expect(other.loads()).toBe(0);
  });

  it('schedules the page reload when a chunk cannot be fetched', async () => {
    const root = start({ token: 't', refreshToken: 'r', user });
    const broken = lazyFeature('broken', 'brokenActor', async () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    let failures = 0;
    const errors = console.error;
    console.error = () => undefined;
    try {
      loadLazyFeatures(root, platform, [broken.feature], () => (failures += 1));
      await flush();
    } finally {
      console.error = errors;
    }
    expect(failures).toBe(1);
    expect(root.getSnapshot().context.loaded).toEqual([]);
  });
});
