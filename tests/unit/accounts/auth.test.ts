import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { AUTH_ERRORS, authMachine, type StoredSession } from '../../../machines/accounts/auth.machine';
import type { DialogEmitted } from '../../../machines/notifications/emitted';
import type { LoginResponse } from '../../../src/protocol/rest';
import { flush, user } from '../machines/fixtures';

function startAuth(login: () => Promise<LoginResponse>, stored: StoredSession | null = null) {
  const persisted: StoredSession[] = [];
  let cleared = 0;
  const actor = createActor(
    authMachine.provide({
      actors: {
        restoreSession: fromPromise<StoredSession | null>(async () => stored),
        login: fromPromise(login),
        logout: fromPromise<void, { token: string | null }>(async () => undefined),
      },
      actions: {
        persistSession: (_, params) => persisted.push(params),
        clearSession: () => void cleared++,
      },
    }),
  );
  const dialogs: DialogEmitted[] = [];
  actor.on('dialog', (d) => dialogs.push(d));
  actor.start();
  return { actor, persisted, dialogs, cleared: () => cleared };
}

describe('auth', () => {
  it('stays signed in after a reload when tokens are stored', async () => {
    const { actor } = startAuth(async () => ({ status: 1, message: '' }), {
      token: 't',
      refreshToken: 'r',
      user,
    });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await flush();
    expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    expect(actor.getSnapshot().context.user).toEqual(user);
  });

  it('signs in on status 2, sets the user and stores the tokens', async () => {
    const { actor, persisted } = startAuth(async () => ({
      status: 2,
      token: 't',
      refresh_token: 'r',
      user_info: user,
    }));
    await flush();
    actor.send({ type: 'auth.login', email: 'demo@example.com', password: 'pw' });
    await flush();
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ token: 't', refreshToken: 'r', user });
    expect(persisted).toEqual([{ token: 't', refreshToken: 'r', user }]);
  });

  it('shows the confirm-mail dialog on status 1 and stays signed out', async () => {
    const { actor, dialogs } = startAuth(async () => ({ status: 1, message: 'Please confirm your e-mail' }));
    await flush();
    actor.send({ type: 'auth.login', email: 'demo@example.com', password: 'pw' });
    await flush();
    expect(actor.getSnapshot().matches({ signedOut: 'confirmMail' })).toBe(true);
    expect(actor.getSnapshot().context.confirmMailMessage).toBe('Please confirm your e-mail');
    expect(dialogs).toHaveLength(1);
    actor.send({ type: 'auth.confirmMail.close' });
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
  });

  it('shows the login error text and clears it on dismiss', async () => {
    const { actor } = startAuth(async () => {
      throw new Error(AUTH_ERRORS.incorrect);
    });
    await flush();
    actor.send({ type: 'auth.login', email: 'demo@example.com', password: 'bad' });
    await flush();
    expect(actor.getSnapshot().context.error).toBe(AUTH_ERRORS.incorrect);
    actor.send({ type: 'auth.dismissError' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('logout clears tokens, user and the stored session', async () => {
    const { actor, cleared } = startAuth(async () => ({ status: 1, message: '' }), {
      token: 't',
      refreshToken: 'r',
      user,
    });
    await flush();
    actor.send({ type: 'auth.logout' });
    await flush();
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ token: null, refreshToken: null, user: null });
    expect(cleared()).toBe(1);
  });
});
