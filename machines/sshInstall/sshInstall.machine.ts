/**
 * One SSH install — spec §4 "SSH install", §3 "SSH install", §7 connect-ssh / ssh-command, §8 SSH texts
 * (issue 12).
 *
 * Spawned per install by the sshInstalls registry (systemId 'sshInstall').
 *
 * States (§4 idle, connecting, connected, installing, then null when finished — `sshStatusOf`):
 *   idle ──ssh.connect──▶ connecting ──ok──▶ connected ──ssh.install──▶ installing.running (one step at a time)
 *   connecting ──refused──▶ idle (§8 "SSH connection has been failed." with the code; 5xx: "…Server got itself
 *   in trouble.")
 *   installing.running ──step ok──▶ next step (steps.ts nextStep: docker install only when the check did not
 *   pass; the restart asked first — installing.confirmRestart — and skipped when not needed or declined;
 *   start-client when no restart happened) ──complete──▶ finishing (disconnect) ──▶ done (dialog
 *   "Installation successful")
 *   installing.running ──step failed──▶ installing.failed (dialog "Installation to {device} has failed" with the
 *   failing step and message) ──ssh.retry──▶ running the same step ("retry from this step")
 *   installing ──ssh.cancel──▶ canceling (the step's request aborted, then disconnect) ──▶ canceled
 *   connected / failed ──ssh.disconnect──▶ closing ──▶ closed ("Disconnected.")
 * Every state change is reported to the registry (`sshInstalls.changed`), which tells the shell an install runs
 * (§2 unload warning). Pure: the REST work is provided (src/console/features/sshInstall/actors.ts).
 */
import { assign, emit, fromCallback, fromPromise, setup, type ActorRefFrom, type AnyActorRef } from 'xstate';
import type { SshConnectAnswer, SshProcess, SshStepResult } from '../../src/protocol/sshInstall';
import { SSH_TEXTS } from '../../src/protocol/sshInstall';
import type { ConsoleEmitted } from '../notifications/emitted';
import {
  factsAfter,
  initialGroups,
  nextStep,
  OUTPUT_KEEP_LINES,
  resultPasses,
  skippedBetween,
  stepOf,
  updateStep,
  type RunFacts,
  type StepGroup,
} from './steps';

/** Where to install (the device record exists first: §7 connect-ssh names a device_id). */
export interface SshInstallTarget {
  /** The device's peer id; '' until connect created the record (ssh-install/device). */
  deviceId: string;
  /** Its label (§3 connection list `device`). */
  device: string;
  hostname: string;
  port: number;
  username: string;
}

/** Credentials, kept in this actor's memory only until it finishes. */
export type SshCredentials =
  { kind: 'password'; password: string } | { kind: 'key'; pemFile: Blob; passphrase?: string };

export interface SshInstallInput {
  /** The registry's key of this install. */
  key?: string;
  target: SshInstallTarget;
  /** The registry, told of every status change. */
  reportTo?: AnyActorRef;
  now?: () => number;
}

/** A refused call: code and message (ApiRequestError-like). */
export interface SshFailure {
  code: string;
  message: string;
  /** HTTP status (0: no answer, ≥ 500: the server's trouble). */
  status?: number;
}

export type SshInstallEvent =
  /** Connect (again, after a refusal: with new credentials and, in idle, an edited target). */
  | { type: 'ssh.connect'; credentials: SshCredentials; target?: Omit<SshInstallTarget, 'deviceId'> }
  | { type: 'ssh.install' }
  | { type: 'ssh.cancel' }
  | { type: 'ssh.retry' }
  | { type: 'ssh.restart.confirm' }
  | { type: 'ssh.restart.decline' }
  | { type: 'ssh.disconnect' }
  | { type: 'ssh.forgetHostKey' }
  /** The running step printed lines. */
  | { type: 'step.output'; lines: string[] }
  /** The running step ended (its NDJSON result). */
  | { type: 'step.result'; result: SshStepResult }
  /** The step could not run (HTTP error, network). */
  | { type: 'step.error'; error: SshFailure };

/** §4 sshStatus: idle, connecting, connected, installing, then null when finished. */
export type SshStatus = 'idle' | 'connecting' | 'connected' | 'installing' | null;

/** connect's answer: connect-ssh's, plus the device record's peer id (created first when needed). */
export type SshConnectOutput = SshConnectAnswer & { device_id: string };

