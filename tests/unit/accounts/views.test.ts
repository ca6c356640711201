import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { authMachine } from '../../../machines/accounts/auth.machine';
import { en } from '../../../src/console/i18n/en';
import { snapshotToView } from '../../../src/console/features/accounts/selectors';
import { parseDemoAccount, validateLogin } from '../../../src/console/features/accounts/validation';
import { user } from '../machines/fixtures';

/** Resolves an i18n key like 'login.errors.emailRequired' in the English resource. */
const english = (key: string | undefined): string | undefined =>
  key?.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], en) as
    string | undefined;

/** A snapshot of the auth machine in `value` with `context` changes. */
const authIn = (value: Parameters<typeof authMachine.resolveState>[0]['value'], context = {}) =>
  authMachine.resolveState({
    value,
    context: { ...createActor(authMachine).getSnapshot().context, ...context },
  });

describe('login form (spec §5)', () => {
  it('requires the email, the password and the terms agreement', () => {
    const errors = validateLogin({ email: '', password: '', agreed: false });
    expect(english(errors.email)).toBe('Email is required');
    expect(english(errors.password)).toBe('Password is required');
    expect(english(errors.agreed)).toBe('You must agree to the terms');
  });

  it('asks for a password of at least 6 characters', () => {
    expect(english(validateLogin({ email: 'a@b.co', password: '12345', agreed: true }).password)).toBe(
      'Password must be at least 6 characters',
    );
  });

  it('rejects an address that is not an e-mail', () => {
    expect(english(validateLogin({ email: 'nobody', password: 'secret1', agreed: true }).email)).toBe(
      'Enter a valid email address',
    );
  });

  it('accepts a complete form', () => {
    expect(validateLogin({ email: ' demo@edge.local ', password: 'demo-edge-2026', agreed: true })).toEqual(
      {},
    );
  });

  it('reads the demo account only when it has the expected shape', () => {
    expect(parseDemoAccount({ enabled: true, email: 'd@e.f', password: 'pw' })).toEqual({
      enabled: true,
      email: 'd@e.f',
      password: 'pw',
    });
    expect(parseDemoAccount({ enabled: false })).toEqual({ enabled: false, email: '', password: '' });
    expect(parseDemoAccount({ enabled: true, email: 3 })).toBeNull();
    expect(parseDemoAccount('nope')).toBeNull();
  });
});

describe('what the auth views show (snapshotToView)', () => {
  it('is signed in, with the user, in any signed-in state', () => {
    const view = snapshotToView(authIn({ signedIn: 'active' }, { token: 't', user }));
    expect(view).toMatchObject({ signedIn: true, busy: false, email: user.email, submitting: false });
  });

  it('shows the form as sending, and busy, while the login request runs', () => {
    expect(snapshotToView(authIn({ signedOut: 'submitting' }))).toMatchObject({
      signedIn: false,
      submitting: true,
      busy: true,
    });
  });

  it('shows the confirm-mail message only while it is open', () => {
    const message = 'Please confirm your e-mail';
    expect(
      snapshotToView(authIn({ signedOut: 'confirmMail' }, { confirmMailMessage: message })).confirmMail,
    ).toBe(message);
    expect(
      snapshotToView(authIn({ signedOut: 'idle' }, { confirmMailMessage: message })).confirmMail,
    ).toBeNull();
  });

  it('is restoring, and busy, until the stored session is read', () => {
    expect(snapshotToView(authIn('restoring'))).toMatchObject({
      restoring: true,
      busy: true,
      signedIn: false,
    });
  });
});
