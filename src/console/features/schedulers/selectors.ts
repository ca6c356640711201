/**
 * Pure views of `/schedulers` (issue 10; src/protocol/schedulers.ts) and their hooks: the calendars list
 * machine's snapshot as calendar rows — state now and the next edge per calendar and so per job ("starts Mon
 * 08:00 Europe/Berlin"), the jobs, and each device's answer to the last send (timer armed or not) — and the
 * edit machine's snapshot as the editor's view.
 */
import { useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { calendarEditMachine } from '../../../../machines/schedulers/calendarEdit.machine';
import type { calendarsMachine } from '../../../../machines/schedulers/calendars.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { JobState } from '../../../protocol/inference';
import {
  calendarState,
  type CalendarInput,
  type CalendarInterval,
  type DeviceCalendarStatus,
} from '../../../protocol/schedulers';
import { actorOf, useSystem } from '../../shell/SystemProvider';
import { normalize } from './week';

export type CalendarsSnapshot = SnapshotFrom<typeof calendarsMachine>;
export type CalendarEditSnapshot = SnapshotFrom<typeof calendarEditMachine>;

/** The BCP 47 locale of an interface language (one definition, in i18n/language.ts). */
export { localeOf } from '../../i18n/language';

/** An instant as the calendar's zone reads it: short weekday and 24-hour time ("Mon 08:00"). */
export function edgeText(at: number, zone: string, locale: string): string {
  const parts = new Intl.DateTimeFormat(locale, {
    timeZone: zone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('weekday')} ${get('hour')}:${get('minute')}`;
}

/** A weekday's short name in `locale` (0 Sunday … 6 Saturday). */
export function weekdayName(weekday: number, locale: string, width: 'short' | 'long' = 'short'): string {
  // 4 January 2026 was a Sunday.
  return new Intl.DateTimeFormat(locale, { weekday: width, timeZone: 'UTC' }).format(
    Date.UTC(2026, 0, 4 + weekday),
  );
}

export interface NextEdge {
  kind: 'start' | 'stop';
  at: number;
  /** "Mon 08:00" in the calendar's zone. */
  when: string;
}

export interface DeviceAnswer {
  deviceId: string;
  label: string;
  /** The device holds the calendar and its timer is set for the next edge. */
  armed: boolean;
  next: NextEdge | null;
  /** Why the device does not hold it, or the last start/stop it could not do. */
  error: string | null;
}

export interface CalendarRow {
  id: string;
  name: string;
  zone: string;
  active: boolean;
  next: NextEdge | null;
  intervals: { weekday: number; day: string; start: string; end: string }[];
  jobs: { id: string; name: string; device: string; camera: string; state: JobState | null }[];
  /** null: not sent from this page since it was opened. */
  devices: DeviceAnswer[] | null;
}

export interface CalendarsView {
  state: 'idle' | 'loading' | 'failed' | 'ready' | 'confirming' | 'deleting';
  rows: CalendarRow[];
  /** Jobs the editor can attach: id, label, the calendar holding it now. */
  jobs: { id: string; label: string; calendar: string | null }[];
  lastUpdate: number | null;
  loading: boolean;
  error: string | null;
  target: { id: string; name: string } | null;
}

const edge = (n: { at: number; kind: 'start' | 'stop' } | null, zone: string, locale: string) =>
  n ? { kind: n.kind, at: n.at, when: edgeText(n.at, zone, locale) } : null;

/** The list's view at instant `now` (the state and next edge are recomputed, so the page stays current). */
export function calendarsToView(s: CalendarsSnapshot, now: number, locale: string): CalendarsView {
  const c = s.context;
  const jobs = new Map(c.jobs.map((j) => [j.id, j]));
  const labels = new Map(c.jobs.map((j) => [j.device_id, j.device_label]));
  const holder = new Map<string, string>();
  for (const cal of c.calendars) for (const id of cal.job_ids) holder.set(id, cal.name);
  return {
    state: s.value as CalendarsView['state'],
    rows: c.calendars.map((cal): CalendarRow => {
      const st = calendarState(cal, now);
      const answers = c.devices[cal.id];
      return {
        id: cal.id,
        name: cal.name,
        zone: cal.time_zone,
        active: st.active,
        next: edge(st.next, cal.time_zone, locale),
        intervals: normalize(cal.intervals).map((i) => ({ ...i, day: weekdayName(i.weekday, locale) })),
        jobs: cal.job_ids.map((id) => {
          const j = jobs.get(id);
          return {
            id,
            name: j?.job_name ?? id,
            device: j?.device_label ?? '',
            camera: j?.camera_label || j?.cameras[0] || '',
            state: j?.state ?? null,
          };
        }),
        devices: answers
          ? answers.map((a) => deviceAnswer(a, labels.get(a.deviceId) ?? a.deviceId, cal.time_zone, locale))
          : null,
      };
    }),
    jobs: c.jobs.map((j) => ({
      id: j.id,
      label: `${j.job_name} · ${j.application_name} · ${j.device_label}${j.camera_label ? ` · ${j.camera_label}` : ''}`,
      calendar: holder.get(j.id) ?? null,
    })),
    lastUpdate: c.lastUpdate,
    loading: s.hasTag('busy'),
    error: c.error,
    target: c.target ? { id: c.target.id, name: c.target.name } : null,
  };
}

function deviceAnswer(
  a: { deviceId: string; error: string | null; status?: DeviceCalendarStatus | null },
  label: string,
  zone: string,
  locale: string,
): DeviceAnswer {
  const status = a.status ?? null;
  return {
    deviceId: a.deviceId,
    label,
    armed: a.error === null && !!status?.next,
    next: status ? edge(status.next, zone, locale) : null,
    error: a.error ?? status?.last_error ?? null,
  };
}

export interface CalendarEditView {
  state: 'editing' | 'saving' | 'syncing' | 'synced' | 'syncFailed';
  isNew: boolean;
  draft: CalendarInput;
  intervals: CalendarInterval[];
  canSave: boolean;
  busy: boolean;
  error: { code: string; message: string } | null;
  savedId: string | null;
  results: { deviceId: string; error: string | null; status: DeviceCalendarStatus | null }[];
}

export function calendarEditToView(s: CalendarEditSnapshot): CalendarEditView {
  const c = s.context;
  return {
    state: s.value as CalendarEditView['state'],
    isNew: c.saved === null,
    draft: c.draft,
    intervals: normalize(c.draft.intervals),
    canSave: s.matches('editing') && c.draft.name.trim().length > 0,
    busy: s.matches('saving') || s.matches('syncing'),
    error: c.error,
    savedId: c.id,
    results: c.results.map((r) => ({ deviceId: r.deviceId, error: r.error, status: r.status ?? null })),
  };
}

export function useCalendarsRef(): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.schedulers);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useCalendarsView(now: number, locale: string): CalendarsView {
  return useSelector(useCalendarsRef(), (s: CalendarsSnapshot) => calendarsToView(s, now, locale), same);
}
