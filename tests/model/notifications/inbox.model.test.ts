/**
 * The notification inbox (machines/notifications/inbox.machine.ts; §3 Notification, §7 real-time socket),
 * model-based: sign-in loads, a load failure and retry, pushed notifications counted once, read elsewhere,
 * mark one / all read with a failed save reloading, a reconnect reloading, sign-out forgetting; every path
 * followed on the real machine.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { addPushed, inboxMachine, markReadIn } from '../../../machines/notifications/inbox.machine';
import type { Notification } from '../../../src/protocol/notifications';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof inboxMachine>;
const n = (id: string, read = false): Notification => ({
  id,
  title: 'Yard',
  message: 'person · 90% · cam',
  variant: 'danger',
  time: '2026-11-28T00:00:00.000Z',
  read,
  event_id: null,
});
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

function events(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'xstate.done.actor.load':
      return [{ type, output: { notifications: [n(A)], unread: 1 } }] as unknown as EventObject[];
    case 'xstate.error.actor.load':
      return [{ type, error: new Error('offline') }] as unknown as EventObject[];
    case 'inbox.pushed':
      return [{ type, notification: n(B) }] as unknown as EventObject[];
    case 'inbox.markRead':
      return [{ type, id: A }] as unknown as EventObject[];
    case 'inbox.readElsewhere':
      return [{ type, ids: null }] as unknown as EventObject[];
    case 'xstate.error.actor.markRead':
    case 'xstate.error.actor.markAllRead':
      return [{ type, error: new Error('500') }] as unknown as EventObject[];
    default:
      return undefined;
  }
}
const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.unread,
    s.context.notifications.map((x) => [x.id, x.read]),
    s.context.connected,
  ]);

describe('inbox pure helpers', () => {
  it('adds a pushed notification once and counts it unread', () => {
    const one = addPushed({ notifications: [], unread: 0 }, n(A));
    expect(one.unread).toBe(1);
    expect(addPushed(one, n(A))).toEqual(one);
  });
  it('marks one or all read and keeps the count right', () => {
    const ctx = { notifications: [n(A), n(B), n('c', true)], unread: 5 };
    expect(markReadIn(ctx, [A]).unread).toBe(4);
    expect(markReadIn(ctx, ['c']).unread).toBe(5);
    expect(markReadIn(ctx, null)).toMatchObject({ unread: 0 });
  });
});

describe('inbox (model-based paths)', () => {
  const paths = createMachineTestModel(inboxMachine, { events, key }).getShortestPaths({
    allowDuplicatePaths: true,
  });

  it('reaches the states the bell shows', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.matches({ signedIn: 'ready' }) && s.context.unread === 2)).toBe(true);
    expect(ends.some((s) => s.matches({ signedIn: 'failed' }) && s.context.error === 'offline')).toBe(true);
    expect(ends.some((s) => s.matches({ signedIn: 'savingAll' }) && s.context.unread === 0)).toBe(true);
    expect(ends.some((s) => s.matches('signedOut') && s.context.notifications.length === 0)).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    const start = (driver: Driver) =>
      createActor(
        inboxMachine.provide({
          actors: {
            load: driver.promise<{ notifications: Notification[]; unread: number }, unknown>('load'),
            markRead: driver.promise<unknown, { id: string }>('markRead'),
            markAllRead: driver.promise<unknown, unknown>('markAllRead'),
            socket: driver.callback<EventObject, unknown>('socket'),
          },
        }),
        { clock: driver.clock },
      ).start();
    expect(await runPaths(paths, start, key)).toBeGreaterThan(paths.length);
  });
});
