/**
 * The console side of logs without a device: the pure buffer helpers (sequence check, bound, search, rows,
 * file) and the logs registry (topics per device, one logTail per open log, close and reset stop them).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import {
  appendBatch,
  asLogBatch,
  filterLines,
  logFileName,
  logFileText,
  visibleRows,
  LOG_ROWS_MAX,
} from '../../../machines/logs/logLines';
import { logsMachine, type LogsEvent } from '../../../machines/logs/logs.machine';
import {
  logTailMachine,
  type FollowLogInput,
  type LogTailEvent,
} from '../../../machines/logs/logTail.machine';

describe('log lines', () => {
  it('appends in order, drops repeats, counts gaps, keeps the newest within the bound', () => {
    let s = appendBatch([], 0, { seq: 0, lines: ['a', 'b'] }, 4);
    expect(s).toMatchObject({ nextSeq: 2, lost: 0 });
    s = appendBatch(s.lines, s.nextSeq, { seq: 1, lines: ['b', 'c'] }, 4);
    expect(s.lines.map((l) => l.text)).toEqual(['a', 'b', 'c']);
    s = appendBatch(s.lines, s.nextSeq, { seq: 5, lines: ['f', 'g'] }, 4);
    expect(s).toMatchObject({ nextSeq: 7, lost: 2 });
    expect(s.lines.map((l) => l.seq)).toEqual([1, 2, 5, 6]);
  });

  it('checks batches from the device', () => {
    expect(asLogBatch({ uuid: 'u', seq: 3, lines: ['x'] })).toEqual({ uuid: 'u', seq: 3, lines: ['x'] });
    for (const bad of [
      null,
      'x',
      { uuid: 'u', seq: -1, lines: [] },
      { uuid: 'u', seq: 1.5, lines: [] },
      { uuid: 'u', seq: 0, lines: [1] },
    ]) {
      expect(asLogBatch(bad)).toBeNull();
    }
  });

  it('filters case-insensitively, stops at the pause point, renders at most LOG_ROWS_MAX rows', () => {
    const lines = Array.from({ length: 3000 }, (_, seq) => ({
      seq,
      text: seq % 2 ? `ERROR ${seq}` : `info ${seq}`,
    }));
    expect(filterLines(lines, 'error')).toHaveLength(1500);
    expect(visibleRows(lines, '', null)).toHaveLength(LOG_ROWS_MAX);
    expect(visibleRows(lines, '', null).at(-1)!.seq).toBe(2999);
    expect(visibleRows(lines, 'ERROR', 11).map((l) => l.seq)).toEqual([1, 3, 5, 7, 9]);
  });

  it('writes the .log file and its name', () => {
    expect(
      logFileText([
        { seq: 0, text: 'a' },
        { seq: 1, text: 'b' },
      ]),
    ).toBe('a\nb\n');
    expect(logFileText([])).toBe('');
    expect(logFileName('Jetson #1', 'system', 'apt/history.log')).toBe('Jetson_1-system-apt_history.log.log');
  });
});

describe('logs registry', () => {
  function start() {
    const asked: string[] = [];
    const follows: FollowLogInput[] = [];
    const stopped: string[] = [];
    const actor = createActor(
      logsMachine.provide({
        actors: {
          loadInfo: fromCallback<LogsEvent, { deviceId: string }>(({ input, sendBack }) => {
            asked.push(input.deviceId);
            if (input.deviceId === 'bad')
              sendBack({ type: 'logs.infoFailed', deviceId: 'bad', message: 'offline' });
            else
              sendBack({
                type: 'logs.infoLoaded',
                deviceId: input.deviceId,
                topics: [{ topic: 'client', subtopics: ['agent'] }],
              });
          }),
          logTail: logTailMachine.provide({
            actors: {
              followLog: fromCallback<LogTailEvent, FollowLogInput>(({ input }) => {
                follows.push(input);
                return () => stopped.push(input.uuid);
              }),
            },
          }),
        },
      }),
    ).start();
    return { actor, asked, follows, stopped };
  }

  it('selects a device and loads its topics once; a failure is kept', () => {
    const { actor, asked } = start();
    actor.send({ type: 'logs.select', deviceId: 'dev-1' });
    actor.send({ type: 'logs.select', deviceId: 'dev-1' });
    expect(asked).toEqual(['dev-1']);
    expect(actor.getSnapshot().context).toMatchObject({
      currentDeviceId: 'dev-1',
      info: { 'dev-1': { status: 'ready', topics: [{ topic: 'client', subtopics: ['agent'] }] } },
    });
    actor.send({ type: 'logs.loadInfo', deviceId: 'dev-1' });
    expect(asked).toEqual(['dev-1', 'dev-1']);
    actor.send({ type: 'logs.select', deviceId: 'bad' });
    expect(actor.getSnapshot().context.info.bad).toMatchObject({ status: 'failed', error: 'offline' });
  });

  it('opens one logTail per log, replaces one of the same id, stops them on close and reset', () => {
    const { actor, follows, stopped } = start();
    const open = (id: string) =>
      actor.send({
        type: 'logs.open',
        id,
        deviceId: 'dev-1',
        topic: 'client',
        subtopic: 'agent',
        count: 10,
        follow: true,
      });
    open('a');
    open('b');
    // Each open log process has a uuid of its own: <viewer>-<opens so far>-<run>.
    expect(follows.map((f) => f.uuid)).toEqual(['a-1-1', 'b-2-1']);
    open('a');
    expect(follows.at(-1)!.uuid).toBe('a-3-1');
    expect(stopped).toEqual(['a-1-1']);
    expect(actor.getSnapshot().context.logs.map((l) => l.id)).toEqual(['b', 'a']);
    actor.send({ type: 'logs.close', id: 'b' });
    expect(stopped).toEqual(['a-1-1', 'b-2-1']);
    actor.send({ type: 'logs.reset' });
    expect(stopped).toEqual(['a-1-1', 'b-2-1', 'a-3-1']);
    expect(actor.getSnapshot().context).toEqual({ currentDeviceId: null, opened: 3, logs: [], info: {} });
  });
});
