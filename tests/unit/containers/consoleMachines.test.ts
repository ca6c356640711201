import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import {
  CONTAINER_LOG_CLEAR_MS,
  containerLogsMachine,
  LOG_REFRESH_MS,
} from '../../../machines/containers/containerLogs.machine';
import {
  containersMachine,
  OPEN_JUPYTER_FAILED,
  type ConnectedDevice,
  type ContainersEvent,
} from '../../../machines/containers/containers.machine';
import { ENVIRONMENT_TEXTS, environmentsMachine } from '../../../machines/containers/environments.machine';
import type { Environment, EnvironmentInput } from '../../../src/protocol/containers';
import { container } from '../../model/containers/fixtures';

const flush = () => new Promise((r) => setTimeout(r, 0));
const dev = (id: string): ConnectedDevice => ({ deviceId: id, name: `Device ${id}`, chipsetId: '33' });

/** A containers actor whose source records the load requests and lets the test send for it. */
function containersWithSource() {
  const loads: string[] = [];
  let sendBack: (e: ContainersEvent) => void = () => undefined;
  const opens: Array<{ deviceId: string; containerId: string }> = [];
  const actor = createActor(
    containersMachine.provide({
      actors: {
        containerSource: fromCallback(({ sendBack: s, receive }) => {
          sendBack = s;
          receive((e) => loads.push((e as unknown as { deviceId: string }).deviceId));
        }),
        openRemote: fromCallback(({ input }) => {
          opens.push(input);
        }),
      },
    }),
  ).start();
  return { actor, loads, opens, send: (e: ContainersEvent) => sendBack(e) };
}

