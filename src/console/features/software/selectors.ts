/**
 * What the Software tab shows, read from the software registry (systemId 'software') and the device's client
 * update: pure `*ToView(snapshot)` functions (unit-tested without React) and the hooks the screens use. The
 * machine's English texts (UPDATE_FLOW_TEXTS) map to i18n keys with `textKeyOf`; the device's own words stay
 * as they are.
 */
import { useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import {
  UPDATE_FLOW_TEXTS,
  type clientUpdateMachine,
  type UpdateErrorType,
} from '../../../../machines/software/clientUpdate.machine';
import type {
  CheckOp,
  CheckState,
  ClientUpdateRef,
  softwareMachine,
} from '../../../../machines/software/software.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { actorOf, useSystem } from '../../shell/SystemProvider';

type SoftwareSnapshot = SnapshotFrom<typeof softwareMachine>;
type UpdateSnapshot = SnapshotFrom<typeof clientUpdateMachine>;
export type SoftwareRef = ActorRefFrom<typeof softwareMachine>;

/** The step of a client update the tab shows. */
export type UpdateStep =
  | 'checking'
  | 'downloading'
  | 'installing'
  | 'awaitingRestartConfirm'
  | 'countdown'
  | 'sending'
  | 'waitingOffline'
  | 'waitingOnline'
  | 'verifying'
  | 'done'
  | 'installed'
  | 'failed';

export interface UpdateView {
  step: UpdateStep;
  /** Download progress 0–100, null while unknown. */
  percent: number | null;
  bytesDone: number;
  bytesTotal: number;
  /** The version being installed. */
  version: string | null;
  /** When the countdown ends (ms since the epoch), or null. */
  restartAt: number | null;
  errorType: UpdateErrorType | null;
  error: string | null;
  /** Ended (done, installed, failed). */
  ended: boolean;
  /** Under way (a spinner shows). */
  busy: boolean;
}

/** One client update's view. */
export function updateToView(s: UpdateSnapshot): UpdateView {
  const value = s.value as string | Record<string, string>;
  const step = (typeof value === 'string' ? value : Object.values(value)[0]!) as UpdateStep;
  const { bytesDone, bytesTotal } = s.context;
  return {
    step,
    percent: bytesTotal > 0 ? Math.min(100, Math.round((bytesDone / bytesTotal) * 100)) : null,
    bytesDone,
    bytesTotal,
    version: s.context.installed,
    restartAt: s.context.restartAt,
    errorType: s.context.errorType,
    error: s.context.error,
    ended: s.status === 'done',
    busy: !['awaitingRestartConfirm', 'countdown', 'done', 'installed', 'failed'].includes(step),
  };
}

/** check-version-update's answer as the tab reads it. */
export interface VersionView {
  current: string;
  updateAvailable: boolean;
  installed: string | null;
  latest: { version: string; notes: string; size: number; created_at: string } | null;
}

/** A component check's answer as the tab reads it. */
export interface ComponentView {
  installed: string | null;
  latest: string | null;
  updateAvailable: boolean;
  running: boolean;
  restartNeeded: boolean;
  detail: string;
}

export interface SoftwareDeviceView {
  version: VersionView | null;
  checks: Partial<Record<CheckOp, CheckState>>;
  update: ClientUpdateRef | null;
  running: boolean;
}

function versionOf(result: unknown): VersionView | null {
  const r = result as Record<string, unknown> | null;
  if (!r || typeof r.current !== 'string') return null;
  const latest = r.latest as VersionView['latest'];
  return {
    current: r.current,
    updateAvailable: r.update_available === true,
    installed: typeof r.installed === 'string' ? r.installed : null,
    latest: latest && typeof latest.version === 'string' ? latest : null,
  };
}

/** A component check's answer, or null. */
export function componentOf(result: unknown): ComponentView | null {
  const r = result as Record<string, unknown> | null;
  if (!r || typeof r.component !== 'string') return null;
  return {
    installed: typeof r.installed === 'string' ? r.installed : null,
    latest: typeof r.latest === 'string' ? r.latest : null,
    updateAvailable: r.update_available === true,
    running: r.running === true,
    restartNeeded: r.restart_needed === true,
    detail: typeof r.detail === 'string' ? r.detail : '',
  };
}

/** An update under way on the device itself (get-download-upload-status), e.g. started before a reload. */
export interface DeviceUpdateView {
  version: string | null;
  percent: number;
}

/** The device's own update in flight from a get-download-upload-status answer, or null (none running). */
export function deviceUpdateOf(result: unknown): DeviceUpdateView | null {
  const r = result as Record<string, unknown> | null;
  if (!r || typeof r.state !== 'string') return null;
  if (!['checking', 'downloading', 'verifying', 'installing'].includes(r.state)) return null;
  const done = typeof r.bytes_done === 'number' ? r.bytes_done : 0;
  const total = typeof r.bytes_total === 'number' ? r.bytes_total : 0;
  return {
    version: typeof r.version === 'string' ? r.version : null,
    percent: total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0,
  };
}

/** The registry's view for one device. */
export function softwareToView(s: SoftwareSnapshot, deviceId: string): SoftwareDeviceView {
  const checks = s.context.checks[deviceId] ?? {};
  return {
    version: versionOf(checks.version?.result ?? null),
    checks,
    update: s.context.updates[deviceId] ?? null,
    running: s.context.running.includes(deviceId),
  };
}

/** The i18n key (`software.flow.*`) of a machine's English text, or null (the device's words). */
export function textKeyOf(text: string): string | null {
  const f = Object.entries(UPDATE_FLOW_TEXTS).find(([, english]) => english === text);
  return f ? `software.flow.${f[0]}` : null;
}

/** Bytes as "12.3 MB" (decimal units, one decimal). */
export function formatBytes(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

export const useSoftwareRef = (): SoftwareRef => actorOf<SoftwareRef>(useSystem(), SYSTEM_IDS.software);

export function useSoftwareView(deviceId: string): SoftwareDeviceView {
  return useSelector(
    useSoftwareRef(),
    (s) => softwareToView(s, deviceId),
    (a, b) =>
      a.update === b.update &&
      a.running === b.running &&
      JSON.stringify(a.checks) === JSON.stringify(b.checks),
  );
}

export function useUpdateView(ref: ClientUpdateRef): UpdateView {
  return useSelector(ref, updateToView, (a, b) => JSON.stringify(a) === JSON.stringify(b));
}
