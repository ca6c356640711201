/**
 * Model-based paths of the client actions (machines/deviceSettings/clientAction.machine.ts) on the real
 * machine: ask → confirm (a CIE address refused before sending, then a good one) → running → done / failed,
 * cancel and dismiss.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  clientActionMachine,
  type RunActionInput,
} from '../../../machines/deviceSettings/clientAction.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof clientActionMachine>;

function eventsFor(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'action.ask':
      return [
        { type, action: 'restartEngine' },
        { type, action: 'connectCie' },
      ] as unknown as EventObject[];
    case 'action.setUrl':
      return [
        { type, url: 'cie.local' },
        { type, url: 'http://cie.local:8080/' },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.runAction':
      return [{ type: 'xstate.done.actor.runAction', output: undefined } as EventObject];
    case 'xstate.error.actor.runAction':
      return [
        {
          type: 'xstate.error.actor.runAction',
          error: Object.assign(new Error('This device has no FRP client service (frpc) to restart'), {
            code: 'unsupported',
          }),
        } as EventObject,
      ];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.action,
    s.context.cieUrl,
    s.context.cieError,
    s.context.error?.code ?? null,
  ]);

describe('client actions (model-based paths)', () => {
  const model = createMachineTestModel(clientActionMachine, {
    events: eventsFor,
    key,
    input: { deviceId: 'dev-1' },
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('never runs connect-cie with an address that fails the check', () => {
    for (const p of paths) {
      for (const step of p.steps) {
        const s = step.state;
        if (s.matches('running') && s.context.action === 'connectCie') {
          expect(s.context.cieUrl).toBe('http://cie.local:8080/');
        }
      }
    }
    expect(paths.some((p) => p.state.matches('confirming') && p.state.context.cieError?.key === 'url')).toBe(
      true,
    );
    expect(
      paths.some((p) => p.state.matches('failed') && p.state.context.error?.code === 'unsupported'),
    ).toBe(true);
    expect(paths.some((p) => p.state.matches('done'))).toBe(true);
  });

  it('follows every modelled path on the real machine', async () => {
    const start = (driver: Driver) =>
      createActor(
        clientActionMachine.provide({
          actors: { runAction: driver.promise<void, RunActionInput>('runAction') },
        }),
        { input: { deviceId: 'dev-1' }, clock: driver.clock },
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
  });
});
