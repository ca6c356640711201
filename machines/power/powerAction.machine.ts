/**
 * One power action on one device — spec §7 restartDevice, shutDownDevice, force-shut-down, restartItself and
 * "Sudo" (check-sudo-saved, check-sudo); §5 sudo dialog ("Password field can not be empty", "Invalid
 * Password."); §8 "Sudo privileged is required", "Unable to force shut down the device", "Success" ("may take
 * a few minutes"), "Shutdown Successful"; §9 "Client restarts 10 s after confirm".
 *
 * Spawned by the power registry (power.machine.ts), one per device at a time:
 *   confirming → (restartClient: restartDelay, CLIENT_RESTART_DELAY_MS) → checkingSaved (check-sudo-saved:
 *   a saved password, or none needed, goes straight on) → askingSudo (the dialog, §5 validation) →
 *   checkingSudo (check-sudo; wrong → "Invalid Password." and ask again) → sending (the power command;
 *   sudo_required or invalid_password → ask again) → waitingOffline (the device's connection drops) →
 *   waitingOnline (it is open again) → done.
 * A shut-down shows "Shutdown Successful" once the device is off; a simulated one comes back ("powered on
 * again") and the action ends when it does. Failures end in `failed` with the §8 text (or the device's words).
 * Presence is read from the devices feature by the provided `watchPresence` actor (`power.presence`).
 * Notices are emitted (`notice`); the registry hears `power.ended` and `power.sudoSaved`.
 */
import { assign, emit, enqueueActions, fromCallback, fromPromise, setup, type AnyActorRef } from 'xstate';
import type { ConsoleEmitted } from '../notifications/emitted';
import { errorText } from '../notifications/emitted';
import { CLIENT_RESTART_DELAY_MS, POWER_ERROR_CODES, POWER_TEXTS } from '../../src/protocol/powerTexts';

/** What a power action does (src/protocol/power.ts PowerAction). */
export type PowerActionKind = 'reboot' | 'shutdown' | 'forceShutdown' | 'restartClient';

/** How long the device may take to leave after accepting, ms. */
export const OFFLINE_WAIT_MS = 120_000;
/** How long a rebooting or restarting device may take to come back, ms (§8 "may take a few minutes"). */
export const ONLINE_WAIT_MS = 600_000;

/** Texts of ours beside the §5/§8 ones (English; the console translates them by key). */
export const POWER_FLOW_TEXTS = {
  backOnline: 'The device is back online',
  notOffline: 'The device did not go offline',
  notBack: 'The device did not come back online',
  failed: 'The power action failed',
} as const;

export interface PowerActionInput {
  deviceId: string;
  deviceName: string;
  action: PowerActionKind;
  /** Who hears `power.ended` / `power.sudoSaved` (the registry); null alone. */
  reportTo?: AnyActorRef | null;
}

export interface PowerActionContext extends Required<PowerActionInput> {
  /** The password just checked (sent with the command); null: the saved one is used, or none needed. */
  password: string | null;
  /** The sudo dialog's error (§5 / §8 text), null when none. */
  sudoError: string | null;
  /** Why the action failed (§8 text or the device's words). */
  error: string | null;
  /** A shut-down device has gone off ("Shutdown Successful" shown). */
  wentOff: boolean;
}

export type PowerActionEvent =
  | { type: 'power.confirm' }
  | { type: 'power.cancel' }
  /** The sudo dialog's submit; save: keep the password (encrypted) on the device. */
  | { type: 'sudo.submit'; password: string; save: boolean }
  /** watchPresence: is the device's connection open? */
  | { type: 'power.presence'; online: boolean };

/** Reports to the registry. */
export type PowerActionReport =
  | { type: 'power.ended'; deviceId: string; outcome: 'done' | 'failed' | 'cancelled' }
  | { type: 'power.sudoSaved'; deviceId: string; saved: boolean };

/** A device command failure as the platform gives it (DeviceCommandError: code + message). */
const codeOf = (error: unknown): string | null =>
  typeof error === 'object' && error && 'code' in error && typeof error.code === 'string' ? error.code : null;

const notProvided = (name: string): never => {
  throw new Error(`powerAction: actor '${name}' is not provided`);
};

/** The effects, named; src/console/features/power/actors.ts provides them. */
export const powerActionActors = {
  /** check-sudo-saved → { saved, needed }. */
  checkSudoSaved: fromPromise<{ saved: boolean; needed: boolean }, { deviceId: string }>(async () =>
    notProvided('checkSudoSaved'),
  ),
  /** check-sudo → { saved }; rejects with code invalid_password when wrong. */
  checkSudo: fromPromise<{ saved: boolean }, { deviceId: string; password: string; save: boolean }>(
    async () => notProvided('checkSudo'),
  ),
  /** The power command (restartDevice | shutDownDevice | force-shut-down | restartItself). */
  sendPower: fromPromise<unknown, { deviceId: string; action: PowerActionKind; password: string | null }>(
    async () => notProvided('sendPower'),
  ),
  /** Sends `power.presence { online }` now and whenever the device's connection opens or drops. */
  watchPresence: fromCallback<PowerActionEvent, { deviceId: string }>(() => notProvided('watchPresence')),
};

