/**
 * The image push machine on model-based paths (§4 "Image push: started, error, successful"): a valid request
 * goes idle → started → successful | error with a toast each way; an invalid target tag or repository stays
 * in idle without calling the server; successful and error can start again or reset.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import {
  imagePushMachine,
  invalidField,
  type PushRequest,
} from '../../../machines/repositories/imagePush.machine';
import type { ConsoleEmitted } from '../../../machines/notifications/emitted';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof imagePushMachine>;

const valid: PushRequest = { alias: 'app', tag: '1.0.0', targetRepository: null, targetTag: 'stable' };
const result = {
  repository: 'edge_prod/app',
  tag: 'stable',
  digest: 'sha256:ab',
  pull_command: 'docker pull r/edge_prod/app:stable',
};

function eventsFor(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'push.start':
      return [
        { type, ...valid },
        { type, ...valid, targetTag: '-bad' },
        { type, ...valid, targetRepository: 'Upper/Case' },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.pushImage':
      return [{ type, output: result }] as unknown as EventObject[];
    case 'xstate.error.actor.pushImage':
      return [
        {
          type,
          error: Object.assign(new Error('edge_prod/app:stable already exists.'), { code: 'Tag_exists' }),
        },
      ] as unknown as EventObject[];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([s.value, s.context.invalid, s.context.result?.tag ?? null, s.context.error]);

describe('image push machine (model-based paths)', () => {
  it('follows every modelled path on the real machine', async () => {
    const paths = createMachineTestModel(imagePushMachine, { events: eventsFor, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (driver: Driver) =>
      createActor(imagePushMachine.provide({ actors: { pushImage: driver.promise('pushImage') } })).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const state of ['idle', 'started', 'successful', 'error'] as const)
      expect(ends.some((s) => s.matches(state))).toBe(true);
    expect(ends.some((s) => s.matches('idle') && s.context.invalid === 'targetTag')).toBe(true);
    expect(ends.some((s) => s.matches('idle') && s.context.invalid === 'targetRepository')).toBe(true);
    // Started only with a valid request.
    for (const p of paths)
      for (const st of p.steps)
        if (st.state.matches('started')) expect(invalidField(st.state.context.request!)).toBeNull();
  });

  it('emits a success toast and a failure toast, and sends the request it was given', async () => {
    const notices: ConsoleEmitted[] = [];
    const seen: PushRequest[] = [];
    let fail = false;
    const actor = createActor(
      imagePushMachine.provide({
        actors: {
          pushImage: fromPromise(async ({ input }: { input: PushRequest }) => {
            seen.push(input);
            if (fail) throw new Error('denied');
            return result;
          }),
        },
      }),
    ).start();
    actor.on('notice', (e) => notices.push(e));
    actor.send({ type: 'push.start', ...valid, targetRepository: 'released/app' });
    await new Promise((r) => setImmediate(r));
    expect(actor.getSnapshot().value).toBe('successful');
    fail = true;
    actor.send({ type: 'push.start', ...valid });
    await new Promise((r) => setImmediate(r));
    expect(actor.getSnapshot().value).toBe('error');
    expect(seen[0]).toEqual({ ...valid, targetRepository: 'released/app' });
    expect(notices.map((n) => n.type === 'notice' && n.variant)).toEqual(['success', 'danger']);
  });
});
