/**
 * Two-factor enrolment — TOTP on and off (issue 13 "Two-factor sign-in with TOTP"; the panel on /profile/account-information).
 *
 *   loading → off | on                         (verify-auth: is TOTP on, how many recovery codes are left)
 *   off  --twoFactorSetup.start-->  starting → scanning   (two-factor/setup: secret, otpauth URI, QR code)
 *   scanning --twoFactorSetup.confirm {code}--> enabling → showingCodes (recovery codes, shown once) | scanning (error)
 *   showingCodes --twoFactorSetup.done--> on   (the codes are forgotten)
 *   on --twoFactorSetup.disable {password}--> disabling → off | on (error)
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorText } from '../notifications/emitted';

export const TWO_FACTOR_SETUP_ERRORS = { failed: 'Servers are unavailable.' } as const;

/** A pending enrolment: the secret (base32, shown for manual entry), its otpauth URI and QR code (SVG text). */
export interface PendingSetup {
  secret: string;
  otpauthUrl: string;
  qrSvg: string;
}

export interface TwoFactorSetupContext {
  enabled: boolean;
  recoveryCodesLeft: number;
  pending: PendingSetup | null;
  /** The recovery codes, only while `showingCodes`. */
  recoveryCodes: string[] | null;
  error: string | null;
}

export type TwoFactorSetupEvent =
  | { type: 'twoFactorSetup.start' }
  | { type: 'twoFactorSetup.cancel' }
  | { type: 'twoFactorSetup.confirm'; code: string }
  | { type: 'twoFactorSetup.done' }
  | { type: 'twoFactorSetup.disable'; password: string }
  | { type: 'twoFactorSetup.retry' };

const notProvided = (name: string) => () => {
  throw new Error(`twoFactorSetup: actor '${name}' is not provided`);
};
const failure = ({ event }: { event: { error: unknown } }) =>
  errorText(event.error, TWO_FACTOR_SETUP_ERRORS.failed);

export const twoFactorSetupMachine = setup({
  types: { context: {} as TwoFactorSetupContext, events: {} as TwoFactorSetupEvent },
  actors: {
    /** GET verify-auth → two-factor state. */
    loadState: fromPromise<{ enabled: boolean; recoveryCodesLeft: number }>(async () =>
      notProvided('loadState')(),
    ),
    /** POST two-factor/setup. */
    startSetup: fromPromise<PendingSetup>(async () => notProvided('startSetup')()),
    /** POST two-factor/enable { code } → recovery codes. Rejects with the text to show (wrong code). */
    enable: fromPromise<string[], { code: string }>(async () => notProvided('enable')()),
    /** POST two-factor/disable { password }. */
    disable: fromPromise<void, { password: string }>(async () => notProvided('disable')()),
  },
  guards: {
    isEnabled: (_, params: { enabled: boolean }) => params.enabled,
  },
}).createMachine({
  id: 'twoFactorSetup',
  initial: 'loading',
  context: { enabled: false, recoveryCodesLeft: 0, pending: null, recoveryCodes: null, error: null },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadState',
        src: 'loadState',
        onDone: [
          {
            guard: { type: 'isEnabled', params: ({ event }) => ({ enabled: event.output.enabled }) },
            target: 'on',
            actions: assign({
              enabled: true,
              recoveryCodesLeft: ({ event }) => event.output.recoveryCodesLeft,
            }),
          },
          { target: 'off', actions: assign({ enabled: false, recoveryCodesLeft: 0 }) },
        ],
        onError: { target: 'failed', actions: assign({ error: failure }) },
      },
    },
    failed: { on: { 'twoFactorSetup.retry': { target: 'loading', actions: assign({ error: null }) } } },
    off: { on: { 'twoFactorSetup.start': { target: 'starting', actions: assign({ error: null }) } } },
    starting: {
      tags: ['busy'],
      invoke: {
        id: 'startSetup',
        src: 'startSetup',
        onDone: { target: 'scanning', actions: assign({ pending: ({ event }) => event.output }) },
        onError: { target: 'off', actions: assign({ error: failure }) },
      },
    },
    scanning: {
      on: {
        'twoFactorSetup.confirm': { target: 'enabling', actions: assign({ error: null }) },
        'twoFactorSetup.cancel': { target: 'off', actions: assign({ pending: null, error: null }) },
      },
    },
    enabling: {
      tags: ['busy'],
      invoke: {
        id: 'enable',
        src: 'enable',
        input: ({ event }) => ({ code: event.type === 'twoFactorSetup.confirm' ? event.code : '' }),
        onDone: {
          target: 'showingCodes',
          actions: assign({
            pending: null,
            enabled: true,
            recoveryCodes: ({ event }) => event.output,
            recoveryCodesLeft: ({ event }) => event.output.length,
          }),
        },
        onError: { target: 'scanning', actions: assign({ error: failure }) },
      },
    },
    showingCodes: {
      on: { 'twoFactorSetup.done': { target: 'on', actions: assign({ recoveryCodes: null }) } },
    },
    on: {
      on: { 'twoFactorSetup.disable': { target: 'disabling', actions: assign({ error: null }) } },
    },
    disabling: {
      tags: ['busy'],
      invoke: {
        id: 'disable',
        src: 'disable',
        input: ({ event }) => ({ password: event.type === 'twoFactorSetup.disable' ? event.password : '' }),
        onDone: { target: 'off', actions: assign({ enabled: false, recoveryCodesLeft: 0 }) },
        onError: { target: 'on', actions: assign({ error: failure }) },
      },
    },
  },
});
