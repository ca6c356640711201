/**
 * The alarm channels screen machine (machines/alarmChannels/channels.machine.ts; issue 11 channels, Test
 * button, delivery log), model-based: load and failure, create with the secret shown once and a refused
 * create, Test keeping the attempt and refreshing an open log, delete, subscribe, sign-out clearing; every
 * path followed on the real machine.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { channelsMachine } from '../../../machines/alarmChannels/channels.machine';
import type { Channel, DeliveryAttempt } from '../../../src/protocol/alarmChannels';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof channelsMachine>;
const ID = '00000000-0000-4000-8000-0000000000c1';
const channel: Channel = {
  id: ID,
  name: 'Hook',
  config: { kind: 'webhook', url: 'http://127.0.0.1/x' },
  enabled: true,
  has_secret: true,
  subscriptions: 0,
  deliveries: { pending: 0, delivered: 0, failed: 0 },
  created_at: '2026-11-28T00:00:00.000Z',
};
const attempt: DeliveryAttempt = {
  id: '00000000-0000-4000-8000-0000000000a1',
  at: '2026-11-28T00:00:00.000Z',
  ok: true,
  response_code: 200,
  error: null,
  duration_ms: 12,
  test: true,
  idempotency_key: null,
  attempt: null,
  delivery_status: null,
};

function events(_s: Snap, type: string): EventObject[] | undefined {
  const e = (x: object) => [x] as unknown as EventObject[];
  switch (type) {
    case 'xstate.done.actor.list':
      return e({ type, output: [channel] });
    case 'xstate.error.actor.list':
    case 'xstate.error.actor.create':
    case 'xstate.error.actor.test':
      return e({ type, error: new Error('refused') });
    case 'channels.create':
      return e({ type, input: { name: 'Hook', config: channel.config } });
    case 'xstate.done.actor.create':
      return e({ type, output: { channel, secret: 'whsec_1' } });
    case 'xstate.done.actor.test':
      return e({ type, output: attempt });
    case 'xstate.done.actor.attempts':
      return e({ type, output: [attempt] });
    case 'channels.test':
    case 'channels.delete':
    case 'channels.subscribe':
    case 'channels.openLog':
      return e({ type, id: ID });
    default:
      return undefined;
  }
}
const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.channels.length,
    s.context.logOf,
    s.context.attempts.length,
    Object.keys(s.context.tests),
    s.context.secret?.secret ?? null,
    s.context.error,
    s.context.formError,
  ]);

describe('alarm channels (model-based paths)', () => {
  const paths = createMachineTestModel(channelsMachine, { events, key }).getShortestPaths({
    allowDuplicatePaths: true,
  });

  it('reaches the screen’s states: secret once, a Test result, an open log, errors', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.context.secret?.secret === 'whsec_1')).toBe(true);
    expect(ends.some((s) => s.context.tests[ID]?.response_code === 200)).toBe(true);
    expect(
      ends.some((s) => s.matches('ready') && s.context.logOf === ID && s.context.attempts.length === 1),
    ).toBe(true);
    expect(ends.some((s) => s.matches('failed') && s.context.error === 'refused')).toBe(true);
    expect(ends.some((s) => s.matches('ready') && s.context.formError === 'refused')).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    const start = (driver: Driver) =>
      createActor(
        channelsMachine.provide({
          actors: {
            list: driver.promise<Channel[], unknown>('list'),
            create: driver.promise('create'),
            test: driver.promise('test'),
            remove: driver.promise('remove'),
            subscribe: driver.promise('subscribe'),
            attempts: driver.promise('attempts'),
          },
        }),
        { clock: driver.clock },
      ).start();
    expect(await runPaths(paths, start, key)).toBeGreaterThan(paths.length);
  });
});
