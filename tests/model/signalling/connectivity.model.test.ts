import { describe, expect, it } from 'vitest';
import {
  createActor,
  fromCallback,
  SimulatedClock,
  type NonReducibleUnknown,
  type SnapshotFrom,
} from 'xstate';
import {
  connectivityMachine,
  RECONNECT_NOTICE_DELAY_MS,
  STILL_UNREACHABLE_MS,
  type ConnectivityEvent,
} from '../../../machines/signalling/connectivity.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof connectivityMachine>;

const key = (s: Snap) => JSON.stringify([s.value, s.context.serverUp]);

const model = createMachineTestModel(connectivityMachine, {
  events: () => undefined,
  key,
  transitionCoverage: true,
});

function start(driver: Driver) {
  return createActor(
    connectivityMachine.provide({
      actors: {
        watchConnectivity: driver.callback<ConnectivityEvent, NonReducibleUnknown>('watchConnectivity'),
      },
    }),
    { clock: driver.clock },
  ).start();
}

describe('connectivity (model-based paths)', () => {
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches every notice state', () => {
    const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    for (const s of ['starting', 'online', 'lost', 'reconnecting', 'unreachable', 'offline'])
      expect(reached).toContain(JSON.stringify({ watching: s }));
  });

  it('follows every modelled path on the real machine', async () => {
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
  });
});

describe('connectivity (examples)', () => {
  it('a blip shows nothing; a longer drop says reconnecting; coming back online retries at once', () => {
    let retries = 0;
    const clock = new SimulatedClock();
    let report: (e: ConnectivityEvent) => void = () => undefined;
    const actor = createActor(
      connectivityMachine.provide({
        actors: {
          watchConnectivity: fromCallback<ConnectivityEvent>(({ sendBack }) => {
            report = sendBack;
          }),
        },
        actions: { retryNow: () => void retries++ },
      }),
      { clock },
    ).start();
    const notice = () => actor.getSnapshot().hasTag('notice');
    actor.send({ type: 'connectivity.start' });
    report({ type: 'connectivity.server.down' });
    expect(notice()).toBe(false); // still starting
    report({ type: 'connectivity.server.up' });
    report({ type: 'connectivity.server.down' });
    clock.increment(RECONNECT_NOTICE_DELAY_MS - 1);
    report({ type: 'connectivity.server.up' });
    expect(notice()).toBe(false); // a blip
    report({ type: 'connectivity.server.down' });
    clock.increment(RECONNECT_NOTICE_DELAY_MS);
    expect(actor.getSnapshot().matches({ watching: 'reconnecting' })).toBe(true);
    clock.increment(STILL_UNREACHABLE_MS);
    expect(actor.getSnapshot().matches({ watching: 'unreachable' })).toBe(true);
    report({ type: 'connectivity.browser.offline' });
    expect(actor.getSnapshot().matches({ watching: 'offline' })).toBe(true);
    report({ type: 'connectivity.server.up' });
    report({ type: 'connectivity.browser.online' });
    expect(actor.getSnapshot().matches({ watching: 'online' })).toBe(true);
    expect(retries).toBe(1);
    actor.send({ type: 'connectivity.stop' });
    expect(actor.getSnapshot().value).toBe('idle');
  });
});
