/**
 * The logTail machine on model-based paths (xstate/graph through tests/model/harness.ts): loading →
 * following ⇄ paused → ended / failed (a closed link ends, issue 15), restart, search, and the sequence check counting lost lines.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, type EventObject, type SnapshotFrom } from 'xstate';
import {
  logTailMachine,
  runUuid,
  type FollowLogInput,
  type LogTailEvent,
  type LogTailInput,
} from '../../../machines/logs/logTail.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof logTailMachine>;

const input: LogTailInput = {
  id: 'v1',
  deviceId: 'dev-1',
  topic: 'client',
  subtopic: 'agent',
  count: 10,
  follow: true,
};

/** Sample events, bounded so the state space is finite (at most 3 sequence numbers, 2 runs). */
function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const c = s.context;
  switch (type) {
    case 'log.batch':
      if (c.nextSeq >= 3) return [];
      return [
        { type, seq: c.nextSeq, lines: [`line ${c.nextSeq}`] },
        ...(c.lost === 0 ? [{ type, seq: c.nextSeq + 1, lines: [`line ${c.nextSeq + 1}`] }] : []),
      ] as unknown as EventObject[];
    case 'log.ended':
      return [{ type, reason: 'done', lines: c.nextSeq }] as unknown as EventObject[];
    case 'log.failed':
      return [
        { type, code: 'not_found', message: 'No log file found: client/agent' },
        { type, code: 'log_changed', message: 'Log file modified or deleted: x' },
        // Issue 15: the device's link closed under the call (its agent died).
        { type, code: 'link_closed', message: 'The device closed the link.' },
      ] as unknown as EventObject[];
    case 'log.search':
      return c.search === '' ? ([{ type, search: 'line 1' }] as unknown as EventObject[]) : [];
    case 'log.restart':
      return c.run < 2 ? undefined : [];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.run,
    s.context.lines.map((l) => l.seq),
    s.context.nextSeq,
    s.context.lost,
    s.context.pausedAt,
    s.context.search,
    s.context.endReason,
    s.context.error?.kind ?? null,
  ]);

describe('logTail (model-based paths)', () => {
  const model = createMachineTestModel(logTailMachine, { events: eventsFor, key, input });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches following, paused, ended, both §8 failures, a restart and a proven loss', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.matches({ active: 'following' }))).toBe(true);
    expect(ends.some((s) => s.matches({ active: 'paused' }) && s.context.pausedAt !== null)).toBe(true);
    expect(ends.some((s) => s.matches('ended') && s.context.endReason === 'stopped')).toBe(true);
    expect(ends.some((s) => s.matches('failed') && s.context.error?.kind === 'noLogFile')).toBe(true);
    expect(ends.some((s) => s.matches('failed') && s.context.error?.kind === 'changed')).toBe(true);
    // Issue 15: a closed link ends the follow (reason link_closed), it is not a failure of the log.
    expect(ends.some((s) => s.matches('ended') && s.context.endReason === 'link_closed')).toBe(true);
    expect(ends.some((s) => s.matches('failed') && s.context.error?.kind === 'other')).toBe(false);
    expect(ends.some((s) => s.context.run === 2 && s.matches({ active: 'loading' }))).toBe(true);
    expect(ends.some((s) => s.context.lost > 0)).toBe(true);
    // Every reached state: the buffer's sequence numbers ascend and end below nextSeq.
    for (const s of ends) {
      const seqs = s.context.lines.map((l) => l.seq);
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
      if (seqs.length > 0) expect(seqs.at(-1)!).toBeLessThan(s.context.nextSeq);
    }
  });

  it('follows every path on the real machine; each run asks the device with its own uuid', async () => {
    const asked: FollowLogInput[] = [];
    // The device's batches are events of the path, sent to the machine as followLog would send them back.
    const followLog = fromCallback<LogTailEvent, FollowLogInput>(({ input: asking }) => {
      asked.push(asking);
      return () => undefined;
    });
    const start = (driver: Driver) =>
      createActor(logTailMachine.provide({ actors: { followLog } }), { input, clock: driver.clock }).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    expect(new Set(asked.map((a) => a.uuid))).toEqual(new Set([runUuid({ id: 'v1', run: 1 }), 'v1-2']));
    expect(asked.every((a) => a.deviceId === 'dev-1' && a.count === 10 && a.follow)).toBe(true);
  });
});
