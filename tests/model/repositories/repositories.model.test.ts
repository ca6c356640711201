/**
 * The repositories machine on model-based paths (xstate/graph over the real machine; §2 /repositories and
 * /repositories/{alias}): the list and a tag list load, fail (registry unavailable, repository not found) and
 * reload; a registry that is not configured is `ready` with configured false; sign-out forgets everything.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import {
  repositoriesMachine,
  type RepositoriesLoaded,
} from '../../../machines/repositories/repositories.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof repositoriesMachine>;

const coded = (code: string, message: string) => Object.assign(new Error(message), { code });
const list: RepositoriesLoaded = {
  configured: true,
  registry: '127.0.0.1:5000',
  project: 'edge_prod',
  repositories: [{ name: 'edge_prod/app', alias: 'app', tag_count: 2 }],
  repository: null,
  tags: [],
};
const none: RepositoriesLoaded = {
  ...list,
  configured: false,
  registry: null,
  project: null,
  repositories: [],
};

function eventsFor(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'repositories.show':
      return [
        { type, alias: null },
        { type, alias: 'app' },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.loadRepositories':
      return [
        { type, output: list },
        { type, output: none },
      ] as unknown as EventObject[];
    case 'xstate.error.actor.loadRepositories':
      return [
        { type, error: coded('Registry_unavailable', 'The registry at r cannot be reached.') },
        { type, error: coded('Not_found', 'The manifest was not found.') },
      ] as unknown as EventObject[];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.alias,
    s.context.configured,
    s.context.repositories.length,
    s.context.errorCode,
  ]);

describe('repositories machine (model-based paths)', () => {
  it('follows every modelled path on the real machine', async () => {
    const paths = createMachineTestModel(repositoriesMachine, { events: eventsFor, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (driver: Driver) =>
      createActor(
        repositoriesMachine.provide({ actors: { loadRepositories: driver.promise('loadRepositories') } }),
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    expect(
      ends.some((s) => s.matches('ready') && s.context.configured && s.context.repositories.length === 1),
    ).toBe(true);
    expect(ends.some((s) => s.matches('ready') && !s.context.configured)).toBe(true);
    expect(ends.some((s) => s.matches('failed') && s.context.errorCode === 'Not_found')).toBe(true);
    expect(ends.some((s) => s.matches('failed') && s.context.alias === 'app')).toBe(true);
    for (const s of ends) if (s.matches('loading')) expect(s.hasTag('busy')).toBe(true);
  });

  it('keeps what it read when the same view is shown again, and forgets it for another one', async () => {
    const actor = createActor(
      repositoriesMachine.provide({ actors: { loadRepositories: fromPromise(async () => list) } }),
    ).start();
    actor.send({ type: 'repositories.show', alias: null });
    await new Promise((r) => setImmediate(r));
    actor.send({ type: 'repositories.show', alias: null });
    expect(actor.getSnapshot().context.repositories).toHaveLength(1);
    actor.send({ type: 'repositories.show', alias: 'app' });
    expect(actor.getSnapshot().context.repositories).toHaveLength(0);
    actor.send({ type: 'repositories.reset' });
    expect(actor.getSnapshot().value).toBe('idle');
  });
});
