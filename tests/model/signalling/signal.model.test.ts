import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  signalMachine,
  type SignalEvent,
  type SignalInput,
} from '../../../machines/signalling/signal.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof signalMachine>;

const samples: Record<string, EventObject[]> = {
  'signal.lost': [{ type: 'signal.lost', error: 'Signalling connection lost.' } as EventObject],
  'xstate.error.actor.openSignalling': [
    {
      type: 'xstate.error.actor.openSignalling',
      error: new Error('Signalling server is not reachable.'),
    } as EventObject,
  ],
};

// attempts only drives the back-off length; the state is the value and the error shown.
const key = (s: Snap) => JSON.stringify([s.value, s.context.error]);
const input: SignalInput = { browserId: 'web-0123456789abcdef' };

const model = createMachineTestModel(signalMachine, {
  events: (_, type) => samples[type],
  key,
  input,
  transitionCoverage: true,
});

function start(driver: Driver) {
  return createActor(
    signalMachine.provide({
      actors: {
        openSignalling: driver.promise<void, SignalInput>('openSignalling'),
        watchSignalling: driver.callback<SignalEvent, SignalInput>('watchSignalling'),
      },
    }),
    { input, clock: driver.clock },
  ).start();
}

describe('signal (model-based paths)', () => {
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('covers none, connecting, connected and failed (§4 statuses 0–3)', () => {
    expect(new Set(paths.map((p) => p.state.value))).toEqual(
      new Set(['none', 'connecting', 'connected', 'failed']),
    );
  });

  it('follows every modelled path on the real machine', async () => {
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
  });
});