export interface SshInstallContext {
  key: string;
  target: SshInstallTarget;
  credentials: SshCredentials | null;
  reportTo: AnyActorRef | null;
  now: () => number;
  sessionId: string | null;
  /** Host key shown to the operator (§ issue: "fingerprint shown and pinned on first use"). */
  fingerprint: string | null;
  keyType: string | null;
  pinnedNow: boolean;
  connectError: SshFailure | null;
  groups: StepGroup[];
  facts: RunFacts;
  /** The step running, or the one that failed (retry runs it again). */
  current: SshProcess | null;
  failure: { endpoint: SshProcess; code: string; message: string } | null;
  /** §3 connection list entry facts. */
  done: boolean;
  canceled: boolean;
  doneTime: number | null;
  startedAt: number | null;
}

const isServerTrouble = (e: SshFailure) => (e.status ?? 0) >= 500;

const notProvided = (name: string): never => {
  throw new Error(`sshInstall: actor '${name}' is not provided`);
};

/** Closes the SSH session, then goes to `target` whether or not the server answered (§4 "then disconnect"). */
const disconnectThen = (target: string) =>
  ({
    id: 'disconnect',
    src: 'disconnect',
    input: ({ context }: { context: SshInstallContext }) => ({ sessionId: context.sessionId }),
    onDone: { target },
    onError: { target },
  }) as const;

