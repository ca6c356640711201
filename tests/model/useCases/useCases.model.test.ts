/**
 * The use cases list machine on model-based paths (issue 11 use cases): load, fail and reload; a start
 * created (reload, the new one remembered) or refused (the form error kept, cleared by form.clear or the next
 * start); a stop asked (only a listed use case), cancelled, confirmed (reload) or refused (error kept).
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { useCasesMachine } from '../../../machines/useCases/useCases.machine';
import type { UseCase, UseCaseInput } from '../../../src/protocol/analytics';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof useCasesMachine>;

const UC: UseCase = {
  id: 'u1',
  name: 'Door',
  kind: 'person-counter',
  job_id: 'j1',
  job_name: 'Lobby',
  device_id: 'dev-1',
  camera_id: 'cam-1',
  line: { x1: 0.5, y1: 0, x2: 0.5, y2: 1 },
  interval_seconds: 60,
  created_at: '2026-11-28T03:00:00.000Z',
};
const INPUT: UseCaseInput = {
  name: 'Door',
  kind: 'person-counter',
  job_id: '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11',
  line: UC.line,
  interval_seconds: 60,
};

function eventsFor(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'useCase.start':
      return [{ type, input: INPUT }] as unknown as EventObject[];
    case 'useCase.stop':
      return [
        { type, id: 'u1' },
        { type, id: 'unknown' },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.loadUseCases':
      return [{ type, output: [UC] }] as unknown as EventObject[];
    case 'xstate.error.actor.loadUseCases':
      return [{ type, error: new Error('Servers are unavailable.') }] as unknown as EventObject[];
    case 'xstate.done.actor.startUseCase':
      return [{ type, output: UC }] as unknown as EventObject[];
    case 'xstate.error.actor.startUseCase':
      return [{ type, error: new Error('Job not found.') }] as unknown as EventObject[];
    case 'xstate.done.actor.stopUseCase':
      return [{ type, output: { ok: true } }] as unknown as EventObject[];
    case 'xstate.error.actor.stopUseCase':
      return [{ type, error: new Error('Use case not found.') }] as unknown as EventObject[];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.useCases.length,
    s.context.target?.id ?? null,
    s.context.error,
    s.context.formError,
    s.context.created,
  ]);

describe('use cases list machine (model-based paths)', () => {
  const paths = createMachineTestModel(useCasesMachine, { events: eventsFor, key }).getShortestPaths({
    allowDuplicatePaths: true,
  });

  it('follows every modelled path on the real machine', async () => {
    const start = (driver: Driver) =>
      createActor(
        useCasesMachine.provide({
          actors: {
            loadUseCases: driver.promise('loadUseCases'),
            startUseCase: driver.promise('startUseCase'),
            stopUseCase: driver.promise('stopUseCase'),
          },
        }),
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['idle', 'loading', 'ready', 'failed', 'starting', 'confirming', 'stopping'] as const)
      expect(ends.some((s) => s.matches(st))).toBe(true);
    expect(ends.some((s) => s.matches('ready') && s.context.formError === 'Job not found.')).toBe(true);
    expect(ends.some((s) => s.matches('ready') && s.context.error === 'Use case not found.')).toBe(true);
    expect(ends.some((s) => s.context.created === 'u1')).toBe(true);
    for (const p of paths)
      for (const st of p.steps) {
        if (st.state.matches('confirming')) expect(st.state.context.target?.id).toBe('u1');
        // a refused start never leaves the list
        if (st.state.matches('starting')) expect(st.state.context.formError).toBeNull();
      }
  });
});
