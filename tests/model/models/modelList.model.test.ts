/**
 * The model list machine on model-based paths (xstate/graph over the real machine): opened for all models or
 * language models, loaded or failing with the §8 toast "Models could not be fetched. Please try again."
 * (danger, title Failed), searched (debounced), sorted, paged, a deletion confirmed, cancelled or failing.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  MODELS_FETCH_FAILED,
  modelListMachine,
  type ModelQuery,
} from '../../../machines/models/modelList.machine';
import type { Model } from '../../../src/protocol/models';
import { createMachineTestModel, flush, runPaths, Driver } from '../harness';

type Snap = SnapshotFrom<typeof modelListMachine>;

const MODEL: Model = {
  id: 'M0123456789A',
  name: 'people',
  task: 'object-detection',
  format: 'onnx',
  classes: ['person'],
  input_width: 640,
  input_height: 640,
  description: '',
  versions: 1,
  latest: null,
  size: 10,
  created_at: '2026-11-26T10:00:00.000Z',
  updated_at: '2026-11-26T10:00:00.000Z',
};
const PAGE = { data: [MODEL], page_info: { page: 1, per_page: 10, total_items: 11 } };

function eventsFor(s: Snap, type: string): Array<EventObject & Record<string, unknown>> | undefined {
  switch (type) {
    case 'models.open':
      return s.matches('idle')
        ? [
            { type, kind: 'all' },
            { type, kind: 'llm' },
          ]
        : [];
    case 'query.search':
      return s.matches('list') || s.matches('failed') ? [{ type, search: 'peo' }] : [];
    case 'query.sort':
      return [{ type, sort: 'name', order: 'asc' }];
    case 'query.page':
      return [{ type, page: 2 }];
    case 'delete.ask':
      return [{ type, model: MODEL }];
    case 'xstate.done.actor.fetchModels':
      return [{ type, output: PAGE }];
    case 'xstate.done.actor.deleteModel':
      return [{ type, output: { ok: true } }];
    case 'xstate.error.actor.fetchModels':
    case 'xstate.error.actor.deleteModel':
      return [{ type, error: new Error('Servers are unavailable.') }];
    case 'models.reset':
      return s.matches('list') ? [{ type }] : [];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.query,
    s.context.data.length,
    s.context.lastUpdate !== null,
    s.context.error,
    s.context.target?.id ?? null,
  ]);

function start(driver: Driver) {
  return createActor(
    modelListMachine.provide({
      actors: {
        fetchModels: driver.promise<typeof PAGE, ModelQuery>('fetchModels'),
        deleteModel: driver.promise<unknown, { id: string }>('deleteModel'),
      },
    }),
    { clock: driver.clock },
  ).start();
}

describe('model list machine (model-based paths)', () => {
  const model = createMachineTestModel(modelListMachine, {
    events: eventsFor,
    key,
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches the list, a failure, the typing (debounce) state, a confirmation and a deletion', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.matches('list') && s.context.data.length === 1)).toBe(true);
    expect(ends.some((s) => s.matches('failed'))).toBe(true);
    expect(ends.some((s) => s.matches('typing') && s.context.query.search === 'peo')).toBe(true);
    expect(ends.some((s) => s.matches('confirming'))).toBe(true);
    expect(ends.some((s) => s.matches('deleting'))).toBe(true);
    expect(ends.some((s) => s.matches('loading') && s.context.query.kind === 'llm')).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    expect(await runPaths(paths, start, key)).toBeGreaterThan(0);
  });

  it('emits the §8 toast when the models cannot be fetched, and fetches again on refresh', async () => {
    const driver = new Driver();
    const actor = start(driver);
    const notices: unknown[] = [];
    actor.on('notice', (e) => notices.push(e));
    actor.send({ type: 'models.open', kind: 'all' });
    await flush();
    driver.settle('fetchModels', '', { error: new Error('HTTP 500') });
    await flush();
    expect(notices).toEqual([
      expect.objectContaining({
        type: 'notice',
        variant: 'danger',
        title: 'Failed',
        message: 'Models could not be fetched. Please try again.',
      }),
    ]);
    expect(MODELS_FETCH_FAILED.message).toBe('Models could not be fetched. Please try again.');
    actor.send({ type: 'refresh' });
    await flush();
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    actor.stop();
  });

  it('waits for the typing to stop before fetching a search', async () => {
    const driver = new Driver();
    const actor = start(driver);
    actor.send({ type: 'models.open', kind: 'all' });
    await flush();
    driver.settle('fetchModels', '', { output: PAGE });
    await flush();
    actor.send({ type: 'query.search', search: 'p' });
    driver.clock.increment(200);
    actor.send({ type: 'query.search', search: 'pe' });
    driver.clock.increment(200);
    await flush();
    expect(actor.getSnapshot().matches('typing')).toBe(true);
    driver.clock.increment(150);
    await flush();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().context.query).toMatchObject({ search: 'pe', page: 1 });
    actor.stop();
  });
});
