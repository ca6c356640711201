/**
 * The download page — spec §2 /download: the device client for x86 and Jetson (the newest agent release),
 * and a new device named by the user with its first device token and the one-line install command (§8
 * "Generated!": the token is shown once).
 *
 * loading → ready | failed (retry); in ready, device.create { label, kind } → creating when the name is not
 * empty (else ready with `invalid`) → created (token and commands; toast "Generated!") | ready with the
 * server's error (e.g. the name is taken); created → device.another → ready (the token forgotten). Pure: the
 * calls are the provided actors `loadInfo` and `createDevice`. Tags: `busy` while loading or creating.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { DeviceKind, InstallCommands } from '../../src/protocol/download';
import type { AgentRelease } from '../../src/protocol/software';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';

/** What the page reads first: the newest release (null: none published), the server's origin. */
export interface DownloadInfo {
  release: AgentRelease | null;
  server: string;
  install_script: string;
}

/** A created device with its token (shown once) and the install commands. */
export interface CreatedDevice {
  device: { id: string; device_id: string; label: string; kind: DeviceKind };
  access_token: string;
  expires_in: number;
  commands: InstallCommands;
}

export interface DownloadContext {
  info: DownloadInfo | null;
  created: CreatedDevice | null;
  error: string | null;
  /** The device name was empty. */
  invalid: boolean;
}

export type DownloadEvent =
  | { type: 'download.load' }
  | { type: 'download.retry' }
  | { type: 'device.create'; label: string; kind: DeviceKind }
  | { type: 'device.another' }
  /** Sign-out: forget the token and everything read. */
  | { type: 'download.reset' };

const INITIAL: DownloadContext = { info: null, created: null, error: null, invalid: false };

export const downloadMachine = setup({
  types: { context: {} as DownloadContext, events: {} as DownloadEvent, emitted: {} as ConsoleEmitted },
  actors: {
    loadInfo: fromPromise<DownloadInfo>(async () => {
      throw new Error('download: loadInfo is not provided');
    }),
    createDevice: fromPromise<CreatedDevice, { label: string; kind: DeviceKind }>(async () => {
      throw new Error('download: createDevice is not provided');
    }),
  },
  guards: {
    named: ({ event }) => event.type === 'device.create' && event.label.trim() !== '',
  },
}).createMachine({
  id: 'download',
  context: INITIAL,
  initial: 'idle',
  on: { 'download.reset': { target: '.idle', actions: assign(INITIAL) } },
  states: {
    idle: { on: { 'download.load': 'loading' } },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadInfo',
        src: 'loadInfo',
        onDone: { target: 'ready', actions: assign({ info: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The download page could not be read.'),
          }),
        },
      },
    },
    failed: { on: { 'download.retry': 'loading', 'download.load': 'loading' } },
    ready: {
      on: {
        'download.load': 'loading',
        'device.create': [
          {
            guard: 'named',
            target: 'creating',
            actions: assign({ error: null, invalid: false }),
          },
          { actions: assign({ invalid: true, error: null }) },
        ],
      },
    },
    creating: {
      tags: ['busy'],
      invoke: {
        id: 'createDevice',
        src: 'createDevice',
        input: ({ event }) =>
          event.type === 'device.create'
            ? { label: event.label.trim(), kind: event.kind }
            : { label: '', kind: 'x86' as const },
        onDone: {
          target: 'created',
          actions: [
            assign({ created: ({ event }) => event.output }),
            emit(({ event }) => ({
              type: 'notice' as const,
              variant: 'success' as const,
              title: 'Generated!',
              message: event.output.device.label,
              i18n: { title: { key: 'download.generated' } },
            })),
          ],
        },
        onError: {
          target: 'ready',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The device could not be created.'),
          }),
        },
      },
    },
    created: {
      on: {
        'device.another': {
          target: 'ready',
          actions: assign({ created: null, error: null, invalid: false }),
        },
        'download.load': { target: 'loading', actions: assign({ created: null }) },
      },
    },
  },
});
