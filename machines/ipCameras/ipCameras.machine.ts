/**
 * The IP cameras manager (issue 16 §2 IP cameras: add, edit, remove (§7 remove-ip-camera); "the camera list
 * shows which device reaches each"). Long-lived (systemId 'ipCameras').
 *
 *   closed ──ipc.open──▶ open.loading ──done──▶ open.ready ──ipc.edit──▶ (spawns an ipCameraForm child `form`)
 *                                     ──error──▶ open.failed ──ipc.refresh──▶ open.loading
 *   open.ready ──ipc.remove──▶ open.removing ──done/error──▶ open.loading / open.ready (removeError)
 *   the form's end (saved) ──▶ open.loading (the list again); ipc.closeForm stops it; ipc.close ──▶ closed
 *
 * Effects are actors provided by src/console/features/ipCameras/actors.ts: `loadCameras` (GET ip-cameras/manage
 * and the caller's devices), `removeCamera` (DELETE ip-cameras/:id), and the form's testStill / saveCamera.
 */
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { ManagedIpCamera } from '../../src/protocol/ipCameras';
import { ipCameraFormMachine } from './ipCameraForm.machine';

export type IpCameraFormRef = ActorRefFrom<typeof ipCameraFormMachine>;

/** A device the form offers as the one reaching the camera. */
export interface ReachingDevice {
  deviceId: string;
  label: string;
}

export interface IpCamerasContext {
  cameras: ManagedIpCamera[];
  devices: ReachingDevice[];
  error: string | null;
  removeError: string | null;
  /** The add/edit form when open. */
  form: IpCameraFormRef | null;
  /** Forms opened so far (unique child ids). */
  forms: number;
  /** Bumped after every saved change (other views reload their IP camera lists). */
  changes: number;
}

export type IpCamerasEvent =
  | { type: 'ipc.open' }
  | { type: 'ipc.close' }
  | { type: 'ipc.refresh' }
  | { type: 'ipc.edit'; camera: ManagedIpCamera | null }
  | { type: 'ipc.closeForm' }
  | { type: 'ipc.remove'; id: string }
  | { type: 'ipc.reset' };

const notProvided = (name: string): never => {
  throw new Error(`ipCameras: actor '${name}' is not provided`);
};

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The manager's effects; src/console/features/ipCameras/actors.ts provides them. */
export const ipCamerasActors = {
  loadCameras: fromPromise<{ cameras: ManagedIpCamera[]; devices: ReachingDevice[] }>(async () =>
    notProvided('loadCameras'),
  ),
  removeCamera: fromPromise<void, { id: string }>(async () => notProvided('removeCamera')),
};

export const ipCamerasMachine = setup({
  types: { context: {} as IpCamerasContext, events: {} as IpCamerasEvent },
  actors: { ...ipCamerasActors, ipCameraForm: ipCameraFormMachine },
  actions: {
    stopForm: enqueueActions(({ context, enqueue }) => {
      if (context.form) enqueue.stopChild(context.form);
      enqueue.assign({ form: null });
    }),
  },
}).createMachine({
  id: 'ipCameras',
  context: {
    cameras: [],
    devices: [],
    error: null,
    removeError: null,
    form: null,
    forms: 0,
    changes: 0,
  },
  initial: 'closed',
  on: { 'ipc.reset': { target: '.closed', actions: ['stopForm', assign({ cameras: [], devices: [] })] } },
  states: {
    closed: { on: { 'ipc.open': 'open' } },
    open: {
      initial: 'loading',
      on: {
        'ipc.close': { target: 'closed', actions: 'stopForm' },
        'ipc.closeForm': { actions: 'stopForm' },
      },
      states: {
        loading: {
          tags: ['busy'],
          invoke: {
            src: 'loadCameras',
            onDone: {
              target: 'ready',
              actions: assign({
                cameras: ({ event }) => event.output.cameras,
                devices: ({ event }) => event.output.devices,
                error: null,
              }),
            },
            onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          },
        },
        failed: { on: { 'ipc.refresh': 'loading' } },
        ready: {
          on: {
            'ipc.refresh': 'loading',
            'ipc.edit': {
              actions: enqueueActions(({ context, event, enqueue }) => {
                if (context.form) enqueue.stopChild(context.form);
                enqueue.assign({
                  forms: context.forms + 1,
                  removeError: null,
                  form: ({ spawn }) =>
                    spawn('ipCameraForm', {
                      id: `ipCameraForm-${context.forms + 1}`,
                      input: {
                        camera: event.camera,
                        deviceId: context.devices.length === 1 ? context.devices[0]?.deviceId : undefined,
                      },
                    }),
                });
              }),
            },
            'ipc.remove': { target: 'removing' },
          },
          // A saved form ends (final): close it and read the list again.
          always: {
            guard: ({ context }) => context.form?.getSnapshot().status === 'done',
            target: 'loading',
            actions: ['stopForm', assign({ changes: ({ context }) => context.changes + 1 })],
          },
        },
        removing: {
          tags: ['busy'],
          invoke: {
            src: 'removeCamera',
            input: ({ event }) => ({ id: event.type === 'ipc.remove' ? event.id : '' }),
            onDone: {
              target: 'loading',
              actions: assign({ removeError: null, changes: ({ context }) => context.changes + 1 }),
            },
            onError: {
              target: 'ready',
              actions: assign({ removeError: ({ event }) => messageOf(event.error) }),
            },
          },
        },
      },
    },
  },
});
