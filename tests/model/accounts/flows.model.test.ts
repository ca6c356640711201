/**
 * Model-based paths (xstate/graph) through the issue-13 account flow machines: register, mailRequest (forgot
 * password, resend verification), mailLink (confirm-mail, reset), twoFactor (the second sign-in step),
 * twoFactorSetup (enrolment) and mailbox. Every path runs against the real machine with fake actors.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyStateMachine, type EventObject, type SnapshotFrom } from 'xstate';
import { mailboxMachine } from '../../../machines/accounts/mailbox.machine';
import {
  MAIL_LINK_ERRORS,
  mailLinkMachine,
  type LinkOutcome,
} from '../../../machines/accounts/mailLink.machine';
import { mailRequestMachine } from '../../../machines/accounts/mailRequest.machine';
import { registerMachine } from '../../../machines/accounts/register.machine';
import { twoFactorMachine } from '../../../machines/accounts/twoFactor.machine';
import { twoFactorSetupMachine } from '../../../machines/accounts/twoFactorSetup.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

const user = { id: 'u1', email: 'a@b.co', username: 'a', bio: null, image: null, roles: ['user' as const] };
/** A sample event with a payload. */
const ev = (e: { type: string } & Record<string, unknown>) => e as EventObject;
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
const fail = (id: string, message = 'Servers are unavailable.') =>
  ({ type: `xstate.error.actor.${id}`, error: new Error(message) }) as EventObject;

/** Runs every shortest path of `machine` (transition coverage) and checks the states it must reach. */
async function cover(
  machine: AnyStateMachine,
  samples: Record<string, EventObject[]>,
  actors: (driver: Driver) => Record<string, unknown>,
  mustReach: string[],
  input?: unknown,
) {
  const key = (s: SnapshotFrom<AnyStateMachine>) => JSON.stringify([s.value, s.context]);
  const model = createMachineTestModel(machine, {
    events: (_s, type) => samples[type],
    key,
    input,
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });
  const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
  for (const v of mustReach) expect(reached).toContain(v);
  const steps = await runPaths(
    paths,
    (driver) => createActor(machine.provide({ actors: actors(driver) as never }), { input }).start(),
    key,
  );
  expect(steps).toBeGreaterThan(0);
}