export const sshInstallMachine = setup({
  types: {
    input: {} as SshInstallInput,
    context: {} as SshInstallContext,
    events: {} as SshInstallEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    /** connect-ssh → its answer; rejects with SshFailure. */
    connect: fromPromise<SshConnectOutput, { target: SshInstallTarget; credentials: SshCredentials }>(
      async () => notProvided('connect'),
    ),
    /** ssh-command, streaming: step.output… then step.result or step.error. Stopping it aborts the request. */
    runStep: fromCallback<
      SshInstallEvent,
      { sessionId: string; endpoint: SshProcess; payload: Record<string, unknown> }
    >(() => notProvided('runStep')),
    /** ssh-disconnect (never rejects: a gone session is disconnected too). */
    disconnect: fromPromise<void, { sessionId: string | null }>(async () => notProvided('disconnect')),
    /** ssh-host-keys/forget. */
    forgetHostKey: fromPromise<void, { hostname: string; port: number }>(async () =>
      notProvided('forgetHostKey'),
    ),
  },
  guards: {
    hasCredentials: ({ context }) => context.credentials !== null,
    stepPassed: ({ context, event }) =>
      event.type === 'step.result' && context.current !== null && resultPasses(context.current, event.result),
    nextIsRun: ({ context }) => nextStep(context.current, context.facts).kind === 'run',
    nextIsConfirm: ({ context }) => nextStep(context.current, context.facts).kind === 'confirmRestart',
    hostKeyChanged: ({ context }) => context.connectError?.code === 'SSH_HOST_KEY_CHANGED',
  },
  actions: {
    /** Tells the registry this install changed state (it re-reads sshStatus). */
    report: ({ context }, params: { installing: boolean }) => {
      context.reportTo?.send({
        type: 'sshInstalls.changed',
        key: context.key,
        installing: params.installing,
      });
    },
    keepCredentials: assign(({ context, event }) =>
      event.type === 'ssh.connect'
        ? {
            credentials: event.credentials,
            connectError: null,
            target: event.target ? { ...event.target, deviceId: context.target.deviceId } : context.target,
          }
        : {},
    ),
    forgetCredentials: assign({ credentials: null }),
    connected: assign(({ context, event }) => {
      const a = (event as unknown as { output: SshConnectOutput }).output;
      return {
        sessionId: a.session_id,
        fingerprint: a.fingerprint,
        keyType: a.key_type,
        pinnedNow: a.pinned_now,
        target: { ...context.target, deviceId: a.device_id },
      };
    }),
    /** A refused connect; a device record it created meanwhile (error.deviceId) is reused by the next try. */
    connectFailed: assign(({ context, event }) => {
      const error = (event as unknown as { error: SshFailure & { deviceId?: string } }).error;
      return {
        connectError: { code: error.code, message: error.message, status: error.status },
        sessionId: null,
        target: error.deviceId ? { ...context.target, deviceId: error.deviceId } : context.target,
      };
    }),
    noticeConnected: emit((): ConsoleEmitted => ({
      type: 'notice',
      title: 'SSH',
      message: SSH_TEXTS.connected,
      variant: 'success',
      i18n: { message: { key: 'sshInstall.texts.connected' } },
    })),
    noticeConnectFailed: emit(({ context }): ConsoleEmitted => {
      const e = context.connectError;
      const trouble = e ? isServerTrouble(e) : false;
      return {
        type: 'notice',
        title: trouble ? SSH_TEXTS.serverTrouble : SSH_TEXTS.connectFailed,
        message: e ? `${e.code}: ${e.message}` : '',
        variant: 'danger',
        i18n: {
          title: { key: trouble ? 'sshInstall.texts.serverTrouble' : 'sshInstall.texts.connectFailed' },
        },
      };
    }),
    noticeDisconnected: emit((): ConsoleEmitted => ({
      type: 'notice',
      title: 'SSH',
      message: SSH_TEXTS.disconnected,
      variant: 'info',
      i18n: { message: { key: 'sshInstall.texts.disconnected' } },
    })),
    startInstall: assign(({ context }) => ({
      groups: initialGroups(),
      facts: { dockerMissing: false, restartNeeded: false, restartConfirmed: null },
      current: null,
      failure: null,
      startedAt: context.now(),
    })),
    /** Moves to the next step to run: marks the skipped ones, starts it. */
    advance: assign(({ context }) => {
      const next = nextStep(context.current, context.facts);
      if (next.kind !== 'run') return {};
      let groups = context.groups;
      for (const s of skippedBetween(context.current, next.endpoint))
        groups = updateStep(groups, s, () => ({ status: 'skipped', ok: true, message: 'Skipped' }));
      const now = context.now();
      groups = updateStep(groups, next.endpoint, () => ({
        status: 'running',
        ok: null,
        error: null,
        start: now,
        end: null,
        message: '',
        output: [],
      }));
      return { groups, current: next.endpoint };
    }),
    /** Retry from the failed step: it runs again. */
    restartCurrent: assign(({ context }) => {
      if (!context.current) return {};
      const now = context.now();
      return {
        failure: null,
        groups: updateStep(context.groups, context.current, () => ({
          status: 'running',
          ok: null,
          error: null,
          start: now,
          end: null,
          message: '',
          output: [],
        })),
      };
    }),
    /** Marks the steps after the last one (none left to run) skipped. */
    skipRest: assign(({ context }) => {
      let groups = context.groups;
      for (const s of skippedBetween(context.current, null))
        if (stepOf(groups, s).status === 'pending')
          groups = updateStep(groups, s, () => ({ status: 'skipped', ok: true, message: 'Skipped' }));
      return { groups };
    }),
    appendOutput: assign({
      groups: ({ context, event }) => {
        if (event.type !== 'step.output' || !context.current) return context.groups;
        return updateStep(context.groups, context.current, (s) => {
          const output = [...s.output, ...event.lines];
          return {
            output: output.length > OUTPUT_KEEP_LINES ? output.slice(-OUTPUT_KEEP_LINES) : output,
            message: event.lines[event.lines.length - 1] ?? s.message,
          };
        });
      },
    }),
    stepPassed: assign(({ context, event }) => {
      if (event.type !== 'step.result' || !context.current) return {};
      const r = event.result;
      return {
        facts: factsAfter(context.current, r, context.facts),
        groups: updateStep(context.groups, context.current, () => ({
          status: 'ok',
          ok: true,
          end: context.now(),
          message: r.message,
        })),
      };
    }),
    stepFailed: assign(({ context, event }) => {
      if (!context.current) return {};
      const e =
        event.type === 'step.result'
          ? { code: event.result.code ?? 'SSH_STEP_FAILED', message: event.result.message }
          : event.type === 'step.error'
            ? { code: event.error.code, message: event.error.message }
            : { code: 'SSH_STEP_FAILED', message: 'The step failed.' };
      return {
        failure: { endpoint: context.current, ...e },
        groups: updateStep(context.groups, context.current, () => ({
          status: 'failed',
          ok: false,
          error: e,
          end: context.now(),
          message: e.message,
        })),
      };
    }),
    dialogFailed: emit(({ context }): ConsoleEmitted => {
      const f = context.failure;
      return {
        type: 'dialog',
        title: SSH_TEXTS.installFailed.replace('{device}', context.target.device),
        message: f ? `${f.endpoint} — ${f.code}: ${f.message}` : '',
      };
    }),
    dialogSucceeded: emit(({ context }): ConsoleEmitted => ({
      type: 'dialog',
      title: SSH_TEXTS.installSucceeded,
      message: context.target.device,
    })),
    answerRestart: assign({
      facts: ({ context, event }) => ({
        ...context.facts,
        restartConfirmed: event.type === 'ssh.restart.confirm',
      }),
    }),
    markCanceled: assign(({ context }) => ({
      canceled: true,
      doneTime: context.now(),
      groups: context.current
        ? updateStep(context.groups, context.current, (s) =>
            s.status === 'running'
              ? { status: 'canceled', ok: false, end: context.now(), message: 'Canceled' }
              : {},
          )
        : context.groups,
    })),
    markDone: assign(({ context }) => ({ done: true, doneTime: context.now() })),
  },
}).createMachine({
  id: 'sshInstall',
  context: ({ input }) => ({
    key: input.key ?? input.target.deviceId,
    target: input.target,
    credentials: null,
    reportTo: input.reportTo ?? null,
    now: input.now ?? Date.now,
    sessionId: null,
    fingerprint: null,
    keyType: null,
    pinnedNow: false,
    connectError: null,
    groups: initialGroups(),
    facts: { dockerMissing: false, restartNeeded: false, restartConfirmed: null },
    current: null,
    failure: null,
    done: false,
    canceled: false,
    doneTime: null,
    startedAt: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      entry: { type: 'report', params: { installing: false } },
      tags: ['editable'],
      on: {
        'ssh.connect': { target: 'connecting', actions: 'keepCredentials' },
        'ssh.forgetHostKey': { guard: 'hostKeyChanged', target: 'forgetting' },
      },
    },
    forgetting: {
      invoke: {
        id: 'forgetHostKey',
        src: 'forgetHostKey',
        input: ({ context }) => ({ hostname: context.target.hostname, port: context.target.port }),
        onDone: { target: 'idle', actions: assign({ connectError: null }) },
        onError: { target: 'idle' },
      },
    },
    connecting: {
      entry: { type: 'report', params: { installing: false } },
      tags: ['busy'],
      invoke: {
        id: 'connect',
        src: 'connect',
        input: ({ context }) => ({ target: context.target, credentials: context.credentials! }),
        onDone: { target: 'connected', actions: ['connected', 'noticeConnected'] },
        onError: { target: 'idle', actions: ['connectFailed', 'forgetCredentials', 'noticeConnectFailed'] },
      },
    },
    connected: {
      entry: { type: 'report', params: { installing: false } },
      on: {
        'ssh.install': { target: 'installing', actions: 'startInstall' },
        'ssh.disconnect': 'closing',
      },
    },
    installing: {
      entry: { type: 'report', params: { installing: true } },
      tags: ['installing'],
      initial: 'next',
      on: { 'ssh.cancel': '.canceling' },
      states: {
        next: {
          always: [
            { guard: 'nextIsRun', target: 'running', actions: 'advance' },
            { guard: 'nextIsConfirm', target: 'confirmRestart' },
            { target: 'finishing', actions: 'skipRest' },
          ],
        },
        running: {
          tags: ['stepRunning'],
          invoke: {
            id: 'runStep',
            src: 'runStep',
            input: ({ context }) => ({
              sessionId: context.sessionId!,
              endpoint: context.current!,
              payload: context.current === 'restart-device' ? { confirmed: true } : {},
            }),
          },
          on: {
            'step.output': { actions: 'appendOutput' },
            'step.result': [
              { guard: 'stepPassed', target: 'next', actions: 'stepPassed' },
              { target: 'failed', actions: ['stepFailed', 'dialogFailed'] },
            ],
            'step.error': { target: 'failed', actions: ['stepFailed', 'dialogFailed'] },
          },
        },
        confirmRestart: {
          tags: ['confirmRestart'],
          on: {
            'ssh.restart.confirm': { target: 'next', actions: 'answerRestart' },
            'ssh.restart.decline': { target: 'next', actions: 'answerRestart' },
          },
        },
        failed: {
          tags: ['failed'],
          on: {
            'ssh.retry': { target: 'running', actions: 'restartCurrent' },
            'ssh.disconnect': '#sshInstall.closing',
          },
        },
        finishing: {
          invoke: disconnectThen('#sshInstall.done'),
        },
        canceling: {
          entry: 'markCanceled',
          invoke: disconnectThen('#sshInstall.canceled'),
        },
      },
    },
    closing: {
      invoke: disconnectThen('closed'),
    },
    done: {
      type: 'final',
      entry: [
        'markDone',
        'forgetCredentials',
        'dialogSucceeded',
        'noticeDisconnected',
        { type: 'report', params: { installing: false } },
      ],
    },
    canceled: {
      type: 'final',
      entry: ['forgetCredentials', 'noticeDisconnected', { type: 'report', params: { installing: false } }],
    },
    closed: {
      type: 'final',
      entry: [
        assign(({ context }) => ({ doneTime: context.now() })),
        'forgetCredentials',
        'noticeDisconnected',
        { type: 'report', params: { installing: false } },
      ],
    },
  },
});

export type SshInstallRef = ActorRefFrom<typeof sshInstallMachine>;

/** §4 sshStatus of a snapshot: idle, connecting, connected, installing, or null when finished. */
export function sshStatusOf(snapshot: { matches: (v: never) => boolean; status: string }): SshStatus {
  const m = (v: string) => snapshot.matches(v as never);
  if (snapshot.status === 'done' || m('done') || m('canceled') || m('closed')) return null;
  if (m('installing')) return 'installing';
  if (m('connected') || m('closing')) return 'connected';
  if (m('connecting')) return 'connecting';
  return 'idle';
}
