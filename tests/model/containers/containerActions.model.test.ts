import { describe, expect, it } from 'vitest';
import {
  createActor,
  sendTo,
  setup,
  SimulatedClock,
  type AnyActorRef,
  type EventObject,
  type SnapshotFrom,
} from 'xstate';
import type { ContainerActionInput } from '../../../machines/containers/containerAction.machine';
import { containerActionMachine } from '../../../machines/containers/containerAction.machine';
import {
  containerActionsMachine,
  KEEP_FINISHED_MS,
} from '../../../machines/containers/containerActions.machine';
import { CONTAINER_TEXTS } from '../../../src/protocol/containers';
import { createMachineTestModel, flush, runPaths, type Driver } from '../harness';
import { process, request } from './fixtures';

type Snap = SnapshotFrom<typeof containerActionsMachine>;

const A = request({ action: 'stop', containerId: 'aaaaaaaaaaaa0000' });
const B = request({
  deviceId: 'dev-2',
  deviceName: 'Device 2',
  action: 'stop',
  containerId: 'bbbbbbbbbbbb0000',
});
const keyA = 'dev-1:pytorch-lab';
const keyB = 'dev-2:pytorch-lab';
/** A download of environment 'yolo' the device runs (found after a reload). */
const yolo = process({ envName: 'yolo' });
const keyYolo = 'dev-1:yolo';
/** The request an `actions.start` path event carries. */
const requestOf = (e: EventObject): unknown => (e as unknown as { request?: unknown }).request;

/**
 * A stand-in action: it runs until the test ends it (`fake.end`), then reports `action.ended` to the
 * registry like the real one. Its own flow has its model test.
 */
const fakeAction = setup({
  types: { input: {} as ContainerActionInput, context: {} as { input: ContainerActionInput } },
  actions: {
    report: sendTo(
      ({ context }) => context.input.reportTo!,
      ({ context }) => ({
        type: 'action.ended',
        key: context.input.key,
        deviceId: context.input.deviceId,
        outcome: 'succeeded',
      }),
    ),
  },
}).createMachine({
  context: ({ input }) => ({ input }),
  initial: 'running',
  states: {
    running: { on: { 'fake.end': 'done' } },
    done: { type: 'final', entry: 'report' },
  },
});

/**
 * Sample events: start A, start A again (refused while it runs), start B; a device lists a running download
 * ('yolo', followed) and reports on it; actions end, expire, are dismissed; sign-out resets.
 */
function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const c = s.context;
  const watching = s.matches('watching');
  switch (type) {
    case 'actions.start':
      return c.spawned < 3 ? [{ type, request: A } as EventObject, { type, request: B } as EventObject] : [];
    case 'action.ended':
      return c.running
        .filter((k) => k !== keyYolo)
        .map((key) => ({ type, key, deviceId: key.split(':')[0], outcome: 'succeeded' }) as EventObject);
    case 'actions.processes':
      return watching && !c.actions[keyYolo] && c.spawned < 3
        ? [{ type, deviceId: 'dev-1', deviceName: 'Device 1', processes: [yolo] } as EventObject]
        : [];
    case 'actions.process':
      return watching && c.running.includes(keyYolo)
        ? [
            {
              type,
              deviceId: 'dev-1',
              deviceName: 'Device 1',
              process: { ...yolo, percent: 70 },
            } as EventObject,
          ]
        : [];
    case 'actions.expire':
    case 'actions.dismiss':
      return Object.keys(c.actions)
        .filter((k) => !c.running.includes(k))
        .map((key) => ({ type, key }) as EventObject);
    case 'actions.reset':
      return Object.keys(c.actions).length > 0 || watching ? [{ type }] : [];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    Object.keys(s.context.actions).sort(),
    [...s.context.running].sort(),
    s.context.spawned,
  ]);

