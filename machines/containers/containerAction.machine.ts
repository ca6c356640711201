/**
 * One container action — spec §4 "Container action (create, start, stop, remove): a create first checks the
 * image on the device. A 404 offers a download; any other non-200 shows a failure dialog. … Jupyter start
 * follows create/start when selected"; §3 Docker process; §8 "Environment not found, then a download
 * offer", "Image check failed", "Unknown action", "Container action failed", Docker "Unexpected response",
 * "Unknown Docker Action", "Container action has been failed".
 *
 * Spawned by the registry (containerActions.machine.ts), one per `${deviceId}:${envName}`.
 * create: `checkingImage` (check-docker-image) → 200: `creating` (docker-create, which only creates) →
 * `running` (docker-start of the new container); 404: `offeringDownload` ("Environment not found", image and
 * size; the view offers Download / Cancel) → `downloading` (download-docker-image; `action.progress` carries
 * the overall percent) → `creating`. Cancel while downloading → `cancelingDownload` (cancel-docker-download;
 * leaving `downloading` aborts the call) → `canceled` (the user may create again); a failed download returns
 * to the offer with its error (download again), unless the device's link closed under it (issue 15) → `failed`
 * with CONTAINER_TEXTS.deviceOffline. Any other status → `failed`, "Image check failed" + words.
 * start / stop / remove: `running` (docker-start | docker-stop | docker-remove). After create or start with
 * Jupyter selected: `startingJupyter` (start-jupyter); a start of a running container with Jupyter selected
 * (`containerRunning`, the table's "Start Jupyter") goes there at once. An action not of §4, or one without
 * its container, fails with "Unknown action".
 * `following`: a Docker process already running on the device (found after a reload, or started by another
 * tab) is followed through the registry's `action.process` events until it ends.
 *
 * Context is the §3 Docker process (device, docker, envName, message, error, started, ended, gpu) plus the
 * download percent. Tags for views: 'busy' (working), 'downloading', 'awaitingConfirm' (the download
 * offer), 'done', 'succeeded', 'failed', 'canceled'. Every end is reported to `reportTo` (`action.ended`);
 * failures also `emit` a dialog. The device commands are the named actors, provided by
 * src/console/features/containers/actors.ts.
 */
import { assign, emit, enqueueActions, fromCallback, fromPromise, setup, type AnyActorRef } from 'xstate';
import type { Container, DockerProcess } from '../../src/protocol/containers';
import type { ConsoleEmitted } from '../notifications/emitted';
import {
  CONTAINER_TEXTS,
  actionFailureMessage,
  imageCheckFailureMessage,
  imageCheckOutcome,
  isContainerAction,
  isLinkClosedError,
  type ContainerAction,
} from './containerActionChecks';

/** The steps' words (Docker process `message`, §3), English; the views translate the §8 ones. */
export const ACTION_STEPS = {
  checking: 'Checking the image',
  downloading: 'Downloading the image',
  canceling: 'Canceling the download',
  creating: 'Creating the container',
  starting: 'Starting the container',
  running: 'Running the action',
  jupyter: 'Starting Jupyter',
  done: 'Done',
  canceled: 'Canceled',
} as const;

/** What starts an action (from a view, through the registry). */
export interface ContainerActionRequest {
  deviceId: string;
  /** The device's name (§3 Container deviceName), for texts. */
  deviceName: string;
  /** The environment alias (§3 Docker process envName); null for a container the console did not make. */
  envName: string | null;
  /** Image reference `repository:tag` (§3 Docker process docker). */
  image: string;
  /** One of §4's create | start | stop | remove; anything else fails with "Unknown action". */
  action: ContainerAction | (string & {});
  /** The container, for start / stop / remove. */
  containerId?: string | null;
  /** start: the container runs already, only Jupyter is to be started ("Start Jupyter"). */
  containerRunning?: boolean;
  /** Start Jupyter after create / start (§4). */
  jupyter: boolean;
  /** The port Jupyter listens on inside the container (create). */
  jupyterPort?: number | null;
  /** Ask for the GPU (create). */
  gpu: boolean;
  /** The image's download size, MB (shown in the download offer); null when unknown. */
  sizeMb?: number | null;
}

export interface ContainerActionInput extends ContainerActionRequest {
  /** The registry key `${deviceId}:${envName}`. */
  key: string;
  /** Who hears `action.ended` (the registry); null when run alone. */
  reportTo?: AnyActorRef | null;
  /** Clock, ms since the epoch (the registry's). */
  now?: () => number;
  /** A Docker process running on the device to follow instead of starting anything (after a reload). */
  follow?: DockerProcess | null;
}

