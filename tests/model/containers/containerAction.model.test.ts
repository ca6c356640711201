import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  containerActionMachine,
  type ContainerActionEvent,
  type ContainerActionInput,
  type CreateInput,
  type DockerActionInput,
  type ImageInput,
} from '../../../machines/containers/containerAction.machine';
import { CONTAINER_TEXTS } from '../../../src/protocol/containers';
import type { Container } from '../../../src/protocol/containers';
import { createMachineTestModel, flush, runPaths, type Driver } from '../harness';
import { container, done, fail, process, request } from './fixtures';

type Snap = SnapshotFrom<typeof containerActionMachine>;

/**
 * Sample events per state: the check answers 200, 404, 500 (with the engine's words) or fails with an
 * invalid reply; a download reports 50 % once, then completes or fails; every command succeeds or fails
 * with a device error or an unknown process; a followed process advances, ends or fails.
 */
function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'xstate.done.actor.checkImage':
      return [
        done('checkImage', { status: 200, message: '' }),
        done('checkImage', { status: 404, message: 'No such image' }),
        done('checkImage', { status: 503, message: 'engine down' }),
      ];
    case 'xstate.error.actor.checkImage':
      return [fail('checkImage', 'invalid_reply', 'bad reply')];
    case 'action.progress':
      return s.context.percent === 0 ? [{ type, percent: 50 } as EventObject] : [];
    case 'action.downloadFailed':
      return [
        {
          type,
          error: Object.assign(new Error('registry unreachable'), { code: 'internal_error' }),
        } as EventObject,
        // Issue 15: the device's link closed under the download (its agent died).
        {
          type,
          error: Object.assign(new Error('The device closed the link.'), { code: 'link_closed' }),
        } as EventObject,
      ];
    case 'xstate.done.actor.cancelDownload':
      return [done('cancelDownload', true)];
    case 'xstate.done.actor.createContainer':
      return [done('createContainer', container({ State: 'created' }))];
    case 'xstate.error.actor.createContainer':
      return [fail('createContainer', 'unknown_process', 'unknown process docker-create')];
    case 'xstate.done.actor.runDockerAction':
      return [done('runDockerAction', s.context.action === 'remove' ? null : container())];
    case 'xstate.error.actor.runDockerAction':
      return [fail('runDockerAction', 'internal_error', 'engine said no')];
    case 'xstate.done.actor.startJupyter':
      return [done('startJupyter', container({ Jupyter: true, LocalPort: 49_153 }))];
    case 'xstate.error.actor.startJupyter':
      return [fail('startJupyter', 'timeout', 'Jupyter did not answer')];
    case 'action.process':
      return s.context.percent === 40
        ? [
            { type, process: process({ percent: 60 }) } as EventObject,
            { type, process: process({ percent: null, ended: 2_000, message: 'Done' }) } as EventObject,
            {
              type,
              process: process({ ended: 2_000, error: CONTAINER_TEXTS.actionHasFailed }),
            } as EventObject,
          ]
        : [];
    default:
      return type.startsWith('xstate.error.actor.')
        ? [fail(type.slice('xstate.error.actor.'.length))]
        : undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([s.value, s.context.percent, s.context.error, s.context.message, s.context.containerId]);

const input = (over: Partial<ContainerActionInput> = {}): ContainerActionInput => ({
  ...request(),
  key: 'dev-1:pytorch-lab',
  now: () => 1_000,
  ...over,
});

function starter(actionInput: ContainerActionInput) {
  return (driver: Driver) =>
    createActor(
      containerActionMachine.provide({
        actors: {
          checkImage: driver.promise<{ status: number; message: string }, ImageInput>('checkImage'),
          // Its progress and end are the path's own events.
          downloadImage: driver.callback<ContainerActionEvent, ImageInput>('downloadImage'),
          cancelDownload: driver.promise<boolean, ImageInput>('cancelDownload'),
          createContainer: driver.promise<Container, CreateInput>('createContainer'),
          runDockerAction: driver.promise<Container | null, DockerActionInput>('runDockerAction'),
          startJupyter: driver.promise<Container, { deviceId: string; containerId: string }>('startJupyter'),
        },
      }),
      { input: actionInput, clock: driver.clock },
    ).start();
}

