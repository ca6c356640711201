/**
 * The alarms list machine on model-based paths (issue 11 /alarms): load, fail and reload; a save (with and
 * without the alarm's channels) reloads the list and bumps `saved`, a failed save keeps its error for the
 * editor; delete asks, is cancelled or confirmed (reload), a failed delete goes back to the list; reset.
 * The shared list machine's harness (tests/model/listHarness.ts). The save actor is given the channel ids of the event (the editor's ChannelPicker) and none when absent.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { alarmsMachine, type AlarmsLoaded } from '../../../machines/alarms/alarms.machine';
import type { AlarmView } from '../../../src/protocol/alarms';
import { listEvents, runListModel, sample, type ListSamples } from '../listHarness';

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

const shared: ListSamples = {
  load: { src: 'loadAlarms', output: loaded },
  remove: { src: 'deleteAlarm', error: 'refused' },
  listedId: alarm.id,
};

function eventsFor(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'alarm.save':
      return sample([
        { type, id: null, body },
        { type, id: alarm.id, body, channel_ids: ['c1'] },
      ]);
    case 'xstate.done.actor.saveAlarm':
      return sample([{ type, output: alarm }]);
    case 'xstate.error.actor.saveAlarm':
      return sample([{ type, error: new Error('An alarm with this name already exists.') }]);
    default:
      return listEvents(shared, type);
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
    const { ends } = await runListModel({
      machine: alarmsMachine,
      actors: ['loadAlarms', 'saveAlarm', 'deleteAlarm'],
      events: eventsFor,
      key,
      states: ['idle', 'loading', 'ready', 'failed', 'saving', 'confirming', 'deleting'],
    });
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
