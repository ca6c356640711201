/**
 * The contact form machine on model-based paths (§2 /contact): an invalid form stays in editing with its
 * errors shown; a valid one is sent, then sent | back to editing with the server's message (rate limit); sent
 * → again clears it.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { contactMachine } from '../../../machines/public/contact.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof contactMachine>;
const ev = (e: object) => e as unknown as EventObject;
const valid = { name: 'Ada', email: 'ada@x.io', subject: 'Hello', message: 'A message long enough.' };

const events = (_s: Snap, type: string): EventObject[] | undefined => {
  switch (type) {
    case 'contact.submit':
      return [ev({ type, form: valid }), ev({ type, form: { ...valid, email: 'nope', message: 'short' } })];
    case 'xstate.done.actor.send':
      return [ev({ type, output: { id: 'm1' } })];
    case 'xstate.error.actor.send':
      return [ev({ type, error: new Error('Too many attempts. Try again in 1 minute.') })];
    default:
      return undefined;
  }
};
const key = (s: Snap) => JSON.stringify([s.value, s.context.attempted, s.context.error, s.context.sentId]);

describe('contact machine (model-based paths)', () => {
  it('validates, sends, shows the refusal, starts again', async () => {
    const paths = createMachineTestModel(contactMachine, { events, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (d: Driver) =>
      createActor(contactMachine.provide({ actors: { send: d.promise('send') } })).start();
    await runPaths(paths, start, key);
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.matches('sent') && s.context.sentId === 'm1')).toBe(true);
    expect(ends.some((s) => s.matches('editing') && s.context.error?.startsWith('Too many'))).toBe(true);
    expect(ends.some((s) => s.matches('editing') && s.context.attempted)).toBe(true);
    // Only a valid form is ever sent.
    for (const p of paths)
      for (const step of p.steps)
        if (step.state.matches('sending'))
          expect((step.event as unknown as { form: typeof valid }).form).toEqual(valid);
  });
});
