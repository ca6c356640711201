/**
 * The logs registry on model-based paths (xstate/graph through tests/model/harness.ts): selecting a device
 * loads its topics once, a failure is kept and can be loaded again, logs open (one per viewer, replaced),
 * close, and sign-out forgets everything.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, type EventObject, type SnapshotFrom } from 'xstate';
import { logsMachine, type LogsEvent } from '../../../machines/logs/logs.machine';
import {
  logTailMachine,
  type FollowLogInput,
  type LogTailEvent,
} from '../../../machines/logs/logTail.machine';
import { createMachineTestModel, runPaths } from '../harness';

type Snap = SnapshotFrom<typeof logsMachine>;

const TOPICS = [{ topic: 'client', subtopics: ['agent'] }];

/** Sample events, bounded: two devices, one viewer, at most three opens. */
function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const c = s.context;
  const loading = (d: string) => c.info[d]?.status === 'loading';
  switch (type) {
    case 'logs.select':
      return [
        { type, deviceId: 'dev-1' },
        { type, deviceId: 'dev-2' },
      ] as unknown as EventObject[];
    case 'logs.loadInfo':
      return [{ type, deviceId: 'dev-1' }] as unknown as EventObject[];
    case 'logs.infoLoaded':
      return (['dev-1', 'dev-2'].filter(loading).map((deviceId) => ({ type, deviceId, topics: TOPICS })) ??
        []) as unknown as EventObject[];
    case 'logs.infoFailed':
      return ['dev-2']
        .filter(loading)
        .map((deviceId) => ({ type, deviceId, message: 'offline' })) as unknown as EventObject[];
    case 'logs.open':
      return c.opened < 2
        ? ([
            {
              type,
              id: 'page',
              deviceId: 'dev-1',
              topic: 'client',
              subtopic: 'agent',
              count: 10,
              follow: true,
            },
          ] as unknown as EventObject[])
        : [];
    case 'logs.close':
      return [{ type, id: 'page' }] as unknown as EventObject[];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.context.currentDeviceId,
    s.context.opened,
    s.context.logs.map((l) => [l.id, l.ref.getSnapshot().context.id]),
    Object.entries(s.context.info)
      .map(([d, i]) => `${d}:${i.status}:${i.topics.length}:${i.error ?? ''}`)
      .sort(),
  ]);

describe('logs registry (model-based paths)', () => {
  const model = createMachineTestModel(logsMachine, { events: eventsFor, key, transitionCoverage: true });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches loaded and failed topics, an open log, a replaced one, and a reset', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.context.info['dev-1']?.status === 'ready')).toBe(true);
    expect(ends.some((s) => s.context.info['dev-2']?.error === 'offline')).toBe(true);
    expect(ends.some((s) => s.context.logs.length === 1 && s.context.opened === 2)).toBe(true);
    for (const s of ends) expect(s.context.logs.length).toBeLessThanOrEqual(1);
    expect(paths.some((p) => p.steps.some((st) => st.event.type === 'logs.reset'))).toBe(true);
  });

  it('follows every path on the real machine; each opened log asks the device with a uuid of its own', async () => {
    const uuids = new Set<string>();
    let opens = 0;
    const start = () =>
      createActor(
        logsMachine.provide({
          actors: {
            loadInfo: fromCallback<LogsEvent, { deviceId: string }>(() => () => undefined),
            logTail: logTailMachine.provide({
              actors: {
                followLog: fromCallback<LogTailEvent, FollowLogInput>(({ input }) => {
                  opens++;
                  uuids.add(input.uuid);
                  return () => undefined;
                }),
              },
            }),
          },
        }),
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    expect(opens).toBeGreaterThan(0);
    // Per path the uuids are page-1-1, page-2-1: never one reused within a session.
    expect([...uuids].sort()).toEqual(['page-1-1', 'page-2-1']);
  });
});