/** §3 Docker process, plus what the flow needs. */
export interface ContainerActionContext {
  key: string;
  /** §3 device: the device id. */
  device: string;
  deviceName: string;
  /** §3 docker: the image reference. */
  docker: string;
  envName: string | null;
  action: string;
  containerId: string | null;
  /** §3 message: the current step in words, or the device's words after a failed check. */
  message: string;
  /** §3 error: the §8 failure text, null while fine. */
  error: string | null;
  /** §3 started / ended: ms since the epoch (ended null while running). */
  started: number;
  ended: number | null;
  gpu: boolean;
  jupyter: boolean;
  jupyterPort: number | null;
  containerRunning: boolean;
  sizeMb: number | null;
  /** Download progress 0–100, null when no download runs. */
  percent: number | null;
  /** The container after create / start / stop / start-jupyter. */
  container: Container | null;
  reportTo: AnyActorRef | null;
  now: () => number;
  follow: DockerProcess | null;
}

/** What the action tells the registry when it ends. */
export interface ActionEndedReport {
  type: 'action.ended';
  key: string;
  deviceId: string;
  outcome: 'succeeded' | 'failed' | 'canceled';
}

export type ContainerActionEvent =
  /** The user accepts the download offer (§4), or downloads again after a cancel. */
  | { type: 'action.download' }
  /** The user cancels the offer, or the running download (§4 cancelable). */
  | { type: 'action.cancel' }
  /** Download progress (from `downloadImage`): overall percent 0–100. */
  | { type: 'action.progress'; percent: number }
  | { type: 'action.downloaded' }
  | { type: 'action.downloadFailed'; error: unknown }
  /** A Docker process report for this action's key (registry, CONTAINER_EVENTS.process). */
  | { type: 'action.process'; process: DockerProcess };

const notProvided = (name: string): never => {
  throw new Error(`containerAction: actor '${name}' is not provided`);
};

/** Inputs of the device commands. */
export interface ImageInput {
  deviceId: string;
  image: string;
  envName: string | null;
}
export interface CreateInput extends ImageInput {
  jupyterPort: number | null;
  gpu: boolean;
}
export interface DockerActionInput {
  deviceId: string;
  action: 'start' | 'stop' | 'remove';
  containerId: string;
}

/** The action's effects, named; src/console/features/containers/actors.ts provides them. */
export const containerActionActors = {
  /** check-docker-image → { status, message } (§4: 200 present, 404 missing, else failed). */
  checkImage: fromPromise<{ status: number; message: string }, ImageInput>(async () =>
    notProvided('checkImage'),
  ),
  /**
   * download-docker-image with progress: sends `action.progress` { percent } per progress message, then
   * `action.downloaded` or `action.downloadFailed` { error }. Stopped = the call is aborted.
   */
  downloadImage: fromCallback<ContainerActionEvent, ImageInput>(() => notProvided('downloadImage')),
  /** cancel-docker-download → canceled. */
  cancelDownload: fromPromise<boolean, ImageInput>(async () => notProvided('cancelDownload')),
  /** docker-create → the container (created, not started). */
  createContainer: fromPromise<Container, CreateInput>(async () => notProvided('createContainer')),
  /** docker-start | docker-stop → the container; docker-remove → null. */
  runDockerAction: fromPromise<Container | null, DockerActionInput>(async () =>
    notProvided('runDockerAction'),
  ),
  /** start-jupyter → the container (Jupyter answering HTTP). */
  startJupyter: fromPromise<Container, { deviceId: string; containerId: string }>(async () =>
    notProvided('startJupyter'),
  ),
};

const imageInput = ({ context }: { context: ContainerActionContext }): ImageInput => ({
  deviceId: context.device,
  image: context.docker,
  envName: context.envName,
});

