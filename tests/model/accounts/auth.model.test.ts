import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  AUTH_ERRORS,
  authMachine,
  type DemoAccount,
  type LoginInput,
  type RefreshedTokens,
  type StoredSession,
} from '../../../machines/accounts/auth.machine';
import type { LoginResponse, UserInfo } from '../../../src/protocol/rest';
import { createMachineTestModel, runPaths } from '../harness';

type Snap = SnapshotFrom<typeof authMachine>;
const user: UserInfo = { id: 'u1', email: 'a@b.co', username: 'a', bio: null, image: null, roles: ['user'] };
const session: StoredSession = { token: 't1', refreshToken: 'r1', user };

const samples: Record<string, EventObject[]> = {
  'auth.login': [{ type: 'auth.login', email: 'a@b.co', password: 'pw' } as EventObject],
  'xstate.done.actor.restoreSession': [
    { type: 'xstate.done.actor.restoreSession', output: null } as EventObject,
    { type: 'xstate.done.actor.restoreSession', output: session } as EventObject,
  ],
  'xstate.done.actor.login': [
    { type: 'xstate.done.actor.login', output: { status: 1, message: 'Confirm your mail' } } as EventObject,
    {
      type: 'xstate.done.actor.login',
      output: { status: 2, token: 't1', refresh_token: 'r1', user_info: user },
    } as EventObject,
    // Issue 13: a two-factor account — the challenge, then the twoFactor child's outcome.
    {
      type: 'xstate.done.actor.login',
      output: { status: 3, challenge: 'c1', message: 'Code' },
    } as EventObject,
  ],
  'xstate.done.actor.twoFactor': [
    { type: 'xstate.done.actor.twoFactor', output: { token: 't3', refreshToken: 'r3', user } } as EventObject,
    { type: 'xstate.done.actor.twoFactor', output: null } as EventObject,
  ],
  'xstate.error.actor.login': [
    { type: 'xstate.error.actor.login', error: new Error(AUTH_ERRORS.incorrect) } as EventObject,
  ],
  'xstate.done.actor.loadDemoAccount': [
    {
      type: 'xstate.done.actor.loadDemoAccount',
      output: { email: 'demo@edge.local', password: 'pw' },
    } as EventObject,
    { type: 'xstate.done.actor.loadDemoAccount', output: null } as EventObject,
  ],
  'xstate.error.actor.loadDemoAccount': [
    { type: 'xstate.error.actor.loadDemoAccount', error: new Error('unreachable') } as EventObject,
  ],
  'xstate.done.actor.refreshToken': [
    { type: 'xstate.done.actor.refreshToken', output: { token: 't2', refreshToken: 'r2' } } as EventObject,
  ],
};

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.token,
    s.context.refreshToken,
    s.context.error,
    s.context.confirmMailMessage,
    s.context.demoAccount,
    s.context.twoFactorChallenge,
  ]);

const model = createMachineTestModel(authMachine, {
  // The demo account is read once per signed-out visit: its answer only while the read is running.
  events: (snap, type) =>
    type.endsWith('.loadDemoAccount') && (snap as Snap).context.demoAccount !== undefined
      ? []
      : samples[type],
  key,
  transitionCoverage: true,
});

function start(driver: import('../harness').Driver) {
  return createActor(
    authMachine.provide({
      actors: {
        restoreSession: driver.promise<StoredSession | null, unknown>('restoreSession'),
        login: driver.promise<LoginResponse, LoginInput>('login'),
        refreshToken: driver.promise<RefreshedTokens, { refreshToken: string | null }>('refreshToken'),
        logout: driver.promise<void, { token: string | null }>('logout'),
        loadDemoAccount: driver.promise<DemoAccount | null, unknown>('loadDemoAccount'),
        // The second step stands in as a promise: its done event carries the session (or null).
        twoFactor: driver.promise<unknown, unknown>('twoFactor') as never,
      },
    }),
    { clock: driver.clock },
  ).start();
}

describe('auth (model-based paths)', () => {
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches every auth state the model reaches, along every transition', async () => {
    const states = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    for (const value of [
      '"restoring"',
      '{"signedOut":"idle"}',
      '{"signedOut":"submitting"}',
      '{"signedOut":"confirmMail"}',
      '{"signedOut":"twoFactor"}',
      '{"signedIn":"active"}',
      '{"signedIn":"refreshing"}',
      '{"signedIn":"signingOut"}',
    ]) {
      expect(states).toContain(value);
    }
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
  });
});
