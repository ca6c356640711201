/**
 * What the logs screens show, read from the logs registry (systemId 'logs') and its logTail children, and the
 * connected devices from the device pool: pure `*ToView(snapshot)` functions and their hooks. No protocol
 * values are imported (zod stays out of the screens' chunk).
 */
import { shallowEqual, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { ActorRefFrom, AnyActorRef, SnapshotFrom } from 'xstate';
import { visibleRows, type LogLine } from '../../../../machines/logs/logLines';
import type { DeviceLogInfo, logsMachine } from '../../../../machines/logs/logs.machine';
import { runUuid, type LogErrorKind, type logTailMachine } from '../../../../machines/logs/logTail.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type LogsRef = ActorRefFrom<typeof logsMachine>;
export type LogsSnapshot = SnapshotFrom<typeof logsMachine>;
export type LogTailRef = ActorRefFrom<typeof logTailMachine>;
export type LogTailSnapshot = SnapshotFrom<typeof logTailMachine>;

/** A device whose link is open. */
export interface LogDevice {
  deviceId: string;
  name: string;
}

/** The part of the device pool's snapshot read here (devicePool.machine.ts). */
export interface DevicePoolSnapshotLike {
  context: {
    order: readonly string[];
    status: Readonly<Record<string, string>>;
    connections: Readonly<Record<string, { getSnapshot(): { context: { device: { label: string } } } }>>;
  };
}

/** Devices whose link is open, oldest first. */
export function connectedDevicesOf(pool: DevicePoolSnapshotLike | undefined): LogDevice[] {
  if (!pool) return [];
  const c = pool.context;
  return c.order
    .filter((id) => c.status[id] === 'open' && c.connections[id])
    .map((id) => ({ deviceId: id, name: c.connections[id]!.getSnapshot().context.device.label || id }));
}

/** Where a viewer stands, for its buttons and status line. */
export type LogStatus = 'idle' | 'loading' | 'following' | 'paused' | 'ended' | 'failed';

export interface LogTailView {
  status: LogStatus;
  topic: string;
  subtopic: string;
  /** Rows shown: the newest matching lines (at most LOG_ROWS_MAX), up to the pause point. */
  rows: LogLine[];
  /** Lines in the buffer. */
  buffered: number;
  /** Lines received in all (the next sequence number). */
  received: number;
  lost: number;
  search: string;
  endReason: string | null;
  error: { kind: LogErrorKind; message: string } | null;
}

const IDLE: LogTailView = {
  status: 'idle',
  topic: '',
  subtopic: '',
  rows: [],
  buffered: 0,
  received: 0,
  lost: 0,
  search: '',
  endReason: null,
  error: null,
};

/** Where a logTail stands ('idle' when there is none). */
export function statusOf(s: LogTailSnapshot | undefined): LogStatus {
  if (!s) return 'idle';
  if (s.matches('ended')) return 'ended';
  if (s.matches('failed')) return 'failed';
  if (s.matches({ active: 'paused' })) return 'paused';
  return s.matches({ active: 'following' }) ? 'following' : 'loading';
}

/** A logTail snapshot (or none: nothing opened yet) as the viewer shows it. */
export function logTailToView(s: LogTailSnapshot | undefined): LogTailView {
  if (!s) return IDLE;
  const c = s.context;
  return {
    status: statusOf(s),
    topic: c.topic,
    subtopic: c.subtopic,
    rows: visibleRows(c.lines, c.search, c.pausedAt),
    buffered: c.lines.length,
    received: c.nextSeq,
    lost: c.lost,
    search: c.search,
    endReason: c.endReason,
    error: c.error,
  };
}

/** What the viewer's controls need (changes seldom: not with every batch). */
export interface LogTailHead {
  status: LogStatus;
  /** The uuid of the log process on the device ('' when none). */
  uuid: string;
  topic: string;
  subtopic: string;
  search: string;
  hasLines: boolean;
  endReason: string | null;
  error: { kind: LogErrorKind; message: string } | null;
}

/** The controls' part of a logTail snapshot. */
export function logTailHeadOf(s: LogTailSnapshot | undefined): LogTailHead {
  return {
    status: statusOf(s),
    uuid: s ? runUuid(s.context) : '',
    topic: s?.context.topic ?? '',
    subtopic: s?.context.subtopic ?? '',
    search: s?.context.search ?? '',
    hasLines: (s?.context.lines.length ?? 0) > 0,
    endReason: s?.context.endReason ?? null,
    error: s?.context.error ?? null,
  };
}

/** The viewer `id`'s logTail ref, when it is open. */
export function tailRefOf(s: LogsSnapshot, id: string): LogTailRef | undefined {
  return s.context.logs.find((l) => l.id === id)?.ref;
}

/** The device's topics (§3 Log info), or a loading entry before the first answer. */
export function infoOf(s: LogsSnapshot, deviceId: string | null): DeviceLogInfo {
  return (deviceId && s.context.info[deviceId]) || { status: 'loading', topics: [], error: null };
}

export const useLogsRef = (): LogsRef => actorOf<LogsRef>(useSystem(), SYSTEM_IDS.logs);

/** Connected devices (re-read when the pool changes). */
export function useLogDevices(): LogDevice[] {
  const system = useSystem();
  const pool = system.system.get(SYSTEM_IDS.devicePool) as AnyActorRef | undefined;
  const fallback = useLogsRef();
  return useSelector(
    pool ?? fallback,
    (s: unknown) => (pool ? connectedDevicesOf(s as DevicePoolSnapshotLike) : []),
    (a, b) => JSON.stringify(a) === JSON.stringify(b),
  );
}

export function useDeviceInfo(deviceId: string | null): DeviceLogInfo {
  return useSelector(useLogsRef(), (s: LogsSnapshot) => infoOf(s, deviceId), shallowEqual);
}

export function useTailRef(id: string): LogTailRef | undefined {
  return useSelector(useLogsRef(), (s: LogsSnapshot) => tailRefOf(s, id));
}

/** The viewer's controls' view: re-renders only when the status, search or error change. */
export function useLogTailHead(ref: LogTailRef | undefined): LogTailHead {
  const fallback = useLogsRef();
  return useSelector(
    ref ?? fallback,
    (s: unknown) => logTailHeadOf(ref ? (s as LogTailSnapshot) : undefined),
    shallowEqual,
  );
}

/** The viewer's view; recomputed only when its logTail's snapshot changes. */
export function useLogTailView(ref: LogTailRef | undefined): LogTailView {
  const fallback = useLogsRef();
  const snap = useSelector(ref ?? fallback, (s: unknown) => (ref ? (s as LogTailSnapshot) : undefined));
  return useMemo(() => logTailToView(snap), [snap]);
}