describe('containers of connected devices (§2 /control-panel/containers)', () => {
  it('loads each device that connects, keeps pushed changes, forgets a device that leaves', () => {
    const { actor, loads, send } = containersWithSource();
    actor.send({ type: 'containers.watch' });
    send({ type: 'containers.devices', devices: [dev('a')] });
    send({ type: 'containers.devices', devices: [dev('a'), dev('b')] });
    expect(loads).toEqual(['a', 'b']);
    expect(actor.getSnapshot().context.loading).toEqual(['a', 'b']);
    send({ type: 'containers.loaded', deviceId: 'a', containers: [container()] });
    send({ type: 'containers.loadFailed', deviceId: 'b', error: 'timeout' });
    expect(actor.getSnapshot().context).toMatchObject({ loading: [], errors: { b: 'timeout' } });
    send({ type: 'containers.changed', deviceId: 'a', containers: [container({ State: 'exited' })] });
    expect(actor.getSnapshot().context.byDevice.a?.[0]?.State).toBe('exited');
    actor.send({ type: 'containers.filter', filter: { deviceId: 'b' } });
    send({ type: 'containers.devices', devices: [dev('a')] });
    expect(actor.getSnapshot().context).toMatchObject({
      errors: {},
      filter: { deviceId: null, state: null },
    });
    // A late answer of a device that left is dropped.
    send({ type: 'containers.loaded', deviceId: 'b', containers: [container()] });
    expect(Object.keys(actor.getSnapshot().context.byDevice)).toEqual(['a']);
  });

  it('reloads one device after an action, or all on Refresh', () => {
    const { actor, loads, send } = containersWithSource();
    actor.send({ type: 'containers.watch' });
    send({ type: 'containers.devices', devices: [dev('a'), dev('b')] });
    loads.length = 0;
    actor.send({ type: 'containers.refresh', deviceId: 'b' });
    actor.send({ type: 'containers.refresh' });
    actor.send({ type: 'containers.refresh', deviceId: 'gone' });
    expect(loads).toEqual(['b', 'a', 'b']);
  });

  it('opens Jupyter once at a time and shows why it could not', () => {
    const { actor, opens } = containersWithSource();
    const notices: unknown[] = [];
    actor.on('notice', (e) => notices.push(e));
    actor.send({ type: 'containers.watch' });
    actor.send({ type: 'containers.openJupyter', deviceId: 'a', containerId: 'c1' });
    actor.send({ type: 'containers.openJupyter', deviceId: 'a', containerId: 'c2' });
    expect(opens).toEqual([{ deviceId: 'a', containerId: 'c1' }]);
    expect(actor.getSnapshot().context.opening).toBe('c1');
    actor.send({ type: 'containers.remoteFailed', error: 'Not found' });
    expect(actor.getSnapshot().context.opening).toBeNull();
    expect(notices).toEqual([
      { type: 'notice', title: OPEN_JUPYTER_FAILED, message: 'Not found', variant: 'danger' },
    ]);
  });

  it('forgets everything on sign-out', () => {
    const { actor, send } = containersWithSource();
    actor.send({ type: 'containers.watch' });
    send({ type: 'containers.devices', devices: [dev('a')] });
    actor.send({ type: 'containers.reset' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.devices).toEqual([]);
  });
});

describe('container log (§9 "Container log cleared after 3 s")', () => {
  function logs() {
    const clock = new SimulatedClock();
    const reads: string[] = [];
    const actor = createActor(
      containerLogsMachine.provide({
        actors: {
          readLogs: fromPromise(async ({ input }) => {
            reads.push(input.containerId);
            return [`line ${reads.length}`];
          }),
        },
      }),
      { clock },
    ).start();
    return { actor, clock, reads };
  }

  it('reads the log while open, again every LOG_REFRESH_MS', async () => {
    const { actor, clock, reads } = logs();
    actor.send({ type: 'logs.open', deviceId: 'a', containerId: 'c1', title: 'lab' });
    await flush();
    expect(actor.getSnapshot().context.lines).toEqual(['line 1']);
    clock.increment(LOG_REFRESH_MS);
    await flush();
    expect(reads).toEqual(['c1', 'c1']);
    expect(actor.getSnapshot().context.lines).toEqual(['line 2']);
  });

  it('clears the lines 3 s after it is closed, not before', async () => {
    const { actor, clock } = logs();
    actor.send({ type: 'logs.open', deviceId: 'a', containerId: 'c1', title: 'lab' });
    await flush();
    actor.send({ type: 'logs.close' });
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
    clock.increment(CONTAINER_LOG_CLEAR_MS - 1);
    expect(actor.getSnapshot().context.lines).toEqual(['line 1']);
    clock.increment(1);
    expect(actor.getSnapshot().context).toMatchObject({ lines: [], containerId: null });
  });

  it('keeps the lines when opened again within the 3 s', async () => {
    const { actor, clock } = logs();
    actor.send({ type: 'logs.open', deviceId: 'a', containerId: 'c1', title: 'lab' });
    await flush();
    actor.send({ type: 'logs.close' });
    clock.increment(1_000);
    actor.send({ type: 'logs.open', deviceId: 'a', containerId: 'c1', title: 'lab' });
    clock.increment(CONTAINER_LOG_CLEAR_MS);
    expect(actor.getSnapshot().hasTag('open')).toBe(true);
    expect(actor.getSnapshot().context.lines.length).toBe(1);
  });
});

describe('environment catalogue (§2 /containers, environment-detail, /admin-panel/dockers)', () => {
  const env = { alias: 'yolo', id: 'e1' } as Environment;
  const httpError = (status: number, message: string) => Object.assign(new Error(message), { status });

  function catalogue(save: () => Promise<Environment>) {
    const calls: string[] = [];
    const actor = createActor(
      environmentsMachine.provide({
        actors: {
          loadEnvironments: fromPromise(async () => {
            calls.push('list');
            return [env];
          }),
          loadEnvironment: fromPromise(async ({ input }) => {
            calls.push(`${input.public ? 'public' : 'detail'}:${input.alias}`);
            if (input.alias === 'gone') throw httpError(404, 'Not found');
            return env;
          }),
          saveEnvironment: fromPromise(save),
          deleteEnvironment: fromPromise<void, { id: string }>(async () => undefined),
        },
      }),
    ).start();
    return { actor, calls };
  }

  it('reads the list, one environment, and its public facts; 404 is "missing"', async () => {
    const { actor, calls } = catalogue(async () => env);
    actor.send({ type: 'environments.load' });
    actor.send({ type: 'environments.open', alias: 'yolo', public: true });
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ environments: [env], detail: env });
    actor.send({ type: 'environments.open', alias: 'gone' });
    await flush();
    expect(actor.getSnapshot().hasTag('detailMissing')).toBe(true);
    expect(calls).toEqual(['list', 'public:yolo', 'detail:gone']);
  });

  it('saves, reads the list again and says so; a taken alias is an error of the alias field', async () => {
    let answer: () => Promise<Environment> = async () => env;
    const { actor, calls } = catalogue(() => answer());
    const notices: unknown[] = [];
    actor.on('notice', (e) => notices.push(e));
    actor.send({ type: 'environments.save', id: null, input: {} as EnvironmentInput });
    await flush();
    expect(actor.getSnapshot().hasTag('saved')).toBe(true);
    expect(calls).toEqual(['list']);
    expect(notices).toEqual([
      { type: 'notice', title: ENVIRONMENT_TEXTS.saved, message: '', variant: 'success' },
    ]);
    answer = async () => {
      throw httpError(409, 'Alias taken');
    };
    actor.send({ type: 'environments.save', id: 'e1', input: {} as EnvironmentInput });
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({
      editError: ENVIRONMENT_TEXTS.aliasTaken,
      editField: 'alias',
    });
    answer = async () => {
      throw httpError(500, 'Database down');
    };
    actor.send({ type: 'environments.save', id: 'e1', input: {} as EnvironmentInput });
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ editError: 'Database down', editField: null });
    actor.send({ type: 'environments.editReset' });
    expect(actor.getSnapshot().context.editError).toBeNull();
  });

  it('deletes and reads the list again', async () => {
    const { actor, calls } = catalogue(async () => env);
    actor.send({ type: 'environments.delete', id: 'e1' });
    await flush();
    expect(calls).toEqual(['list']);
    expect(actor.getSnapshot().hasTag('saved')).toBe(true);
  });
});
