/**
 * The alarms list and editor — issue 11 `/alarms` (spec §2 auth route; §3 Alarm: id, sources of type IP or
 * PHYSICAL with text and value, calendars): the user's alarms with what the editor offers (cameras,
 * scheduling calendars), saving one (then `alarm-new` to each device holding one of its cameras, §4 step 1 /
 * §7, so a running job matches the new list at once) and deleting one after a confirmation.
 *
 * idle → (alarms.load) → loading → ready | failed; alarms.refresh reloads; in ready: alarm.save → saving →
 * loading (notice) | ready (error kept for the editor, notice); delete.ask → confirming → delete.confirm →
 * deleting → loading; delete.cancel → ready (the shared list machine, machines/shared/listMachine.ts). Pure: the calls are the provided actors `loadAlarms`,
 * `saveAlarm` (save, its channels, device sync) and `deleteAlarm`. Tags: `busy` while loading, saving or deleting.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { AlarmInputIn, AlarmView } from '../../src/protocol/alarms';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';
import { listMachineConfig } from '../shared/listMachine';

/** A camera the editor offers: an alarm source (§3) with the device that has it. */
export interface AlarmCamera {
  type: 'IP' | 'PHYSICAL';
  /** The source value: a PHYSICAL camera's uniqueCameraId, an IP camera's id. */
  value: string;
  /** The source text: the camera's label. */
  text: string;
  /** The device's peer id (null: an IP camera not reached by a device). */
  deviceId: string | null;
  cameraId: string;
  deviceLabel: string;
}

export interface AlarmsLoaded {
  alarms: AlarmView[];
  cameras: AlarmCamera[];
  calendars: { id: string; name: string }[];
}

export interface AlarmsContext extends AlarmsLoaded {
  error: string | null;
  /** The editor's last save error (cleared by the next save). */
  saveError: string | null;
  /** Bumped on every successful save: the editor closes when it changes. */
  saved: number;
  target: AlarmView | null;
}

export type AlarmsEvent =
  | { type: 'alarms.load' }
  | { type: 'alarms.refresh' }
  /** channel_ids: the alarm channels its events go to (issue 11); left as they are when absent. */
  | { type: 'alarm.save'; id: string | null; body: AlarmInputIn; channel_ids?: string[] }
  | { type: 'delete.ask'; id: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'alarms.reset' };

const INITIAL: AlarmsContext = {
  alarms: [],
  cameras: [],
  calendars: [],
  error: null,
  saveError: null,
  saved: 0,
  target: null,
};

const alarmsSetup = setup({
  types: {
    context: {} as AlarmsContext,
    events: {} as AlarmsEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    loadAlarms: fromPromise<AlarmsLoaded>(async () => {
      throw new Error('alarms: loadAlarms is not provided');
    }),
    saveAlarm: fromPromise<
      AlarmView,
      { id: string | null; body: AlarmInputIn; cameras: AlarmCamera[]; channelIds?: string[] }
    >(async () => {
      throw new Error('alarms: saveAlarm is not provided');
    }),
    deleteAlarm: fromPromise<unknown, { id: string; cameras: AlarmCamera[] }>(async () => {
      throw new Error('alarms: deleteAlarm is not provided');
    }),
  },
  guards: {
    known: ({ context, event }) =>
      event.type === 'delete.ask' && context.alarms.some((a) => a.id === event.id),
  },
});

const saving = alarmsSetup.createStateConfig({
  tags: ['busy'],
  invoke: {
    id: 'saveAlarm',
    src: 'saveAlarm',
    input: ({ context, event }) => {
      const e = event as Extract<AlarmsEvent, { type: 'alarm.save' }>;
      return { id: e.id, body: e.body, cameras: context.cameras, channelIds: e.channel_ids };
    },
    onDone: {
      target: 'loading',
      actions: [
        assign(({ context }) => ({ saved: context.saved + 1 })),
        emit(({ event }) => ({
          type: 'notice' as const,
          variant: 'success' as const,
          title: 'Alarm saved',
          message: event.output.name,
          i18n: { title: { key: 'alarms.saved' } },
        })),
      ],
    },
    onError: {
      target: 'ready',
      actions: assign({
        saveError: ({ event }) => errorText(event.error, 'The alarm could not be saved.'),
      }),
    },
  },
});

export const alarmsMachine = alarmsSetup.createMachine(
  listMachineConfig(alarmsSetup, {
    id: 'alarms',
    items: 'alarms',
    context: INITIAL,
    start: 'alarms.load',
    reload: { ready: ['alarms.load', 'alarms.refresh'], failed: ['alarms.load', 'alarms.refresh'] },
    reset: { event: 'alarms.reset', context: INITIAL },
    load: {
      src: 'loadAlarms',
      loaded: (output: AlarmsLoaded) => ({ ...output, error: null }),
      failedText: 'The alarms could not be read.',
    },
    ready: alarmsSetup.createStateConfig({
      on: { 'alarm.save': { target: 'saving', actions: assign({ saveError: null }) } },
    }),
    states: { saving },
    remove: {
      src: 'deleteAlarm',
      guard: 'known',
      input: ({ context }: { context: AlarmsContext }) => ({
        id: context.target!.id,
        cameras: context.cameras,
      }),
      failedText: 'The alarm could not be deleted.',
      keepError: false,
      failedNotice: { title: 'Delete failed', key: 'alarms.deleteFailed' },
    },
  }),
);
