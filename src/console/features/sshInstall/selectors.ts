/**
 * The SSH install's snapshot → view mapping (pure, unit-tested) and the hooks the screens read it with
 * (spec §3 "SSH install": step groups with children — message, ok, error, start, endpoint; connection list;
 * sshStatus; §4 states).
 */
import { useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import {
  sshStatusOf,
  type SshFailure,
  type SshInstallRef,
  type SshInstallTarget,
  type SshStatus,
  type sshInstallMachine,
} from '../../../../machines/sshInstall/sshInstall.machine';
import type { SshInstallsRef } from '../../../../machines/sshInstall/sshInstalls.machine';
import { groupOk, type StepGroup, type StepStatus } from '../../../../machines/sshInstall/steps';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { SshProcess } from '../../../protocol/sshInstall';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type InstallSnapshot = SnapshotFrom<typeof sshInstallMachine>;

/** One step as shown: status, elapsed time (ms; live while running), message, error, output lines. */
export interface StepView {
  endpoint: SshProcess;
  status: StepStatus;
  ok: boolean | null;
  message: string;
  error: { code: string; message: string } | null;
  elapsedMs: number | null;
  output: readonly string[];
}

/** A group: ok only when every child succeeded (§4); failed when one failed or was canceled. */
export interface GroupView {
  id: StepGroup['id'];
  status: 'pending' | 'running' | 'ok' | 'failed';
  children: StepView[];
}

/** What the screen shows of one install. */
export type InstallPhase =
  | 'form'
  | 'connecting'
  | 'connected'
  | 'installing'
  | 'confirmRestart'
  | 'failed'
  | 'finishing'
  | 'done'
  | 'canceled'
  | 'closed';

export interface InstallView {
  phase: InstallPhase;
  /** §4 sshStatus. */
  sshStatus: SshStatus;
  target: SshInstallTarget;
  fingerprint: string | null;
  keyType: string | null;
  pinnedNow: boolean;
  connectError: SshFailure | null;
  groups: GroupView[];
  failure: { endpoint: SshProcess; code: string; message: string } | null;
  canInstall: boolean;
  canCancel: boolean;
  canRetry: boolean;
  canDisconnect: boolean;
  canForgetHostKey: boolean;
}

function groupStatus(g: StepGroup): GroupView['status'] {
  if (g.children.some((s) => s.status === 'failed' || s.status === 'canceled')) return 'failed';
  if (groupOk(g)) return 'ok';
  if (g.children.some((s) => s.status !== 'pending')) return 'running';
  return 'pending';
}

/** Groups as shown at `now` (ms since the epoch: a running step's elapsed time counts to it). */
export function groupsToView(groups: readonly StepGroup[], now: number): GroupView[] {
  return groups.map((g) => ({
    id: g.id,
    status: groupStatus(g),
    children: g.children.map((s) => ({
      endpoint: s.endpoint,
      status: s.status,
      ok: s.ok,
      message: s.message,
      error: s.error,
      elapsedMs: s.start === null ? null : Math.max(0, (s.end ?? now) - s.start),
      output: s.output,
    })),
  }));
}

function phaseOf(s: InstallSnapshot): InstallPhase {
  const m = (v: unknown) => s.matches(v as never);
  if (m('done')) return 'done';
  if (m('canceled') || m({ installing: 'canceling' })) return 'canceled';
  if (m('closed') || m('closing')) return 'closed';
  if (m({ installing: 'confirmRestart' })) return 'confirmRestart';
  if (m({ installing: 'failed' })) return 'failed';
  if (m({ installing: 'finishing' })) return 'finishing';
  if (m('installing')) return 'installing';
  if (m('connected')) return 'connected';
  if (m('connecting')) return 'connecting';
  return 'form';
}

/** The view of an install snapshot at `now`. */
export function installToView(s: InstallSnapshot, now: number): InstallView {
  const c = s.context;
  const phase = phaseOf(s);
  return {
    phase,
    sshStatus: sshStatusOf(s),
    target: c.target,
    fingerprint: c.fingerprint,
    keyType: c.keyType,
    pinnedNow: c.pinnedNow,
    connectError: c.connectError,
    groups: groupsToView(c.groups, now),
    failure: c.failure,
    canInstall: s.can({ type: 'ssh.install' }),
    canCancel: s.can({ type: 'ssh.cancel' }),
    canRetry: s.can({ type: 'ssh.retry' }),
    canDisconnect: s.can({ type: 'ssh.disconnect' }) && phase !== 'failed',
    canForgetHostKey: s.can({ type: 'ssh.forgetHostKey' }),
  };
}

/** §3 connection list entry (device, deviceId, done, canceled, doneTime, installSteps) of an install snapshot. */
export function connectionEntryOf(s: InstallSnapshot) {
  const c = s.context;
  return {
    device: c.target.device,
    deviceId: c.target.deviceId,
    done: c.done,
    canceled: c.canceled,
    doneTime: c.doneTime,
    installSteps: c.groups,
  };
}

export const useSshInstallsRef = (): SshInstallsRef =>
  actorOf<SshInstallsRef>(useSystem(), SYSTEM_IDS.sshInstall);

/** The install the screen shows (the registry's current), or null. */
export function useCurrentInstall(): SshInstallRef | null {
  const ref = useSshInstallsRef();
  return useSelector(ref, (s) =>
    s.context.current ? (s.context.installs[s.context.current] ?? null) : null,
  );
}

/** True while any install is in its installing state (§2 unload warning). */
export function useAnyInstalling(ref: SshInstallsRef | undefined): boolean {
  return useSelector(ref, (s) => (s ? s.context.installing.length > 0 : false)) ?? false;
}
