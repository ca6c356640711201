/**
 * Model-based path testing for the console machines (ARCHITECTURE "Console state: every machine has a
 * model-based test in tests/model/ (createTestModel from xstate/graph)").
 *
 * `createTestModel()` from 'xstate/graph' refuses machines that invoke actors or have delayed transitions
 * ("Invocations on test machines are not supported") — and ours do both, by design. `createMachineTestModel`
 * builds the same `TestModel` that createTestModel returns (its path generators: shortest and simple paths),
 * minus that check. The events tried in a state are those of the machine's directed graph (`toDirectedGraph`)
 * that the state can take (`snapshot.can`), with the samples each test gives. Done/error events of invoked
 * actors and `xstate.after.*` events are ordinary events of the graph.
 *
 * `Driver` executes a path against the REAL machine: fake actors (provided with `.provide()`) wait to be
 * resolved or rejected by the path's done/error events, delayed transitions fire by advancing a
 * SimulatedClock by the delay's real value, and after every step the reached state is compared with the
 * step's target state.
 */
import { expect } from 'vitest';
import {
  fromCallback,
  fromPromise,
  SimulatedClock,
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventObject,
  type SnapshotFrom,
} from 'xstate';
import { TestModel, toDirectedGraph, type DirectedGraphNode, type TestPath } from 'xstate/graph';

type AnySnapshot = SnapshotFrom<AnyStateMachine>;

export interface MachineModelOptions<S extends AnySnapshot> {
  /** Sample events for an event type in a state (done/error outputs, payloads); default `{ type }`. */
  events: (snapshot: S, eventType: string) => EventObject[] | undefined;
  /** What identifies a state for the test (value + the context that matters). */
  key: (snapshot: S) => string;
  input?: unknown;
  /** Count each (state, incoming event) as its own node, so shortest paths cover every transition. */
  transitionCoverage?: boolean;
}

/** Every event type a machine's transitions name, read from its directed graph (xstate/graph). */
function eventTypesOf(machine: AnyStateMachine): string[] {
  const all = (node: DirectedGraphNode): DirectedGraphNode[] => [node, ...node.children.flatMap(all)];
  return [...new Set(all(toDirectedGraph(machine)).flatMap((n) => n.edges.map((e) => e.label.text)))];
}

/** A TestModel over a machine with invocations and delays (see the file header). */
export function createMachineTestModel<M extends AnyStateMachine>(
  machine: M,
  options: MachineModelOptions<SnapshotFrom<M>>,
): TestModel<SnapshotFrom<M>, EventObject, unknown> {
  const serializeEvent = (e: EventObject) => JSON.stringify(e);
  const types = eventTypesOf(machine).filter((type) => !type.includes('*'));
  return new TestModel(
    machine as never,
    {
      input: options.input,
      serializeEvent,
      serializeState: (state: SnapshotFrom<M>, event: EventObject | undefined, prev?: SnapshotFrom<M>) =>
        options.transitionCoverage
          ? `${options.key(state)}|${event ? serializeEvent(event) : ''}|${prev ? options.key(prev) : ''}`
          : options.key(state),
      // The sample events of every type the machine knows that the state can take now (`snapshot.can`).
      events: (state: SnapshotFrom<M>) =>
        types
          .flatMap((type: string) => options.events(state, type) ?? [{ type }])
          .filter((event: EventObject) => (state as AnyMachineSnapshot).can(event)),
    } as never,
  ) as unknown as TestModel<SnapshotFrom<M>, EventObject, unknown>;
}

/** Lets pending promise callbacks (fromPromise actors) run. */
export async function flush(rounds = 4): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Fake actors controlled by a path's events, and the executor of those paths. */
export class Driver {
  readonly clock = new SimulatedClock();
  private readonly pending = new Map<string, Pending>();
  private readonly callbacks = new Map<string, (event: EventObject) => void>();

  /** A fromPromise actor that settles when the path says so; `key` tells instances apart (per device). */
  promise<TOutput, TInput>(id: string, key: (input: TInput) => string = () => '') {
    return fromPromise<TOutput, TInput>(
      ({ input }) =>
        new Promise<TOutput>((resolve, reject) => {
          this.pending.set(`${id}:${key(input)}`, { resolve: resolve as (v: unknown) => void, reject });
        }),
    );
  }

  /** A fromCallback actor whose `sendBack` the path can use. */
  callback<TEvent extends EventObject, TInput>(id: string, key: (input: TInput) => string = () => '') {
    return fromCallback<TEvent, TInput>(({ input, sendBack }) => {
      const k = `${id}:${key(input)}`;
      this.callbacks.set(k, sendBack as (event: EventObject) => void);
      return () => {
        if (this.callbacks.get(k) === sendBack) this.callbacks.delete(k);
      };
    });
  }

  /** Settles the pending actor `id` (per key). */
  settle(id: string, key: string, outcome: { output: unknown } | { error: unknown }): void {
    const p = this.pending.get(`${id}:${key}`);
    if (!p) throw new Error(`no pending actor ${id}:${key}`);
    this.pending.delete(`${id}:${key}`);
    if ('output' in outcome) p.resolve(outcome.output);
    else p.reject(outcome.error);
  }

  /** Sends an event through a callback actor. */
  sendBack(id: string, key: string, event: EventObject): void {
    const cb = this.callbacks.get(`${id}:${key}`);
    if (!cb) throw new Error(`no callback actor ${id}:${key}`);
    cb(event);
  }

  /**
   * Executes one path event against the running actor: done/error → settle the fake actor, after →
   * advance the clock by the delay's value, anything else → send it. `custom` may take over an event.
   */
  async exec(
    actor: AnyActorRef,
    event: EventObject,
    custom?: (event: EventObject) => boolean,
  ): Promise<void> {
    if (custom?.(event)) {
      await flush();
      return;
    }
    let m = /^xstate\.done\.actor\.(.+)$/.exec(event.type);
    if (m) this.settle(m[1]!, '', { output: (event as { output?: unknown }).output });
    else if ((m = /^xstate\.error\.actor\.(.+)$/.exec(event.type))) {
      this.settle(m[1]!, '', { error: (event as { error?: unknown }).error });
    } else if ((m = /^xstate\.after\.([^.]+)\./.exec(event.type))) {
      const snapshot = actor.getSnapshot() as AnySnapshot;
      const delays = (snapshot.machine.implementations.delays ?? {}) as Record<string, unknown>;
      const d = delays[m[1]!] ?? Number(m[1]);
      const ms = typeof d === 'function' ? d({ context: snapshot.context, event }) : d;
      this.clock.increment(Number(ms));
    } else actor.send(event);
    await flush();
  }
}

/** Runs every path: executes its steps and checks each reached state against the model's. */
export async function runPaths<S extends AnySnapshot>(
  paths: Array<TestPath<S, EventObject>>,
  start: (driver: Driver) => AnyActorRef,
  key: (snapshot: S) => string,
  custom?: (driver: Driver, event: EventObject) => boolean,
): Promise<number> {
  let steps = 0;
  for (const path of paths) {
    const driver = new Driver();
    const actor = start(driver);
    await flush();
    for (const step of path.steps) {
      await driver.exec(actor, step.event, custom ? (e) => custom(driver, e) : undefined);
      steps++;
      expect(key(actor.getSnapshot() as S), `${path.description} — after ${step.event.type}`).toBe(
        key(step.state),
      );
    }
    expect(key(actor.getSnapshot() as S)).toBe(key(path.state));
    actor.stop();
  }
  return steps;
}