/** The model's paths for one input, each run on the real machine. */
async function pathsOf(actionInput: ContainerActionInput) {
  const model = createMachineTestModel(containerActionMachine, {
    events: eventsFor,
    key,
    input: actionInput,
    // Each (state, incoming event) its own node: cancel from the offer and from the download both end paths.
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });
  const steps = await runPaths(paths, starter(actionInput), key);
  return { paths, steps, ends: paths.map((p) => p.state) };
}

const endsIn = (ends: Snap[], tag: string) => ends.filter((s) => s.status === 'done' && s.hasTag(tag));

describe('container action (model-based paths)', () => {
  it(
    'create: check, download offer, progress, cancel, download again, create, start, Jupyter — every end right',
    {
      timeout: 120_000,
    },
    async () => {
      const { paths, steps, ends } = await pathsOf(input({ jupyter: true }));
      expect(steps).toBeGreaterThan(paths.length);
      const values = new Set(ends.map((s) => JSON.stringify(s.value)));
      for (const state of [
        'checkingImage',
        'offeringDownload',
        'downloading',
        'cancelingDownload',
        'creating',
        'startingJupyter',
        'succeeded',
        'failed',
        'canceled',
      ]) {
        expect(values.has(JSON.stringify(state)), state).toBe(true);
      }
      // §8: the download offer is "Environment not found"; a download shows its percent.
      expect(
        ends.some((s) => s.hasTag('awaitingConfirm') && s.context.message === CONTAINER_TEXTS.envNotFound),
      ).toBe(true);
      expect(ends.some((s) => s.hasTag('downloading') && s.context.percent === 50)).toBe(true);
      // A failed download goes back to the offer with its reason (download again).
      expect(
        ends.some((s) => s.hasTag('awaitingConfirm') && s.context.error === 'registry unreachable'),
      ).toBe(true);
      // Success ends with the container Jupyter runs in.
      for (const s of endsIn(ends, 'succeeded')) {
        expect(s.context.container?.Jupyter).toBe(true);
        expect(s.context.ended).toBe(1_000);
      }
      // Failures carry their §8 title and the device's or the flow's words.
      const failures = endsIn(ends, 'failed').map((s) => [s.context.error, s.context.message]);
      expect(failures).toContainEqual([CONTAINER_TEXTS.imageCheckFailed, 'engine down']);
      expect(failures).toContainEqual([CONTAINER_TEXTS.imageCheckFailed, CONTAINER_TEXTS.unexpectedResponse]);
      expect(failures).toContainEqual([CONTAINER_TEXTS.actionFailed, CONTAINER_TEXTS.unknownDockerAction]);
      expect(failures).toContainEqual([CONTAINER_TEXTS.actionFailed, 'Jupyter did not answer']);
      // Issue 15: a download whose device went offline fails (no offer back) with the device-offline words.
      expect(failures).toContainEqual([CONTAINER_TEXTS.actionFailed, CONTAINER_TEXTS.deviceOffline]);
      expect(
        ends.some((s) => s.hasTag('awaitingConfirm') && s.context.error === CONTAINER_TEXTS.deviceOffline),
      ).toBe(false);
      // Canceled from the offer or during the download (cancel-docker-download answered either way).
      const canceled = paths.filter((p) => p.state.hasTag('canceled'));
      expect(canceled.some((p) => p.steps.some((step) => step.state.matches('cancelingDownload')))).toBe(
        true,
      );
      expect(canceled.some((p) => p.steps.at(-2)?.state.matches('offeringDownload'))).toBe(true);
      for (const s of endsIn(ends, 'canceled')) expect(s.context.percent).toBeNull();
    },
  );

  it('create without Jupyter starts the new container and ends', { timeout: 60_000 }, async () => {
    const { ends } = await pathsOf(input());
    expect(ends.some((s) => s.matches('startingJupyter'))).toBe(false);
    expect(ends.some((s) => s.matches('running') && s.context.containerId === 'c0ffee0123456789abcdef')).toBe(
      true,
    );
    expect(endsIn(ends, 'succeeded').every((s) => s.context.container?.State === 'running')).toBe(true);
  });

  it('start with Jupyter runs docker-start, then start-jupyter', { timeout: 60_000 }, async () => {
    const { ends } = await pathsOf(
      input({ action: 'start', containerId: 'c0ffee0123456789abcdef', jupyter: true }),
    );
    expect(ends.some((s) => s.matches('checkingImage'))).toBe(false);
    expect(ends.some((s) => s.matches('startingJupyter'))).toBe(true);
    expect(endsIn(ends, 'failed').map((s) => s.context.message)).toContain('engine said no');
  });

  it('Start Jupyter on a running container goes to start-jupyter at once', { timeout: 60_000 }, async () => {
    const { ends } = await pathsOf(
      input({
        action: 'start',
        containerId: 'c0ffee0123456789abcdef',
        jupyter: true,
        containerRunning: true,
      }),
    );
    expect(ends.some((s) => s.matches('running'))).toBe(false);
    expect(endsIn(ends, 'succeeded').length).toBeGreaterThan(0);
  });

  it('stop and remove run their command and end', { timeout: 60_000 }, async () => {
    for (const action of ['stop', 'remove'] as const) {
      const { ends } = await pathsOf(input({ action, containerId: 'c0ffee0123456789abcdef', jupyter: true }));
      expect(
        ends.some((s) => s.matches('startingJupyter')),
        action,
      ).toBe(false);
      expect(endsIn(ends, 'succeeded').length, action).toBeGreaterThan(0);
      expect(endsIn(ends, 'failed').length, action).toBeGreaterThan(0);
    }
  });

  it('fails at once with "Unknown action" for an action not of §4, or one without its container', async () => {
    for (const over of [{ action: 'restart' }, { action: 'stop', containerId: null }]) {
      const actor = createActor(containerActionMachine, { input: input(over) });
      const dialogs: unknown[] = [];
      actor.on('dialog', (e) => dialogs.push(e));
      actor.start();
      expect(actor.getSnapshot().hasTag('failed')).toBe(true);
      expect(actor.getSnapshot().context.error).toBe(CONTAINER_TEXTS.unknownAction);
      expect(dialogs).toEqual([
        { type: 'dialog', title: CONTAINER_TEXTS.unknownAction, message: over.action },
      ]);
    }
  });

  it(
    'follows a Docker process found after a reload until it ends, and cancels a followed download',
    {
      timeout: 60_000,
    },
    async () => {
      const { ends } = await pathsOf(input({ follow: process() }));
      expect(ends.some((s) => s.matches('following') && s.context.percent === 60)).toBe(true);
      expect(endsIn(ends, 'succeeded').length).toBeGreaterThan(0);
      expect(endsIn(ends, 'failed').map((s) => s.context.error)).toContain(CONTAINER_TEXTS.actionHasFailed);
      expect(endsIn(ends, 'canceled').length).toBeGreaterThan(0);
    },
  );

  it('reports its end to the registry and shows the failure dialog', async () => {
    const reports: EventObject[] = [];
    const registry = createActor(
      // A stand-in for the registry: it only records what it is told.
      (await import('xstate')).fromCallback(({ receive }) => receive((e) => reports.push(e))),
    ).start();
    const actor = createActor(
      containerActionMachine.provide({
        actors: {
          checkImage: (await import('xstate')).fromPromise(async () => ({
            status: 500,
            message: 'disk full',
          })),
        },
      }),
      { input: input({ reportTo: registry }) },
    );
    const dialogs: unknown[] = [];
    actor.on('dialog', (e) => dialogs.push(e));
    actor.start();
    await flush();
    expect(dialogs).toEqual([
      { type: 'dialog', title: CONTAINER_TEXTS.imageCheckFailed, message: 'disk full' },
    ]);
    expect(reports).toEqual([
      { type: 'action.ended', key: 'dev-1:pytorch-lab', deviceId: 'dev-1', outcome: 'failed' },
    ]);
  });
});