describe('issue-13 account flows (model-based paths)', () => {
  it('register: config, submit, failure stays on the form, sent', async () => {
    await cover(
      registerMachine,
      {
        'xstate.done.actor.loadConfig': [done('loadConfig', null), done('loadConfig', 'site-key')],
        'xstate.error.actor.loadConfig': [fail('loadConfig')],
        'register.submit': [
          ev({ type: 'register.submit', form: { email: 'a@b.co', username: 'A', password: 'pw-12345678' } }),
        ],
        'xstate.done.actor.register': [done('register', undefined)],
        'xstate.error.actor.register': [fail('register', 'Please confirm you are not a robot.')],
      },
      (d) => ({ loadConfig: d.promise('loadConfig'), register: d.promise('register') }),
      ['"loading"', '"editing"', '"submitting"', '"sent"'],
    );
  });

  it('mailRequest: same "sent" whatever the address; a failure keeps the form with its text', async () => {
    await cover(
      mailRequestMachine,
      {
        'mailRequest.submit': [ev({ type: 'mailRequest.submit', email: 'a@b.co' })],
        'xstate.done.actor.request': [done('request', undefined)],
        'xstate.error.actor.request': [fail('request', 'Server not Accessible.')],
      },
      (d) => ({ request: d.promise('request') }),
      ['"editing"', '"sending"', '"sent"'],
    );
  });

  it('mailLink confirm: done, expired, failed and retried', async () => {
    await cover(
      mailLinkMachine,
      {
        'xstate.done.actor.confirm': [
          done('confirm', { outcome: 'done', email: 'a@b.co' }),
          done('confirm', { outcome: 'expired', email: null }),
        ],
        'xstate.error.actor.confirm': [fail('confirm')],
      },
      (d) => ({ confirm: d.promise('confirm'), reset: d.promise('reset') }),
      ['"confirming"', '"failed"', '"done"', '"expired"'],
      { kind: 'confirm', token: 't' },
    );
  });

  it('mailLink reset: saved, expired, or "Server not Accessible." on failure', async () => {
    await cover(
      mailLinkMachine,
      {
        'mailLink.submit': [ev({ type: 'mailLink.submit', password: 'new-password' })],
        'xstate.done.actor.reset': [done('reset', 'done'), done('reset', 'expired')],
        'xstate.error.actor.reset': [fail('reset')],
      },
      (d) => ({ confirm: d.promise('confirm'), reset: d.promise('reset') }),
      ['"editing"', '"saving"', '"done"', '"expired"'],
      { kind: 'reset', token: 't' },
    );
    const a = createActor(
      mailLinkMachine.provide({
        actors: {
          reset: fromPromise<LinkOutcome, { token: string; password: string }>(async () => {
            throw new Error('x');
          }),
        },
      }),
      { input: { kind: 'reset', token: 't' } },
    ).start();
    a.send({ type: 'mailLink.submit', password: 'p' });
    await new Promise((r) => setTimeout(r, 0));
    expect(a.getSnapshot().context.error).toBe(MAIL_LINK_ERRORS.resetFailed);
  });

  it('twoFactor: status 1 ends with the session, status 0 keeps the text, resend mails a code', async () => {
    await cover(
      twoFactorMachine,
      {
        'twoFactor.verify': [ev({ type: 'twoFactor.verify', code: '123456' })],
        'twoFactor.resend': [{ type: 'twoFactor.resend' }],
        'xstate.done.actor.verify': [
          done('verify', { status: 0, message: 'The verification code is incorrect' }),
          done('verify', { status: 1, tokens: { token: 't', refresh_token: 'r' }, user_info: user }),
        ],
        'xstate.error.actor.verify': [fail('verify')],
        'xstate.done.actor.resend': [done('resend', undefined)],
        'xstate.error.actor.resend': [fail('resend')],
      },
      (d) => ({ verify: d.promise('verify'), resend: d.promise('resend') }),
      ['"idle"', '"verifying"', '"resending"', '"verified"'],
      { challenge: 'c1' },
    );
  });

  it('twoFactorSetup: off → scanning → recovery codes → on → off, with failures', async () => {
    await cover(
      twoFactorSetupMachine,
      {
        'xstate.done.actor.loadState': [
          done('loadState', { enabled: false, recoveryCodesLeft: 0 }),
          done('loadState', { enabled: true, recoveryCodesLeft: 7 }),
        ],
        'xstate.error.actor.loadState': [fail('loadState')],
        'xstate.done.actor.startSetup': [
          done('startSetup', { secret: 'S', otpauthUrl: 'otpauth://totp/x', qrSvg: '<svg/>' }),
        ],
        'xstate.error.actor.startSetup': [fail('startSetup')],
        'twoFactorSetup.confirm': [ev({ type: 'twoFactorSetup.confirm', code: '123456' })],
        'xstate.done.actor.enable': [done('enable', ['aaaaa-bbbbb', 'ccccc-ddddd'])],
        'xstate.error.actor.enable': [fail('enable', 'The verification code is incorrect')],
        'twoFactorSetup.disable': [ev({ type: 'twoFactorSetup.disable', password: 'pw' })],
        'xstate.done.actor.disable': [done('disable', undefined)],
        'xstate.error.actor.disable': [fail('disable', 'The password is incorrect')],
      },
      (d) => ({
        loadState: d.promise('loadState'),
        startSetup: d.promise('startSetup'),
        enable: d.promise('enable'),
        disable: d.promise('disable'),
      }),
      [
        '"loading"',
        '"failed"',
        '"off"',
        '"starting"',
        '"scanning"',
        '"enabling"',
        '"showingCodes"',
        '"on"',
        '"disabling"',
      ],
    );
  });

  it('mailbox: load, refresh, clear, failures', async () => {
    await cover(
      mailboxMachine,
      {
        'xstate.done.actor.load': [
          done('load', { enabled: true, messages: [] }),
          done('load', { enabled: false, messages: [] }),
        ],
        'xstate.error.actor.load': [fail('load')],
        'xstate.done.actor.clear': [done('clear', undefined)],
        'xstate.error.actor.clear': [fail('clear')],
      },
      (d) => ({ load: d.promise('load'), clear: d.promise('clear') }),
      ['"loading"', '"ready"', '"clearing"'],
    );
  });
});