export const containerActionMachine = setup({
  types: {
    context: {} as ContainerActionContext,
    events: {} as ContainerActionEvent,
    input: {} as ContainerActionInput,
    emitted: {} as ConsoleEmitted,
  },
  actors: containerActionActors,
  actions: {
    step: assign((_, params: { message: string }) => ({ message: params.message })),
    keepPercent: assign({
      percent: ({ context, event }) => (event.type === 'action.progress' ? event.percent : context.percent),
    }),
    startPercent: assign({ percent: 0, error: null }),
    clearPercent: assign({ percent: null }),
    keepContainer: assign({
      container: (_, params: { container: Container | null }) => params.container,
      containerId: ({ context }, params: { container: Container | null }) =>
        params.container?.Id ?? context.containerId,
    }),
    /** §8: "Environment not found", then the download offer. */
    offerDownload: assign({ message: CONTAINER_TEXTS.envNotFound, percent: null }),
    /** A download failed (not canceled): back to the offer with the reason. */
    keepDownloadError: assign({
      error: ({ event }) =>
        event.type === 'action.downloadFailed' ? actionFailureMessage(event.error) : null,
      message: CONTAINER_TEXTS.envNotFound,
      percent: null,
    }),
    fail: assign((_, params: { error: string; message: string }) => ({
      error: params.error,
      message: params.message,
      percent: null,
    })),
    /** A command failed: the §8 title, and the words for its error (actionFailureMessage). */
    failWith: assign(({ event }, params: { title: string }) => ({
      error: params.title,
      message: actionFailureMessage((event as { error?: unknown }).error),
      percent: null,
    })),
    /** The failure dialog (§8 title, the device's or the flow's words). */
    emitFailure: emit(({ context }): ConsoleEmitted => ({
      type: 'dialog',
      title: context.error ?? CONTAINER_TEXTS.actionFailed,
      message: context.message,
    })),
    stampEnded: assign({ ended: ({ context }) => context.now() }),
    followProcess: assign(({ event }) => {
      if (event.type !== 'action.process') return {};
      const p = event.process;
      return { message: p.message, error: p.error, percent: p.percent, started: p.started };
    }),
    report: enqueueActions(({ context, enqueue }, params: { outcome: ActionEndedReport['outcome'] }) => {
      if (!context.reportTo) return;
      const report: ActionEndedReport = {
        type: 'action.ended',
        key: context.key,
        deviceId: context.device,
        outcome: params.outcome,
      };
      enqueue.sendTo(context.reportTo, report);
    }),
  },
  guards: {
    following: ({ context }) => context.follow !== null,
    isCreate: ({ context }) => context.action === 'create',
    isDockerAction: ({ context }) =>
      isContainerAction(context.action) && context.action !== 'create' && !!context.containerId,
    imagePresent: (_, params: { status: number }) => imageCheckOutcome(params) === 'present',
    imageMissing: (_, params: { status: number }) => imageCheckOutcome(params) === 'missing',
    wantsJupyter: ({ context }) =>
      context.jupyter && (context.action === 'create' || context.action === 'start'),
    processEnded: ({ event }) => event.type === 'action.process' && event.process.ended !== null,
    processFailed: ({ event }) =>
      event.type === 'action.process' && event.process.ended !== null && event.process.error !== null,
    followingDownload: ({ context }) => context.follow?.action === 'download',
    linkClosed: ({ event }) => event.type === 'action.downloadFailed' && isLinkClosedError(event.error),
    jupyterOnly: ({ context }) =>
      context.action === 'start' && context.containerRunning && context.jupyter && !!context.containerId,
  },
}).createMachine({
  id: 'containerAction',
  context: ({ input }) => {
    const now = input.now ?? (() => 0);
    const f = input.follow ?? null;
    return {
      key: input.key,
      device: input.deviceId,
      deviceName: input.deviceName,
      docker: f?.docker ?? input.image,
      envName: f?.envName ?? input.envName,
      action: input.action,
      containerId: input.containerId ?? null,
      message: f?.message ?? '',
      error: null,
      started: f?.started ?? now(),
      ended: null,
      gpu: f?.gpu ?? input.gpu,
      jupyter: input.jupyter,
      jupyterPort: input.jupyterPort ?? null,
      containerRunning: input.containerRunning ?? false,
      sizeMb: input.sizeMb ?? null,
      percent: f?.percent ?? null,
      container: null,
      reportTo: input.reportTo ?? null,
      now,
      follow: f,
    };
  },
  initial: 'starting',
  states: {
    starting: {
      always: [
        { guard: 'following', target: 'following' },
        { guard: 'isCreate', target: 'checkingImage' },
        { guard: 'jupyterOnly', target: 'startingJupyter' },
        { guard: 'isDockerAction', target: 'running' },
        {
          target: 'failed',
          actions: {
            type: 'fail',
            params: ({ context }) => ({ error: CONTAINER_TEXTS.unknownAction, message: context.action }),
          },
        },
      ],
    },
    checkingImage: {
      tags: ['busy'],
      entry: { type: 'step', params: { message: ACTION_STEPS.checking } },
      invoke: {
        id: 'checkImage',
        src: 'checkImage',
        input: imageInput,
        onDone: [
          { guard: { type: 'imagePresent', params: ({ event }) => event.output }, target: 'creating' },
          {
            guard: { type: 'imageMissing', params: ({ event }) => event.output },
            target: 'offeringDownload',
            actions: 'offerDownload',
          },
          {
            target: 'failed',
            actions: {
              type: 'fail',
              params: ({ event }) => ({
                error: CONTAINER_TEXTS.imageCheckFailed,
                message: imageCheckFailureMessage(event.output),
              }),
            },
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'failWith', params: { title: CONTAINER_TEXTS.imageCheckFailed } },
        },
      },
    },
    offeringDownload: {
      tags: ['awaitingConfirm'],
      on: {
        'action.download': { target: 'downloading' },
        'action.cancel': { target: 'canceled' },
      },
    },
    downloading: {
      tags: ['busy', 'downloading'],
      entry: ['startPercent', { type: 'step', params: { message: ACTION_STEPS.downloading } }],
      invoke: { id: 'downloadImage', src: 'downloadImage', input: imageInput },
      on: {
        'action.progress': { actions: 'keepPercent' },
        'action.downloaded': { target: 'creating', actions: 'clearPercent' },
        'action.downloadFailed': [
          // Issue 15: the device went offline under the download: the action fails (no offer to a device
          // that is not there); the user creates again once it is back.
          {
            guard: 'linkClosed',
            target: 'failed',
            actions: { type: 'failWith', params: { title: CONTAINER_TEXTS.actionFailed } },
          },
          { target: 'offeringDownload', actions: 'keepDownloadError' },
        ],
        'action.cancel': { target: 'cancelingDownload' },
      },
    },
    cancelingDownload: {
      tags: ['busy', 'downloading'],
      entry: { type: 'step', params: { message: ACTION_STEPS.canceling } },
      invoke: {
        id: 'cancelDownload',
        src: 'cancelDownload',
        input: imageInput,
        // Canceled on the device or not (it may have just ended), the call is aborted: the action ends. A
        // followed download (after a reload) is canceled here too.
        onDone: { target: 'canceled' },
        onError: { target: 'canceled' },
      },
    },
    creating: {
      tags: ['busy'],
      entry: { type: 'step', params: { message: ACTION_STEPS.creating } },
      invoke: {
        id: 'createContainer',
        src: 'createContainer',
        input: ({ context }) => ({
          ...imageInput({ context }),
          jupyterPort: context.jupyter ? (context.jupyterPort ?? 8888) : null,
          gpu: context.gpu,
        }),
        // docker-create only creates: the new container is started next (`running`).
        onDone: {
          target: 'running',
          actions: { type: 'keepContainer', params: ({ event }) => ({ container: event.output }) },
        },
        onError: {
          target: 'failed',
          actions: { type: 'failWith', params: { title: CONTAINER_TEXTS.actionFailed } },
        },
      },
    },
    running: {
      tags: ['busy'],
      entry: {
        type: 'step',
        params: ({ context }) => ({
          message: context.action === 'create' ? ACTION_STEPS.starting : ACTION_STEPS.running,
        }),
      },
      invoke: {
        id: 'runDockerAction',
        src: 'runDockerAction',
        input: ({ context }) => ({
          deviceId: context.device,
          action: (context.action === 'create' ? 'start' : context.action) as DockerActionInput['action'],
          containerId: context.containerId!,
        }),
        onDone: [
          {
            guard: 'wantsJupyter',
            target: 'startingJupyter',
            actions: { type: 'keepContainer', params: ({ event }) => ({ container: event.output }) },
          },
          {
            target: 'succeeded',
            actions: { type: 'keepContainer', params: ({ event }) => ({ container: event.output }) },
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'failWith', params: { title: CONTAINER_TEXTS.actionFailed } },
        },
      },
    },
    startingJupyter: {
      tags: ['busy'],
      entry: { type: 'step', params: { message: ACTION_STEPS.jupyter } },
      invoke: {
        id: 'startJupyter',
        src: 'startJupyter',
        input: ({ context }) => ({ deviceId: context.device, containerId: context.containerId! }),
        onDone: {
          target: 'succeeded',
          actions: { type: 'keepContainer', params: ({ event }) => ({ container: event.output }) },
        },
        onError: {
          target: 'failed',
          actions: { type: 'failWith', params: { title: CONTAINER_TEXTS.actionFailed } },
        },
      },
    },
    following: {
      tags: ['busy'],
      on: {
        'action.process': [
          { guard: 'processFailed', target: 'failed', actions: 'followProcess' },
          { guard: 'processEnded', target: 'succeeded', actions: 'followProcess' },
          { actions: 'followProcess' },
        ],
        // §4 cancelable: a followed download is canceled on the device; its end arrives as a process event.
        'action.cancel': { guard: 'followingDownload', target: 'cancelingDownload' },
      },
    },
    succeeded: {
      type: 'final',
      tags: ['done', 'succeeded'],
      entry: [
        { type: 'step', params: { message: ACTION_STEPS.done } },
        'clearPercent',
        'stampEnded',
        { type: 'report', params: { outcome: 'succeeded' } },
      ],
    },
    failed: {
      type: 'final',
      tags: ['done', 'failed'],
      entry: ['stampEnded', 'emitFailure', { type: 'report', params: { outcome: 'failed' } }],
    },
    canceled: {
      type: 'final',
      tags: ['done', 'canceled'],
      entry: [
        { type: 'step', params: { message: ACTION_STEPS.canceled } },
        'clearPercent',
        'stampEnded',
        { type: 'report', params: { outcome: 'canceled' } },
      ],
    },
  },
});
