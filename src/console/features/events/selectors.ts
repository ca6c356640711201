/**
 * Pure views of the events timeline and the alarm dashboard (issue 11 `/events`, `/alarm-dashboard`) and
 * their hooks.
 */
import { useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type {
  alarmDashboardMachine,
  DashboardRange,
} from '../../../../machines/events/alarmDashboard.machine';
import type { EventFilters, eventsMachine } from '../../../../machines/events/events.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { EventsSummary, EventView } from '../../../protocol/events';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type EventsSnapshot = SnapshotFrom<typeof eventsMachine>;
export type DashboardSnapshot = SnapshotFrom<typeof alarmDashboardMachine>;

export interface EventsView {
  state: string;
  filters: EventFilters;
  events: EventView[];
  selected: string[];
  allSelected: boolean;
  hasMore: boolean;
  busy: boolean;
  error: string | null;
  open: EventView | null;
}

export function eventsToView(s: EventsSnapshot): EventsView {
  const c = s.context;
  return {
    state: String(s.value),
    filters: c.filters,
    events: c.events,
    selected: c.selected,
    allSelected: c.events.length > 0 && c.events.every((e) => c.selected.includes(e.id)),
    hasMore: c.next !== null,
    busy: s.hasTag('busy'),
    error: c.error,
    open: c.events.find((e) => e.id === c.openId) ?? null,
  };
}

export interface DashboardView {
  state: string;
  range: DashboardRange;
  summary: EventsSummary | null;
  /** Tallest hourly bar (for scaling), ≥ 1. */
  peak: number;
  busy: boolean;
  error: string | null;
}

export function dashboardToView(s: DashboardSnapshot): DashboardView {
  const c = s.context;
  return {
    state: String(s.value),
    range: c.range,
    summary: c.summary,
    peak: Math.max(1, ...(c.summary?.per_hour.map((h) => h.count) ?? [])),
    busy: s.hasTag('busy'),
    error: c.error,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const useEventsRef = (): AnyActorRef => actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.events);
export const useDashboardRef = (): AnyActorRef =>
  actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.alarmDashboard);

export function useEventsView(): EventsView {
  return useSelector(useEventsRef(), (s: EventsSnapshot) => eventsToView(s), same);
}
export function useDashboardView(): DashboardView {
  return useSelector(useDashboardRef(), (s: DashboardSnapshot) => dashboardToView(s), same);
}