/** Tells the registry how the action ended. */
function report(
  context: PowerActionContext,
  enqueue: { sendTo: (to: AnyActorRef, event: PowerActionReport) => void },
  outcome: 'done' | 'failed' | 'cancelled',
): void {
  if (context.reportTo)
    enqueue.sendTo(context.reportTo, { type: 'power.ended', deviceId: context.deviceId, outcome });
}

const deviceOf = ({ context }: { context: PowerActionContext }) => ({ deviceId: context.deviceId });

export const powerActionMachine = setup({
  types: {
    context: {} as PowerActionContext,
    events: {} as PowerActionEvent,
    input: {} as PowerActionInput,
    emitted: {} as ConsoleEmitted,
  },
  actors: powerActionActors,
  delays: {
    clientRestart: CLIENT_RESTART_DELAY_MS,
    offlineWait: OFFLINE_WAIT_MS,
    onlineWait: ONLINE_WAIT_MS,
  },
  guards: {
    isClientRestart: ({ context }) => context.action === 'restartClient',
    emptyPassword: ({ event }) => event.type === 'sudo.submit' && event.password.length === 0,
    noSudoNeeded: ({ event }) => {
      const out = (event as { output?: { saved: boolean; needed: boolean } }).output;
      return !!out && (out.saved || !out.needed);
    },
    wrongPassword: ({ event }) =>
      codeOf((event as { error?: unknown }).error) === POWER_ERROR_CODES.invalidPassword,
    sudoRefused: ({ event }) => {
      const code = codeOf((event as { error?: unknown }).error);
      return code === POWER_ERROR_CODES.invalidPassword || code === POWER_ERROR_CODES.sudoRequired;
    },
    isShutdown: ({ context }) => context.action === 'shutdown' || context.action === 'forceShutdown',
    offline: ({ event }) => event.type === 'power.presence' && !event.online,
    online: ({ event }) => event.type === 'power.presence' && event.online,
  },
  actions: {
    setEmptyError: assign({ sudoError: POWER_TEXTS.emptyPassword }),
    setInvalidError: assign({ sudoError: POWER_TEXTS.invalidPassword }),
    /** The command refused the sudo password: the saved one stopped working, or the given one is wrong. */
    setRefusedError: assign({
      password: null,
      sudoError: ({ event }) =>
        codeOf((event as { error?: unknown }).error) === POWER_ERROR_CODES.invalidPassword
          ? POWER_TEXTS.invalidPassword
          : POWER_TEXTS.sudoRequired,
    }),
    keepPassword: assign({
      password: ({ event }) => (event.type === 'sudo.submit' ? event.password : null),
      sudoError: null,
    }),
    /** A failure's text: force-shut-down's is §8 "Unable to force shut down the device". */
    setError: assign({
      error: ({ event }) => {
        const error = (event as { error?: unknown }).error;
        if (codeOf(error) === POWER_ERROR_CODES.forceFailed) return POWER_TEXTS.forceFailed;
        return errorText(error, POWER_FLOW_TEXTS.failed);
      },
    }),
    reportSaved: enqueueActions(({ context, event, enqueue }) => {
      const out = (event as { output?: { saved?: boolean } }).output;
      if (context.reportTo && typeof out?.saved === 'boolean') {
        enqueue.sendTo(context.reportTo, {
          type: 'power.sudoSaved',
          deviceId: context.deviceId,
          saved: out.saved,
        } satisfies PowerActionReport);
      }
    }),
    /** §8 "Success" … "may take a few minutes" (reboot, shut-down); the client restart says nothing yet. */
    noticeAccepted: emit(({ context }): ConsoleEmitted => ({
      type: 'notice',
      title: POWER_TEXTS.success,
      message: `${context.deviceName}: ${POWER_TEXTS.mayTakeMinutes}`,
      variant: 'success',
    })),
    noticeShutdown: emit(({ context }): ConsoleEmitted => ({
      type: 'notice',
      title: POWER_TEXTS.shutdownSuccessful,
      message: context.deviceName,
      variant: 'success',
    })),
    markOff: assign({ wentOff: true }),
    noticeBack: emit(({ context }): ConsoleEmitted => ({
      type: 'notice',
      title: POWER_TEXTS.success,
      message: `${context.deviceName}: ${POWER_FLOW_TEXTS.backOnline}`,
      variant: 'success',
    })),
    noticeFailed: emit(({ context }): ConsoleEmitted => ({
      type: 'notice',
      title: context.deviceName,
      message: context.error ?? POWER_FLOW_TEXTS.failed,
      variant: 'danger',
    })),
    setNotOffline: assign({ error: POWER_FLOW_TEXTS.notOffline }),
    setNotBack: assign({ error: POWER_FLOW_TEXTS.notBack }),
    forgetPassword: assign({ password: null }),
    reportDone: enqueueActions(({ context, enqueue }) => report(context, enqueue, 'done')),
    reportFailed: enqueueActions(({ context, enqueue }) => report(context, enqueue, 'failed')),
    reportCancelled: enqueueActions(({ context, enqueue }) => report(context, enqueue, 'cancelled')),
  },
}).createMachine({
  id: 'powerAction',
  context: ({ input }) => ({
    deviceId: input.deviceId,
    deviceName: input.deviceName,
    action: input.action,
    reportTo: input.reportTo ?? null,
    password: null,
    sudoError: null,
    error: null,
    wentOff: false,
  }),
  initial: 'confirming',
  states: {
    confirming: {
      on: {
        'power.confirm': [{ guard: 'isClientRestart', target: 'restartDelay' }, { target: 'checkingSaved' }],
        'power.cancel': { target: 'cancelled' },
      },
    },
    /** §9 "Client restarts 10 s after confirm". */
    restartDelay: {
      after: { clientRestart: { target: 'sending' } },
      on: { 'power.cancel': { target: 'cancelled' } },
    },
    checkingSaved: {
      invoke: {
        id: 'checkSudoSaved',
        src: 'checkSudoSaved',
        input: deviceOf,
        onDone: [{ guard: 'noSudoNeeded', target: 'sending' }, { target: 'askingSudo' }],
        onError: { target: 'failed', actions: 'setError' },
      },
    },
    /** The sudo dialog (§5). */
    askingSudo: {
      on: {
        'sudo.submit': [
          { guard: 'emptyPassword', actions: 'setEmptyError' },
          { target: 'checkingSudo', actions: 'keepPassword' },
        ],
        'power.cancel': { target: 'cancelled' },
      },
    },
    checkingSudo: {
      invoke: {
        id: 'checkSudo',
        src: 'checkSudo',
        input: ({ context, event }) => ({
          deviceId: context.deviceId,
          password: context.password ?? '',
          save: event.type === 'sudo.submit' && event.save,
        }),
        onDone: { target: 'sending', actions: 'reportSaved' },
        onError: [
          { guard: 'wrongPassword', target: 'askingSudo', actions: ['forgetPassword', 'setInvalidError'] },
          { target: 'failed', actions: 'setError' },
        ],
      },
    },
    sending: {
      invoke: {
        id: 'sendPower',
        src: 'sendPower',
        input: ({ context }) => ({
          deviceId: context.deviceId,
          action: context.action,
          password: context.password,
        }),
        onDone: [
          { guard: 'isClientRestart', target: 'waitingOffline', actions: 'forgetPassword' },
          { target: 'waitingOffline', actions: ['forgetPassword', 'noticeAccepted'] },
        ],
        onError: [
          { guard: 'sudoRefused', target: 'askingSudo', actions: 'setRefusedError' },
          { target: 'failed', actions: ['forgetPassword', 'setError'] },
        ],
      },
    },
    /** Accepted: the device leaves (its connection drops). */
    waitingOffline: {
      invoke: { id: 'presence', src: 'watchPresence', input: deviceOf },
      on: {
        'power.presence': [
          { guard: 'online' },
          { guard: 'isShutdown', target: 'waitingOnline', actions: ['markOff', 'noticeShutdown'] },
          { target: 'waitingOnline' },
        ],
      },
      after: { offlineWait: { target: 'failed', actions: 'setNotOffline' } },
    },
    /** Off the air; back when its connection is open again (a real shut-down device stays here). */
    waitingOnline: {
      invoke: { id: 'presence', src: 'watchPresence', input: deviceOf },
      on: {
        'power.presence': { guard: 'online', target: 'done', actions: 'noticeBack' },
      },
      after: {
        onlineWait: [
          { guard: 'isShutdown', target: 'done' },
          { target: 'failed', actions: 'setNotBack' },
        ],
      },
    },
    done: { type: 'final', entry: ['forgetPassword', 'reportDone'] },
    failed: { type: 'final', entry: ['forgetPassword', 'noticeFailed', 'reportFailed'] },
    cancelled: { type: 'final', entry: ['forgetPassword', 'reportCancelled'] },
  },
});
