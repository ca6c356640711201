/**
 * The issue-13 screens' pure pieces: snapshot → view functions of the flow machines, and the register form's
 * validation (required, minimum length, terms agreement).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { mailLinkMachine, type LinkOutcome } from '../../../machines/accounts/mailLink.machine';
import { registerMachine, type RegisterForm } from '../../../machines/accounts/register.machine';
import { twoFactorMachine, type VerifyResult } from '../../../machines/accounts/twoFactor.machine';
import { twoFactorSetupMachine } from '../../../machines/accounts/twoFactorSetup.machine';
import {
  mailLinkToView,
  registerToView,
  twoFactorSetupToView,
  verifyCodeToView,
} from '../../../src/console/features/accounts/flowSelectors';
import { validateEmail, validateRegister } from '../../../src/console/features/accounts/registerValidation';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('validateRegister', () => {
  it('asks for every field, a valid address, 8 characters and the terms agreement', () => {
    expect(validateRegister({ email: '', username: ' ', password: '', agreed: false })).toEqual({
      email: 'accounts.register.errors.emailRequired',
      username: 'accounts.register.errors.usernameRequired',
      password: 'accounts.register.errors.passwordRequired',
      agreed: 'accounts.register.errors.termsRequired',
    });
    expect(validateRegister({ email: 'x@', username: 'A', password: '1234567', agreed: true })).toEqual({
      email: 'accounts.register.errors.emailInvalid',
      password: 'accounts.register.errors.passwordMin',
    });
    expect(validateRegister({ email: 'a@b.co', username: 'A', password: '12345678', agreed: true })).toEqual(
      {},
    );
    expect(validateEmail(' a@b.co ')).toBeNull();
  });
});

describe('flow views', () => {
  it('registerToView: loading, then the captcha key, then sent', async () => {
    const a = createActor(
      registerMachine.provide({
        actors: {
          loadConfig: fromPromise<string | null>(async () => 'site'),
          register: fromPromise<void, RegisterForm>(async () => undefined),
        },
      }),
    ).start();
    expect(registerToView(a.getSnapshot())).toMatchObject({ loading: true, sent: false });
    await tick();
    expect(registerToView(a.getSnapshot())).toMatchObject({ loading: false, recaptchaSiteKey: 'site' });
    a.send({ type: 'register.submit', form: { email: 'a@b.co', username: 'A', password: 'p' } });
    expect(registerToView(a.getSnapshot()).submitting).toBe(true);
    await tick();
    expect(registerToView(a.getSnapshot()).sent).toBe(true);
  });

  it('mailLinkToView: a confirm link that expired', async () => {
    const a = createActor(
      mailLinkMachine.provide({
        actors: {
          confirm: fromPromise<{ outcome: LinkOutcome; email: string | null }, { token: string }>(
            async () => ({
              outcome: 'expired',
              email: null,
            }),
          ),
        },
      }),
      { input: { kind: 'confirm', token: 't' } },
    ).start();
    expect(mailLinkToView(a.getSnapshot()).phase).toBe('confirming');
    await tick();
    expect(mailLinkToView(a.getSnapshot())).toEqual({ phase: 'expired', error: null, email: null });
  });

  it('verifyCodeToView: closed without a challenge; status 0 shows its text', async () => {
    expect(verifyCodeToView(undefined).open).toBe(false);
    const a = createActor(
      twoFactorMachine.provide({
        actors: {
          verify: fromPromise<VerifyResult, { challenge: string; code: string }>(async () => ({
            status: 0 as const,
            message: 'The verification code is incorrect',
          })),
        },
      }),
      { input: { challenge: 'c' } },
    ).start();
    a.send({ type: 'twoFactor.verify', code: '000000' });
    expect(verifyCodeToView(a.getSnapshot()).verifying).toBe(true);
    await tick();
    expect(verifyCodeToView(a.getSnapshot())).toEqual({
      open: true,
      verifying: false,
      resending: false,
      codeMailed: false,
      error: 'The verification code is incorrect',
    });
  });

  it('twoFactorSetupToView: the recovery codes only while shown', async () => {
    const a = createActor(
      twoFactorSetupMachine.provide({
        actors: {
          loadState: fromPromise<{ enabled: boolean; recoveryCodesLeft: number }>(async () => ({
            enabled: false,
            recoveryCodesLeft: 0,
          })),
          startSetup: fromPromise(async () => ({ secret: 'S', otpauthUrl: 'u', qrSvg: '<svg/>' })),
          enable: fromPromise(async () => ['a', 'b']),
        },
      }),
    ).start();
    await tick();
    expect(twoFactorSetupToView(a.getSnapshot()).phase).toBe('off');
    a.send({ type: 'twoFactorSetup.start' });
    await tick();
    expect(twoFactorSetupToView(a.getSnapshot())).toMatchObject({
      phase: 'scanning',
      pending: { secret: 'S' },
    });
    a.send({ type: 'twoFactorSetup.confirm', code: '123456' });
    await tick();
    expect(twoFactorSetupToView(a.getSnapshot())).toMatchObject({
      phase: 'showingCodes',
      recoveryCodes: ['a', 'b'],
    });
    a.send({ type: 'twoFactorSetup.done' });
    expect(twoFactorSetupToView(a.getSnapshot())).toMatchObject({
      phase: 'on',
      recoveryCodes: null,
      recoveryCodesLeft: 2,
    });
  });
});
