/**
 * The alarms list machine on model-based paths (issue 11 /alarms): load, fail and reload; a save (with and
 * without the alarm's channels) reloads the list and bumps `saved`, a failed save keeps its error for the
 * editor; delete asks, is cancelled or confirmed (reload), a failed delete goes back to the list; reset.
 * The save actor is given the channel ids of the event (the editor's ChannelPicker) and none when absent.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { alarmsMachine, type AlarmsLoaded } from '../../../machines/alarms/alarms.machine';
import type { AlarmView } from '../../../src/protocol/alarms';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof alarmsMachine>;

const alarm: AlarmView = {
  id: '6f1c2a8e-6a43-4b57-9a8e-2f4f1f1d7c01',
  name: 'Door',
  kind: 'object',
  sources: [{ type: 'PHYSICAL', text: 'Cam 1', value: 'dev-1_cam-1' }],
  classes: ['person'],
  zones: [],
  min_score: 0.3,
  cooldown_seconds: 30,
  severity: 'warning',
  calendar_ids: [],
  calendars: [],
  silences: [],
  enabled: true,
  active: true,
  created_at: '2026-11-25T10:00:00.000Z',
  updated_at: '2026-11-25T10:00:00.000Z',
};

const loaded: AlarmsLoaded = { alarms: [alarm], cameras: [], calendars: [] };
const body = { name: 'Door', sources: alarm.sources };

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const list = (xs: object[]) => xs as unknown as EventObject[];
  switch (type) {
    case 'alarm.save':
      return list([
        { type, id: null, body },
        { type, id: alarm.id, body, channel_ids: ['c1'] },
      ]);
    case 'delete.ask':
      return list([{ type, id: alarm.id }]);
    case 'xstate.done.actor.loadAlarms':
      return list([{ type, output: loaded }]);
    case 'xstate.error.actor.loadAlarms':
      return list([{ type, error: new Error('Servers are unavailable.') }]);
    case 'xstate.done.actor.saveAlarm':
      return list([{ type, output: alarm }]);
    case 'xstate.error.actor.saveAlarm':
      return list([{ type, error: new Error('An alarm with this name already exists.') }]);
    case 'xstate.done.actor.deleteAlarm':
      return list([{ type, output: undefined }]);
    case 'xstate.error.actor.deleteAlarm':
      return list([{ type, error: new Error('refused') }]);
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.alarms.length,
    s.context.error,
    s.context.saveError,
    s.context.saved > 0,
    s.context.target?.id ?? null,
  ]);

describe('alarms machine (model-based paths)', () => {
  it('follows every modelled path on the real machine', async () => {
    const paths = createMachineTestModel(alarmsMachine, { events: eventsFor, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (driver: Driver) =>
      createActor(
        alarmsMachine.provide({
          actors: {
            loadAlarms: driver.promise('loadAlarms'),
            saveAlarm: driver.promise('saveAlarm'),
            deleteAlarm: driver.promise('deleteAlarm'),
          },
        }),
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['idle', 'loading', 'ready', 'failed', 'saving', 'confirming', 'deleting'] as const)
      expect(ends.some((s) => s.matches(st))).toBe(true);
    // A failed save keeps its error for the editor; a saved one bumps `saved`.
    expect(ends.some((s) => s.matches('ready') && s.context.saveError !== null)).toBe(true);
    expect(ends.some((s) => s.context.saved > 0)).toBe(true);
  });

  it('gives the save actor the channel ids of the event, and none when the event has none', async () => {
    const inputs: unknown[] = [];
    const actor = createActor(
      alarmsMachine.provide({
        actors: {
          loadAlarms: fromPromise(async () => loaded),
          saveAlarm: fromPromise(async ({ input }) => {
            inputs.push(input);
            return alarm;
          }),
        },
      }),
    ).start();
    actor.send({ type: 'alarms.load' });
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'alarm.save', id: alarm.id, body, channel_ids: ['c1', 'c2'] });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().context.saved).toBe(1);
    actor.send({ type: 'alarm.save', id: null, body });
    await new Promise((r) => setTimeout(r, 0));
    expect(inputs).toEqual([
      expect.objectContaining({ id: alarm.id, channelIds: ['c1', 'c2'] }),
      expect.objectContaining({ id: null, channelIds: undefined }),
    ]);
    actor.stop();
  });
});
