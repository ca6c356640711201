/**
 * The logs feature's actors against fake device commands: followLog asks again while the device answers
 * 'more', turns batches, ends and coded failures into logTail events, and a stopped follow sends
 * endLogProcess and abandons its call; loadInfo reports topics or the failure.
 */
import { describe, expect, it } from 'vitest';
import { createActor, setup, type AnyEventObject } from 'xstate';
import { followLogActor, loadInfoActor } from '../../../src/console/features/logs/actors';
import type { FollowRequest, LogCommands } from '../../../src/console/features/logs/api';
import { DeviceCommandError } from '../../../src/console/platform/linkShared';
import type { FollowLogInput } from '../../../machines/logs/logTail.machine';

const input: FollowLogInput = {
  deviceId: 'dev-1',
  uuid: 'v-1-1',
  topic: 'client',
  subtopic: 'agent',
  count: 10,
  follow: true,
};

/** Runs `logic` as the child of a parent that records what it sends back; returns the parent and the record. */
function host(
  logic: ReturnType<typeof followLogActor> | ReturnType<typeof loadInfoActor>,
  childInput: unknown,
) {
  const got: AnyEventObject[] = [];
  const parent = createActor(
    setup({ actors: { child: logic as never } }).createMachine({
      initial: 'on',
      states: {
        on: {
          invoke: { src: 'child', input: () => childInput as never },
          on: { '*': { actions: ({ event }) => got.push(event) }, halt: 'off' },
        },
        off: {},
      },
    }),
  ).start();
  return { parent, got };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('followLog', () => {
  it('asks again while the device answers more, then reports the end; batches become log.batch', async () => {
    const calls: FollowRequest[] = [];
    const commands = {
      follow: async (
        _d: string,
        req: FollowRequest,
        onBatch: (b: { uuid: string; seq: number; lines: string[] }) => void,
      ) => {
        calls.push(req);
        onBatch({ uuid: req.uuid, seq: calls.length - 1, lines: [`l${calls.length}`] });
        return calls.length < 3 ? { lines: calls.length, reason: 'more' } : { lines: 3, reason: 'stopped' };
      },
      end: async () => true,
      topics: async () => [],
    } as unknown as LogCommands;
    const { got } = host(followLogActor(commands), input);
    for (let i = 0; i < 10; i++) await flush();
    expect(calls.map((c) => c.uuid)).toEqual(['v-1-1', 'v-1-1', 'v-1-1']);
    expect(got).toEqual([
      { type: 'log.batch', seq: 0, lines: ['l1'] },
      { type: 'log.batch', seq: 1, lines: ['l2'] },
      { type: 'log.batch', seq: 2, lines: ['l3'] },
      { type: 'log.ended', reason: 'stopped', lines: 3 },
    ]);
  });

  it('reports a coded failure (§8 No log file found)', async () => {
    const commands = {
      follow: async () => {
        throw new DeviceCommandError('not_found', 'No log file found: client/x', 'log');
      },
      end: async () => true,
    } as unknown as LogCommands;
    const { got } = host(followLogActor(commands), input);
    await flush();
    await flush();
    expect(got).toEqual([{ type: 'log.failed', code: 'not_found', message: 'No log file found: client/x' }]);
  });

  it('stopped before the end: endLogProcess for its uuid, and the call is abandoned', async () => {
    const ended: string[] = [];
    let signal: AbortSignal | undefined;
    const commands = {
      follow: (_d: string, _r: FollowRequest, _b: unknown, s?: AbortSignal) => {
        signal = s;
        return new Promise(() => undefined);
      },
      end: async (_d: string, uuid: string) => {
        ended.push(uuid);
        return true;
      },
    } as unknown as LogCommands;
    const { parent, got } = host(followLogActor(commands), input);
    await flush();
    parent.send({ type: 'halt' });
    expect(ended).toEqual(['v-1-1']);
    expect(signal?.aborted).toBe(true);
    expect(got.filter((e) => e.type.startsWith('log.'))).toEqual([]);
  });
});

describe('loadInfo', () => {
  it('reports the topics, or the failure', async () => {
    const ok = { topics: async () => [{ topic: 'client', subtopics: ['agent'] }] } as unknown as LogCommands;
    const a = host(loadInfoActor(ok), { deviceId: 'dev-1' });
    await flush();
    expect(a.got).toEqual([
      { type: 'logs.infoLoaded', deviceId: 'dev-1', topics: [{ topic: 'client', subtopics: ['agent'] }] },
    ]);
    const bad = {
      topics: async () => {
        throw new DeviceCommandError('link_closed', 'The device is not connected.', 'log-info');
      },
    } as unknown as LogCommands;
    const b = host(loadInfoActor(bad), { deviceId: 'dev-2' });
    await flush();
    expect(b.got).toEqual([
      { type: 'logs.infoFailed', deviceId: 'dev-2', message: 'The device is not connected.' },
    ]);
  });
});
