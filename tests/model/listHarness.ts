/**
 * The model-based test of a list machine made by machines/shared/listMachine.ts (faces, alarms,
 * applications, analytics lists, admin engine backends): each feature's test gives its machine, its actors'
 * names, its sample events and what identifies a state; this runs every shortest path on the real machine
 * with fake actors (tests/model/harness.ts Driver) and checks that every state of the list was reached.
 *
 * `listEvents` answers the events the shared part takes (the load's and the delete's done/error, delete.ask
 * with a listed id and an unknown one), so a feature's test only writes the samples of its own changes.
 */
import { expect } from 'vitest';
import {
  createActor,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventObject,
  type SnapshotFrom,
} from 'xstate';
import type { TestPath } from 'xstate/graph';
import { createMachineTestModel, runPaths, type Driver } from './harness';

/** Sample events for the shared part of a list machine. */
export interface ListSamples {
  /** The load actor's name and what it answers. */
  load: { src: string; output: unknown };
  /** The delete actor's name and the text of its refusal. */
  remove: { src: string; error: string };
  /** A listed row's id (delete.ask of it reaches confirming; an unknown id is refused). */
  listedId: string;
}

export const sample = (xs: object[]) => xs as unknown as EventObject[];

/** The shared events of a list machine, or undefined for the feature's own. */
export function listEvents(samples: ListSamples, type: string): EventObject[] | undefined {
  switch (type) {
    case 'delete.ask':
      return sample([
        { type, id: samples.listedId },
        { type, id: 'unknown' },
      ]);
    case `xstate.done.actor.${samples.load.src}`:
      return sample([{ type, output: samples.load.output }]);
    case `xstate.error.actor.${samples.load.src}`:
      return sample([{ type, error: new Error('Servers are unavailable.') }]);
    case `xstate.done.actor.${samples.remove.src}`:
      return sample([{ type, output: { ok: true } }]);
    case `xstate.error.actor.${samples.remove.src}`:
      return sample([{ type, error: new Error(samples.remove.error) }]);
    default:
      return undefined;
  }
}

export interface ListModel<M extends AnyStateMachine> {
  machine: M;
  /** The provided actors' names: each is a fake the path settles. */
  actors: string[];
  /** The feature's events first, then `listEvents(shared, type)`. */
  events: (snapshot: SnapshotFrom<M>, type: string) => EventObject[] | undefined;
  key: (snapshot: SnapshotFrom<M>) => string;
  /** Every state a path must end in. */
  states: string[];
  input?: unknown;
  /** Per-actor instance keys (e.g. to record the actors' inputs). */
  actorKey?: Record<string, (input: unknown) => string>;
}

/** Runs every shortest path of the list machine; answers the paths for the feature's own checks. */
export async function runListModel<M extends AnyStateMachine>(
  model: ListModel<M>,
): Promise<{ paths: Array<TestPath<SnapshotFrom<M>, EventObject>>; ends: Array<SnapshotFrom<M>> }> {
  const paths = createMachineTestModel(model.machine, {
    events: model.events,
    key: model.key,
    input: model.input,
  }).getShortestPaths({ allowDuplicatePaths: true });
  const start = (driver: Driver) =>
    createActor(
      model.machine.provide({
        actors: Object.fromEntries(model.actors.map((id) => [id, driver.promise(id, model.actorKey?.[id])])),
      }),
      { input: model.input, clock: driver.clock },
    ).start();
  const steps = await runPaths(paths, start, model.key);
  expect(steps).toBeGreaterThan(paths.length);
  const ends = paths.map((p) => p.state);
  // A generic machine's snapshot type is not resolved to a machine snapshot: read each one as such.
  const asMachine = (s: SnapshotFrom<M>) => s as unknown as AnyMachineSnapshot;
  for (const st of model.states)
    expect(
      ends.some((s) => asMachine(s).matches(st)),
      st,
    ).toBe(true);
  // Only a listed row can be asked to be deleted.
  for (const p of paths)
    for (const st of p.steps)
      if (asMachine(st.state).matches('confirming'))
        expect((asMachine(st.state).context as { target: { id: string } | null }).target).not.toBeNull();
  return { paths, ends };
}
