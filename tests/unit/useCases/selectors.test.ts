import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { useCaseDataMachine } from '../../../machines/useCases/useCaseData.machine';
import { useCasesMachine } from '../../../machines/useCases/useCases.machine';
import { dataToView, casesToView } from '../../../src/console/features/useCases/selectors';
import type { UseCase } from '../../../src/protocol/analytics';

const uc = (id: string, name: string, kind: UseCase['kind']): UseCase => ({
  id,
  name,
  kind,
  job_id: 'j',
  job_name: 'Job',
  device_id: 'd',
  camera_id: 'cam-1',
  line: null,
  interval_seconds: 60,
  created_at: '2026-11-28T03:00:00.000Z',
});

describe('use cases snapshot → view', () => {
  it('lists one kind by name, with the state and the stop target', async () => {
    const list = [
      uc('2', 'Zeta', 'person-counter'),
      uc('1', 'Alpha', 'person-counter'),
      uc('3', 'D', 'demographic'),
    ];
    const actor = createActor(
      useCasesMachine.provide({ actors: { loadUseCases: fromPromise(async () => list) } }),
    ).start();
    expect(casesToView(actor.getSnapshot(), 'person-counter').state).toBe('idle');
    actor.send({ type: 'useCases.load' });
    expect(casesToView(actor.getSnapshot(), 'person-counter')).toMatchObject({
      state: 'loading',
      busy: true,
    });
    await waitFor(actor, (s) => s.matches('ready'));
    const v = casesToView(actor.getSnapshot(), 'person-counter');
    expect(v.list.map((u) => u.name)).toEqual(['Alpha', 'Zeta']);
    expect(casesToView(actor.getSnapshot(), 'demographic').list.map((u) => u.id)).toEqual(['3']);
    actor.send({ type: 'useCase.stop', id: '2' });
    expect(casesToView(actor.getSnapshot(), 'person-counter')).toMatchObject({
      state: 'confirming',
      stopping: { name: 'Zeta' },
    });
  });

  it('gives a data reader’s answer, error and loading', async () => {
    let fail = false;
    const actor = createActor(
      useCaseDataMachine.provide({
        actors: {
          fetchData: fromPromise<unknown, unknown>(async () => {
            if (fail) throw new Error('Use case not found.');
            return { total: { in: 1, out: 2 } };
          }),
        },
      }),
      { input: { pollMs: 0 } },
    ).start();
    expect(dataToView(actor.getSnapshot())).toEqual({
      data: null,
      error: null,
      loading: false,
      lastUpdate: null,
    });
    actor.send({ type: 'data.query', query: { id: 'u' } });
    expect(dataToView(actor.getSnapshot()).loading).toBe(true);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(dataToView(actor.getSnapshot())).toMatchObject({
      data: { total: { in: 1, out: 2 } },
      error: null,
    });
    fail = true;
    actor.send({ type: 'data.refresh' });
    await waitFor(actor, (s) => s.matches('failed'));
    // the last answer stays shown next to the error
    expect(dataToView(actor.getSnapshot())).toMatchObject({
      data: { total: { in: 1, out: 2 } },
      error: 'Use case not found.',
    });
  });
});
