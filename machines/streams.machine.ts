/**
 * Streams (the camera grid) — spec §2 "Camera control page: a grid of camera cells, 12 columns wide, at most
 * 12 cameras per page; overflow opens a new page", §4 "Stream slots: empty or filled", §5 "Opening a camera
 * stream requires the device to be connected", §8 "Device Warning: device not connected to the product".
 *
 * Holds the open streams in opening order; stream i (0-based) sits on page floor(i / 12) + 1. Opening a
 * stream spawns a `stream` actor (id `stream-${streamId}`) and shows the page it landed on, so the 13th
 * opens page 2. The pool forwards every device status (`device.status`); a camera of a device whose link is
 * not open is refused with the 'Device Warning' notice and nothing opens. When a device link closes, its
 * streams get `stream.deviceLost`.
 *
 * This is the simple version; layouts, drag and resume come with the camera-grid issue.
 */
import { assign, emit, enqueueActions, setup, type ActorRefFrom } from 'xstate';
import type { DeviceCamera, ResolutionOption } from '../src/protocol/commands';
import { CAMERA_GRID_CELLS_PER_PAGE } from '../src/protocol/constants';
import type { DeviceConnectionStatus, DeviceStatusReport } from './deviceConnection.machine';
import type { ConsoleEmitted } from './emitted';
import { streamMachine, type StreamClosedReport } from './stream.machine';

export type StreamRef = ActorRefFrom<typeof streamMachine>;

export interface StreamEntry {
  streamId: string;
  deviceId: string;
  camera: DeviceCamera;
  ref: StreamRef;
}

export interface StreamsContext {
  streams: StreamEntry[];
  /** The page shown, 1-based. */
  page: number;
  /** What the pool last said about each device. */
  devices: Record<string, { label: string; status: DeviceConnectionStatus }>;
  /** Prefix of stream ids (this tab's browser id), so callIds are unique across tabs. */
  idPrefix: string;
  /** Streams opened so far (for the next id). */
  opened: number;
}

export interface StreamsInput {
  idPrefix?: string;
}

export type StreamsEvent =
  | { type: 'stream.open'; deviceId: string; camera: DeviceCamera; resolution?: ResolutionOption }
  | { type: 'stream.close'; streamId: string }
  | { type: 'grid.page'; page: number }
  /** Root system, on sign-out: close every stream. */
  | { type: 'streams.reset' }
  /** From the pool. */
  | DeviceStatusReport
  /** From a stream actor that reached `closed`. */
  | StreamClosedReport;

/** Number of grid pages for n streams (at least 1). */
export const pageCountOf = (streamCount: number): number =>
  Math.max(1, Math.ceil(streamCount / CAMERA_GRID_CELLS_PER_PAGE));
/** 1-based page of the stream at 0-based index i. */
export const pageOfIndex = (index: number): number => Math.floor(index / CAMERA_GRID_CELLS_PER_PAGE) + 1;
/** The streams shown on a page. */
export const streamsOnPage = <T>(streams: readonly T[], page: number): T[] =>
  streams.slice((page - 1) * CAMERA_GRID_CELLS_PER_PAGE, page * CAMERA_GRID_CELLS_PER_PAGE);

const clampPage = (page: number, count: number): number =>
  Math.min(Math.max(1, Math.floor(page)), pageCountOf(count));

export const DEVICE_WARNING = {
  title: 'Device Warning',
  message: 'The device is not connected. Connect it first (the connection is still attempted).',
} as const;

export const streamsMachine = setup({
  types: {
    context: {} as StreamsContext,
    events: {} as StreamsEvent,
    input: {} as StreamsInput,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    stream: streamMachine,
  },
  actions: {
    /** Spawns the stream actor, appends it and shows its page (overflow opens a new page, §2). */
    openStream: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'stream.open') return;
      const seq = context.opened + 1;
      const streamId = `${context.idPrefix}-${seq}`;
      const deviceLabel = context.devices[event.deviceId]?.label ?? event.deviceId;
      enqueue.assign({
        opened: seq,
        streams: ({ context: c, spawn, self }) => [
          ...c.streams,
          {
            streamId,
            deviceId: event.deviceId,
            camera: event.camera,
            ref: spawn('stream', {
              id: `stream-${streamId}`,
              input: {
                streamId,
                deviceId: event.deviceId,
                deviceLabel,
                camera: event.camera,
                resolution: event.resolution ?? null,
                reportTo: self,
              },
            }),
          },
        ],
      });
      enqueue.assign({ page: ({ context: c }) => pageOfIndex(c.streams.length - 1) });
    }),
    emitDeviceWarning: emit({
      type: 'notice',
      title: DEVICE_WARNING.title,
      message: DEVICE_WARNING.message,
      variant: 'warning',
    } as const),
    /** Stops the stream actor (its clean-up sends stop-stream and closes the peer connection). */
    closeStream: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'stream.close') return;
      const entry = context.streams.find((s) => s.streamId === event.streamId);
      if (!entry) return;
      enqueue.sendTo(entry.ref, { type: 'stream.close' });
    }),
    /** A stream reached `closed`: drop it from the grid. */
    forgetStream: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'stream.closed') return;
      const entry = context.streams.find((s) => s.streamId === event.streamId);
      if (!entry) return;
      enqueue.stopChild(entry.ref);
      const streams = context.streams.filter((s) => s.streamId !== event.streamId);
      enqueue.assign({ streams, page: clampPage(context.page, streams.length) });
    }),
    showPage: assign({
      page: ({ context, event }) =>
        event.type === 'grid.page' ? clampPage(event.page, context.streams.length) : context.page,
    }),
    /** Remember the device's status; when its link closed, its streams fail with 'Device disconnected'. */
    trackDevice: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'device.status') return;
      enqueue.assign({
        devices: { ...context.devices, [event.deviceId]: { label: event.label, status: event.status } },
      });
      if (event.status === 'closed' || event.status === 'errored') {
        for (const s of context.streams) {
          if (s.deviceId === event.deviceId) enqueue.sendTo(s.ref, { type: 'stream.deviceLost' });
        }
      }
    }),
    closeAll: enqueueActions(({ context, enqueue }) => {
      for (const s of context.streams) enqueue.stopChild(s.ref);
      enqueue.assign({ streams: [], page: 1, devices: {} });
    }),
  },
  guards: {
    /** §5: the device's link is open. */
    deviceConnected: ({ context, event }) =>
      event.type === 'stream.open' && context.devices[event.deviceId]?.status === 'open',
  },
}).createMachine({
  id: 'streams',
  initial: 'active',
  context: ({ input }) => ({
    streams: [],
    page: 1,
    devices: {},
    idPrefix: input?.idPrefix ?? 'stream',
    opened: 0,
  }),
  states: {
    active: {
      on: {
        'stream.open': [
          { guard: 'deviceConnected', actions: 'openStream' },
          { actions: 'emitDeviceWarning' },
        ],
        'stream.close': { actions: 'closeStream' },
        'stream.closed': { actions: 'forgetStream' },
        'grid.page': { actions: 'showPage' },
        'device.status': { actions: 'trackDevice' },
        'streams.reset': { actions: 'closeAll' },
      },
    },
  },
});