describe('container actions registry (model-based paths)', () => {
  const model = createMachineTestModel(containerActionsMachine, {
    events: eventsFor,
    key,
    input: {},
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches refusal, two environments at once, a followed process, expiry and reset', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.context.running.length === 2)).toBe(true);
    expect(ends.some((s) => s.context.running.includes(keyYolo))).toBe(true);
    expect(ends.some((s) => Object.keys(s.context.actions).length > s.context.running.length)).toBe(true);
    // A second start on a running environment: the path's state has one action for A, not two.
    const refusals = paths.filter((p) =>
      p.steps.some(
        (step, i) =>
          step.event.type === 'actions.start' &&
          i > 0 &&
          p.steps[i - 1]!.state.context.running.includes(keyA) &&
          requestOf(step.event) === A,
      ),
    );
    expect(refusals.length).toBeGreaterThan(0);
  });

  it(
    'follows every modelled path on the real machine; each refused start shows "Ongoing Process"',
    {
      timeout: 120_000,
    },
    async () => {
      let dialogs: EventObject[] = [];
      let expected = 0;
      const start = (_driver: Driver) => {
        const actor = createActor(
          containerActionsMachine.provide({
            actors: {
              containerAction: fakeAction as never,
              watchProcesses: setup({}).createMachine({}) as never,
            },
          }),
          {
            input: {},
          },
        );
        actor.on('dialog', (e) => dialogs.push(e));
        return actor.start();
      };
      // action.ended is what the action itself reports: end the stand-in instead of sending it.
      const custom = (_driver: Driver, event: EventObject) => {
        if (event.type !== 'action.ended') return false;
        const ref = current?.getSnapshot().context.actions[(event as unknown as { key: string }).key] as
          AnyActorRef | undefined;
        ref?.send({ type: 'fake.end' });
        return true;
      };
      let current: ReturnType<typeof start> | null = null;
      const steps = await runPaths(
        paths,
        (driver) => {
          current = start(driver);
          return current;
        },
        key,
        custom,
      );
      for (const p of paths) {
        expected += p.steps.filter(
          (step, i) =>
            step.event.type === 'actions.start' &&
            (i === 0 ? [] : p.steps[i - 1]!.state.context.running).includes(
              requestOf(step.event) === A ? keyA : keyB,
            ),
        ).length;
      }
      expect(steps).toBeGreaterThan(paths.length);
      expect(dialogs.length).toBe(expected);
      expect(expected).toBeGreaterThan(0);
      expect(dialogs.every((d) => (d as { title?: string }).title === CONTAINER_TEXTS.ongoingProcess)).toBe(
        true,
      );
      dialogs = [];
    },
  );
});

describe('container actions registry (timing and hand-over)', () => {
  it('drops a finished action KEEP_FINISHED_MS after it ended, and has the device reloaded', async () => {
    const clock = new SimulatedClock();
    const told: EventObject[] = [];
    // The containers actor is found by systemId; a stand-in records what it is told.
    const parent = setup({
      actors: {
        registry: containerActionsMachine.provide({ actors: { containerAction: fakeAction as never } }),
        containers: setup({}).createMachine({ on: { '*': { actions: ({ event }) => told.push(event) } } }),
      },
    }).createMachine({
      invoke: [
        { id: 'registry', systemId: 'containerActions', src: 'registry', input: {} },
        { id: 'containers', systemId: 'containers', src: 'containers' },
      ],
    });
    const root = createActor(parent, { clock }).start();
    const registry = root.system.get('containerActions')!;
    registry.send({ type: 'actions.start', request: A });
    const ref = registry.getSnapshot().context.actions[keyA] as AnyActorRef;
    ref.send({ type: 'fake.end' });
    await flush();
    expect(told).toEqual([{ type: 'containers.refresh', deviceId: 'dev-1' }]);
    expect(registry.getSnapshot().context.actions[keyA]).toBeDefined();
    clock.increment(KEEP_FINISHED_MS);
    expect(registry.getSnapshot().context.actions[keyA]).toBeUndefined();
  });

  it('gives a followed process to a real action, which shows its percent until it ends', async () => {
    const registry = createActor(
      containerActionsMachine.provide({ actors: { watchProcesses: setup({}).createMachine({}) as never } }),
      { input: {} },
    ).start();
    registry.send({ type: 'actions.watch' });
    registry.send({
      type: 'actions.processes',
      deviceId: 'dev-1',
      deviceName: 'Device 1',
      processes: [yolo],
    });
    const follower = registry.getSnapshot().context.actions[keyYolo] as ReturnType<
      typeof createActor<typeof containerActionMachine>
    >;
    expect(follower.getSnapshot().matches('following')).toBe(true);
    registry.send({
      type: 'actions.process',
      deviceId: 'dev-1',
      deviceName: 'Device 1',
      process: { ...yolo, percent: 90 },
    });
    expect(follower.getSnapshot().context.percent).toBe(90);
    registry.send({
      type: 'actions.process',
      deviceId: 'dev-1',
      deviceName: 'Device 1',
      process: { ...yolo, percent: null, ended: 5_000, message: 'Done' },
    });
    await flush();
    expect(follower.getSnapshot().hasTag('succeeded')).toBe(true);
    expect(registry.getSnapshot().context.running).toEqual([]);
    // An ended process is not followed again.
    registry.send({
      type: 'actions.processes',
      deviceId: 'dev-1',
      deviceName: 'Device 1',
      processes: [{ ...yolo, ended: 5_000 }],
    });
    expect(registry.getSnapshot().context.spawned).toBe(1);
  });
});
