/**
 * Pure views of the alarms screen (issue 11 `/alarms`; §3 Alarm) and their hooks: the list machine's snapshot
 * as rows (cameras named by their labels, calendars by their names) and the editor's options.
 */
import { useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { AlarmCamera, alarmsMachine } from '../../../../machines/alarms/alarms.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { AlarmView, Severity } from '../../../protocol/alarms';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type AlarmsSnapshot = SnapshotFrom<typeof alarmsMachine>;

export interface AlarmRow {
  id: string;
  name: string;
  kind: 'object' | 'face';
  cameras: string[];
  classes: string[];
  zones: number;
  minScore: number;
  cooldown: number;
  severity: Severity;
  calendars: string[];
  enabled: boolean;
  active: boolean;
}

export interface AlarmsView {
  state: 'idle' | 'loading' | 'failed' | 'ready' | 'saving' | 'confirming' | 'deleting';
  rows: AlarmRow[];
  cameras: AlarmCamera[];
  calendars: { id: string; name: string }[];
  busy: boolean;
  error: string | null;
  saveError: string | null;
  saved: number;
  target: { id: string; name: string } | null;
}

export const rowOf = (
  a: AlarmView,
  cameras: AlarmCamera[],
  calendars: { id: string; name: string }[],
): AlarmRow => ({
  id: a.id,
  name: a.name,
  kind: a.kind,
  cameras: a.sources.map((s) => cameras.find((c) => c.value === s.value)?.text ?? s.text ?? s.value),
  classes: a.classes,
  zones: a.zones.length,
  minScore: a.min_score,
  cooldown: a.cooldown_seconds,
  severity: a.severity,
  calendars: a.calendar_ids.map((id) => calendars.find((c) => c.id === id)?.name ?? id),
  enabled: a.enabled,
  active: a.active,
});

export function alarmsToView(s: AlarmsSnapshot): AlarmsView {
  const c = s.context;
  return {
    state: s.value as AlarmsView['state'],
    rows: c.alarms.map((a) => rowOf(a, c.cameras, c.calendars)),
    cameras: c.cameras,
    calendars: c.calendars,
    busy: s.hasTag('busy'),
    error: c.error,
    saveError: c.saveError,
    saved: c.saved,
    target: c.target ? { id: c.target.id, name: c.target.name } : null,
  };
}

export function useAlarmsRef(): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.alarms);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useAlarmsView(): AlarmsView {
  return useSelector(useAlarmsRef(), (s: AlarmsSnapshot) => alarmsToView(s), same);
}

/** The full alarm (for the editor). */
export function alarmById(ref: AnyActorRef, id: string): AlarmView | null {
  return (ref.getSnapshot() as AlarmsSnapshot).context.alarms.find((a) => a.id === id) ?? null;
}
