/**
 * The confirm-and-apply machine of an admin's action on a user (issue 13 admin panel: disable, enable, reset
 * 2FA, roles) on model-based paths: nothing is applied before confirm; cancel; a refusal (409 Last_admin) is
 * kept in the dialog; success emits a notice and `applied`.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { userActionMachine } from '../../../machines/admin/userAction.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof userActionMachine>;
const LAST_ADMIN = 'This would leave no active admin: make another user an admin first.';

function eventsFor(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'action.ask':
      return [
        { type, action: 'disable', user: { id: 'u1', email: 'ada@example.com' } },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.applyAction':
      return [{ type, output: {} }] as unknown as EventObject[];
    case 'xstate.error.actor.applyAction':
      return [{ type, error: new Error(LAST_ADMIN) }] as unknown as EventObject[];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([s.value, s.context.action, s.context.user?.id ?? null, s.context.error]);

describe('user action machine (model-based paths)', () => {
  it('follows every modelled path on the real machine; applies only after confirm', async () => {
    const paths = createMachineTestModel(userActionMachine, {
      events: eventsFor,
      key,
      transitionCoverage: true,
    }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const applied: string[] = [];
    const start = (driver: Driver) => {
      const actor = createActor(
        userActionMachine.provide({ actors: { applyAction: driver.promise('applyAction') } }),
      );
      actor.on('applied', (e) => applied.push(`${e.action}:${e.userId}`));
      return actor.start();
    };
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['idle', 'confirming', 'applying'] as const)
      expect(ends.some((s) => s.matches(st))).toBe(true);
    expect(ends.some((s) => s.matches('confirming') && s.context.error === LAST_ADMIN)).toBe(true);
    expect(applied).toContain('disable:u1');
    for (const p of paths) {
      for (const st of p.steps) {
        if (st.state.matches('applying')) {
          // applying is reached only from confirming by action.confirm
          expect(st.event.type).toBe('action.confirm');
        }
      }
    }
  });
});
