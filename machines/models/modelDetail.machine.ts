/**
 * One model's page — issue 9 "Models": detail, versions, delete a version; "Deploy a model version to a device:
 * the device downloads it from the server with progress, verifies the checksum and reports it installed".
 * Pure: the calls are the provided actors `fetchModel`, `deleteVersion`, `createDeployment` (server) and
 * `runDeploy` (the device command models-deploy over the peer link: sends `deploy.progress`, then
 * `deploy.done` or `deploy.failed`; stopping it cancels the download on the device).
 *
 * Deploy: `deploy.start` (version, device) → creating (the server queues a deployment) → downloading (the
 * device fetches, verifies, installs; progress in `deploy`) → the page reloads its deployments. A failure keeps
 * the last progress with its error. One deploy at a time per page.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { ModelDeployment, ModelDetail, ModelDownload } from '../../src/protocol/models';
import { errorText } from '../notifications/emitted';

/** The deploy in progress or the last one. */
export interface DeployProgress {
  deviceId: string;
  version: number;
  deploymentId: string | null;
  state: 'creating' | ModelDownload['state'];
  bytesDone: number;
  bytesTotal: number;
  error: string | null;
}

export interface ModelDetailContext {
  id: string | null;
  model: ModelDetail | null;
  error: string | null;
  /** The version asked to be deleted. */
  targetVersion: number | null;
  deploy: DeployProgress | null;
}

export type RunDeployEvent =
  | { type: 'deploy.progress'; download: ModelDownload }
  | { type: 'deploy.done' }
  | { type: 'deploy.failed'; error: string };

export type ModelDetailEvent =
  | { type: 'detail.open'; id: string }
  | { type: 'refresh' }
  | { type: 'version.delete.ask'; version: number }
  | { type: 'version.delete.confirm' }
  | { type: 'version.delete.cancel' }
  | { type: 'deploy.start'; version: number; deviceId: string }
  | { type: 'deploy.cancel' }
  | { type: 'deploy.dismiss' }
  | { type: 'detail.reset' }
  | RunDeployEvent;

const empty = (): ModelDetailContext => ({
  id: null,
  model: null,
  error: null,
  targetVersion: null,
  deploy: null,
});

export const modelDetailMachine = setup({
  types: { context: {} as ModelDetailContext, events: {} as ModelDetailEvent },
  actors: {
    fetchModel: fromPromise<ModelDetail, { id: string }>(async () => {
      throw new Error('models: fetchModel is not provided');
    }),
    deleteVersion: fromPromise<unknown, { id: string; version: number }>(async () => {
      throw new Error('models: deleteVersion is not provided');
    }),
    createDeployment: fromPromise<ModelDeployment, { id: string; version: number; deviceId: string }>(
      async () => {
        throw new Error('models: createDeployment is not provided');
      },
    ),
    runDeploy: fromCallback<RunDeployEvent, { deviceId: string; deploymentId: string }>(() => {
      throw new Error('models: runDeploy is not provided');
    }),
  },
  guards: {
    hasModel: ({ context }) => context.model !== null,
  },
}).createMachine({
  id: 'modelDetail',
  context: empty,
  initial: 'idle',
  on: {
    'detail.open': {
      target: '.loading',
      actions: assign(({ event }) => ({ ...empty(), id: event.id })),
    },
    'detail.reset': { target: '.idle', actions: assign(empty) },
  },
  states: {
    idle: {},
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'fetchModel',
        src: 'fetchModel',
        input: ({ context }) => ({ id: context.id! }),
        onDone: { target: 'shown', actions: assign({ model: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, 'Failed') }),
        },
      },
    },
    failed: { on: { refresh: 'loading' } },
    shown: {
      initial: 'ready',
      states: {
        ready: {
          on: {
            refresh: '#modelDetail.loading',
            'version.delete.ask': {
              target: 'confirming',
              actions: assign({ targetVersion: ({ event }) => event.version }),
            },
            'deploy.start': {
              target: 'creating',
              actions: assign({
                deploy: ({ event }) => ({
                  deviceId: event.deviceId,
                  version: event.version,
                  deploymentId: null,
                  state: 'creating' as const,
                  bytesDone: 0,
                  bytesTotal: 0,
                  error: null,
                }),
              }),
            },
            'deploy.dismiss': { actions: assign({ deploy: null }) },
          },
        },
        confirming: {
          on: {
            'version.delete.confirm': 'deleting',
            'version.delete.cancel': { target: 'ready', actions: assign({ targetVersion: null }) },
          },
        },
        deleting: {
          tags: ['loading'],
          invoke: {
            id: 'deleteVersion',
            src: 'deleteVersion',
            input: ({ context }) => ({ id: context.id!, version: context.targetVersion! }),
            onDone: { target: '#modelDetail.loading', actions: assign({ targetVersion: null }) },
            onError: {
              target: 'ready',
              actions: assign({
                targetVersion: null,
                error: ({ event }) => errorText(event.error, 'Failed'),
              }),
            },
          },
        },
        creating: {
          tags: ['deploying'],
          invoke: {
            id: 'createDeployment',
            src: 'createDeployment',
            input: ({ context }) => ({
              id: context.id!,
              version: context.deploy!.version,
              deviceId: context.deploy!.deviceId,
            }),
            onDone: {
              target: 'downloading',
              actions: assign(({ context, event }) => ({
                deploy: {
                  ...context.deploy!,
                  deploymentId: event.output.id,
                  state: 'queued' as const,
                  bytesTotal: event.output.bytes_total,
                },
              })),
            },
            onError: {
              target: 'ready',
              actions: assign(({ context, event }) => ({
                deploy: {
                  ...context.deploy!,
                  state: 'failed' as const,
                  error: errorText(event.error, 'Failed'),
                },
              })),
            },
          },
        },
        downloading: {
          tags: ['deploying'],
          invoke: {
            id: 'runDeploy',
            src: 'runDeploy',
            input: ({ context }) => ({
              deviceId: context.deploy!.deviceId,
              deploymentId: context.deploy!.deploymentId!,
            }),
          },
          on: {
            'deploy.progress': {
              actions: assign(({ context, event }) => ({
                deploy: {
                  ...context.deploy!,
                  state: event.download.state,
                  bytesDone: Math.max(context.deploy!.bytesDone, event.download.bytes_done),
                  bytesTotal: event.download.bytes_total || context.deploy!.bytesTotal,
                },
              })),
            },
            'deploy.done': {
              target: '#modelDetail.loading',
              actions: assign(({ context }) => ({
                deploy: {
                  ...context.deploy!,
                  state: 'installed' as const,
                  bytesDone: context.deploy!.bytesTotal,
                },
              })),
            },
            'deploy.failed': {
              target: '#modelDetail.loading',
              actions: assign(({ context, event }) => ({
                deploy: { ...context.deploy!, state: 'failed' as const, error: event.error },
              })),
            },
            'deploy.cancel': {
              target: '#modelDetail.loading',
              actions: assign(({ context }) => ({
                deploy: { ...context.deploy!, state: 'canceled' as const },
              })),
            },
          },
        },
      },
    },
  },
});
