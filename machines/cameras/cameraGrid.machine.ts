/**
 * The camera grid (systemId 'streams') — spec §2 "Camera control page" (grid of camera cells, 12 columns,
 * at most 12 cameras per page, overflow opens a new page; drag; camera chooser dialog with photos when one
 * physical camera matches on several devices; camera-conflict dialog when a camera is in use) and "Stream
 * modal"; §3 Camera layout cell, Camera (IP cameras with deviceId; ids without deviceId skipped); §4 "Stream
 * slots: empty or filled. A stream quota is available or not", "Camera use: if the camera is in use, offer
 * to kill the other processes; the result is true or false"; §5 "Opening a camera stream requires the
 * device to be connected"; §8 "Device Warning", "Camera Conflict"; §9 grid and layout sizes.
 *
 * The opening flow (device connected?, chooser, quota and camera-use checks made ahead, conflict, resolution)
 * is the invoked `opener` (opener.machine.ts): the grid hands it the requests (`stream.open`, `stream.openIp`
 * resolved to its device), the device reports and its streams per device (`opener.streams`), and opens
 * what it admits (`opener.admitted`) on a page with room (the 13th opens page 2); `opener.deviceWarning`
 * becomes the §8 "Device Warning" notice. The feature provides the opener, with its effects, as the grid's
 * `opener` actor.
 *
 * Two parallel regions:
 * - `layout` — persistence: `grid.load` (sign-in) loads GET camera-layout, reopens the saved streams
 *   (asking devicePool to connect their devices first; each waits for its device) → `ready`, where every
 *   change of streams, pages or cells is saved with a debounced PUT camera-layout (LAYOUT_SAVE_DEBOUNCE_MS).
 *   A save the server could not take (out of reach, 5xx — a server or database outage, issue 15 "Faults,
 *   with nothing lost") leaves the layout `unsaved`: it is tried again after a back-off (2 s doubling to 30 s)
 *   and at once when the server's links come back (`watchServer`: the connectivity actor's serverUp), always
 *   with the newest layout; one notice says so, another when it is saved. A save the server refused (4xx)
 *   is not tried again. A load that failed the same way leaves the layout `notLoaded`: the grid does not take
 *   "empty" for the saved layout, loads again (same back-off, same `watchServer`) and saves nothing until a
 *   load succeeded; a refused load (other 4xx) starts empty, as before. `streams.reset` (sign-out) closes
 *   everything without saving.
 * - `modal` — the §2 stream modal: closed | open | minimized (with the "Minimized" info dialog first).
 *
 * Entries hold the layout (page + react-grid-layout cell, i = streamId); views render the snapshot and send
 * `grid.layout` (drag/resize), `grid.size` (a §9 size), `grid.page`. Device reports from the pool
 * (`device.status`, `device.cameras`) keep `devices` current and drive the streams: reconnecting →
 * `stream.deviceDown`, open → `stream.deviceUp`, closed/errored → `stream.deviceLost`.
 * Side effects (REST, device commands) are the named actors, provided by src/console/features/cameras/actors.ts.
 */
import {
  assign,
  emit,
  enqueueActions,
  fromCallback,
  fromPromise,
  setup,
  type AnyActorRef,
  type EventObject,
} from 'xstate';
import type { SavedStream } from '../../src/protocol/rest';
import type { DevicePoolEvent } from '../devices/devicePool.machine';
import type { ConsoleEmitted } from '../notifications/emitted';
import {
  cameraKey,
  clampCell,
  compactPages,
  newCell,
  pageCountOf,
  pageForNew,
  resizeCell,
  sameCell,
} from './gridLayout';
import {
  GRID_TEXTS,
  layoutNotice,
  LAYOUT_SAVE_DEBOUNCE_MS,
  layoutLoadRetryDelay,
  layoutSaveRetryDelay,
  loadMaySucceedLater,
  saveMaySucceedLater,
  requestOf,
  streamsPerDevice,
  streamSignalOf,
  withCameras,
  toSavedStreams,
  type CameraGridContext,
  type CameraGridEvent,
  type CameraGridInput,
  type LoadedLayout,
} from './gridModel';
import { planRestore } from './layoutRestore';
import { openerMachine } from './opener.machine';
import { streamMachine } from './stream.machine';
import { SYSTEM_IDS } from '../systemIds';

export * from './gridModel';

const notProvided = (name: string): never => {
  throw new Error(`cameraGrid: actor '${name}' is not provided`);
};

const gridMachine = setup({
  types: {
    context: {} as CameraGridContext,
    events: {} as CameraGridEvent,
    input: {} as CameraGridInput,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    stream: streamMachine,
    /** GET camera-layout (+ the devices it names, + GET ip-cameras). */
    loadLayout: fromPromise<LoadedLayout, void>(async () => notProvided('loadLayout')),
    /** PUT camera-layout { streams }. */
    saveLayout: fromPromise<void, { streams: SavedStream[] }>(async () => notProvided('saveLayout')),
    /**
     * Sends `layout.serverBack` when the server's links come back up: the connectivity actor's (systemId
     * 'connectivity', machines/signalling/connectivity.machine.ts) `serverUp` turning true. Nothing without it
     * (the back-off still tries).
     */
    watchServer: fromCallback<EventObject>(({ sendBack, system }) => {
      type Connectivity = { getSnapshot(): { context?: { serverUp?: boolean } } } & AnyActorRef;
      const connectivity = system.get(SYSTEM_IDS.connectivity) as Connectivity | undefined;
      if (!connectivity) return undefined;
      let up = connectivity.getSnapshot().context?.serverUp === true;
      const sub = connectivity.subscribe((snapshot: { context?: { serverUp?: boolean } }) => {
        const now = snapshot.context?.serverUp === true;
        if (now && !up) sendBack({ type: 'layout.serverBack' });
        up = now;
      });
      return () => sub.unsubscribe();
    }),
    /** The opening flow; the feature provides it with its effects (`openerMachine.provide`). */
    opener: openerMachine,
  },
  actions: {
    /** Hands the request to the opener (queued there in click order). */
    requestOpen: enqueueActions(({ context, event, enqueue }) => {
      const request = requestOf(context, event);
      if (request) enqueue.sendTo('opener', { type: 'opener.request', request });
    }),
    /** The opener counts the streams per device for the quota check; told after every change. */
    reportStreams: enqueueActions(({ context, enqueue }) => {
      enqueue.sendTo('opener', {
        type: 'opener.streams',
        streams: streamsPerDevice(context.entries),
        admitted: context.admitted,
      });
    }),
    /** The device reports reach the opener too (connected? which cameras, for the chooser). */
    tellOpener: enqueueActions(({ event, enqueue }) => {
      if (event.type === 'device.status' || event.type === 'device.cameras') enqueue.sendTo('opener', event);
      if (event.type === 'streams.reset') enqueue.sendTo('opener', event);
    }),
    /** Also asks the pool to connect the device when the event carried it (§8 "still attempted"). */
    connectRequestedDevice: enqueueActions(({ event, enqueue, system }) => {
      if (event.type !== 'stream.open' || !event.device) return;
      const pool = system.get(SYSTEM_IDS.devicePool);
      const connect: DevicePoolEvent = { type: 'device.connect', device: event.device };
      if (pool) enqueue.sendTo(pool, connect as EventObject);
    }),
    emitDeviceWarning: emit({
      type: 'notice',
      title: GRID_TEXTS.deviceWarningTitle,
      message: GRID_TEXTS.deviceWarning,
      variant: 'warning',
    } as const),
    /** The server refused the layout (4xx): it is not tried again; the next change is saved anew. */
    giveUpSave: enqueueActions(({ enqueue }) => {
      enqueue.emit(layoutNotice('saveFailed'));
      enqueue.assign({ saveFailures: 0 });
    }),
    /** A save failed for an outage: counted (the back-off); the first of a row says it will be saved later. */
    noteSaveFailed: enqueueActions(({ context, enqueue }) => {
      if (context.saveFailures === 0) enqueue.emit(layoutNotice('saveRetrying'));
      enqueue.assign({ saveFailures: context.saveFailures + 1 });
    }),
    /** Saved; after failed tries the user, who was told it was not, is told it is now. */
    noteSaved: enqueueActions(({ context, enqueue }) => {
      if (context.saveFailures === 0) return;
      enqueue.emit(layoutNotice('saved'));
      enqueue.assign({ saveFailures: 0 });
    }),
    /**
     * A load failed for an outage: counted (the back-off); the first of a row says the saved layout is not
     * shown yet and that changes wait for it (the view shows the same inline while `loadFailures` > 0).
     */
    noteLoadFailed: enqueueActions(({ context, enqueue }) => {
      if (context.loadFailures === 0) enqueue.emit(layoutNotice('loadRetrying'));
      enqueue.assign({ loadFailures: context.loadFailures + 1 });
    }),
    /** Loaded; after failed tries the user, who was told it was not, is told it is now. */
    noteLoaded: enqueueActions(({ context, enqueue }) => {
      if (context.loadFailures === 0) return;
      enqueue.emit(layoutNotice('loaded'));
      enqueue.assign({ loadFailures: 0 });
    }),
    /**
     * The server refused the load (4xx other than 408/429): start with what is open, as before. After failed
     * tries the user, who was told it would be loaded, is told it will not be.
     */
    giveUpLoad: enqueueActions(({ context, enqueue }) => {
      if (context.loadFailures > 0) enqueue.emit(layoutNotice('loadFailed'));
      enqueue.assign({ loadFailures: 0 });
    }),
    /** Spawns the stream actor for what the opener admitted, on a page with room, and shows that page (§2). */
    openStream: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'opener.admitted') return;
      const request = event.request;
      const seq = context.opened + 1;
      const streamId = `${context.idPrefix}-${seq}`;
      const page = pageForNew(context.entries, context.page);
      const cell = newCell(
        streamId,
        context.entries.filter((e) => e.page === page).map((e) => e.cell),
      );
      const deviceLabel = context.devices[request.deviceId]?.label ?? request.deviceId;
      enqueue.assign({
        opened: seq,
        admitted: request.seq,
        entries: ({ context: c, spawn, self }) => [
          ...c.entries,
          {
            streamId,
            key: cameraKey(request.deviceId, request.camera),
            deviceId: request.deviceId,
            camera: request.camera,
            page,
            cell,
            ref: spawn('stream', {
              id: `stream-${streamId}`,
              input: {
                streamId,
                deviceId: request.deviceId,
                deviceLabel,
                camera: request.camera,
                resolution: request.resolution,
                reportTo: self,
              },
            }),
          },
        ],
      });
      if (page !== context.page) {
        enqueue.assign({ page });
        for (const e of context.entries)
          enqueue.sendTo(e.ref, { type: 'stream.view', viewer: 'page', visible: e.page === page });
      }
      enqueue.raise({ type: 'layout.changed' });
    }),
    /**
     * Reopens the saved streams whose device is still the user's and connects those devices first (§5); streams
     * open already win over saved ones of the same camera (layoutRestore.ts has the plan and the decision).
     */
    restoreStreams: enqueueActions(({ context, enqueue, system }, loaded: LoadedLayout) => {
      const { connect, restored, kept, opened, shownPage } = planRestore(context, loaded);
      const pool = system.get(SYSTEM_IDS.devicePool);
      for (const device of connect) {
        const event: DevicePoolEvent = { type: 'device.connect', device };
        if (pool) enqueue.sendTo(pool, event as EventObject);
      }
      context.entries.forEach((before, n) => {
        const visible = kept[n]!.page === shownPage;
        if ((before.page === context.page) !== visible)
          enqueue.sendTo(before.ref, { type: 'stream.view', viewer: 'page', visible });
      });
      const labels = new Map(loaded.devices.map((d) => [d.device_id, d.label]));
      enqueue.assign({
        opened,
        page: shownPage,
        ipCameras: loaded.ipCameras,
        entries: ({ spawn, self }) => [
          ...restored.map(({ saved: s, streamId, camera, deviceOpen, page, cell }) => ({
            streamId,
            key: s.key,
            deviceId: s.deviceId,
            camera,
            page,
            cell,
            ref: spawn('stream', {
              id: `stream-${streamId}`,
              input: {
                streamId,
                deviceId: s.deviceId,
                deviceLabel: labels.get(s.deviceId) ?? s.deviceId,
                camera,
                resolution: s.resolution ?? null,
                reportTo: self,
                deviceOpen,
                onShownPage: page === shownPage,
              },
            }),
          })),
          ...kept,
        ],
      });
    }),
    /** Stops the stream actor (its clean-up sends stop-stream and closes the peer connection). */
    closeStream: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'stream.close') return;
      const entry = context.entries.find((s) => s.streamId === event.streamId);
      if (entry) enqueue.sendTo(entry.ref, { type: 'stream.close' });
    }),
    /** A stream reached `closed`: drop it from the grid, close empty pages, tell the pages' streams. */
    forgetStream: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'stream.closed') return;
      const entry = context.entries.find((s) => s.streamId === event.streamId);
      if (!entry) return;
      enqueue.stopChild(entry.ref);
      const entries = compactPages(context.entries.filter((s) => s.streamId !== event.streamId));
      const page = Math.min(context.page, pageCountOf(entries) - 1);
      enqueue.assign({
        entries,
        page,
        modalStreamId: context.modalStreamId === event.streamId ? null : context.modalStreamId,
      });
      for (const e of entries) {
        const before = context.entries.find((x) => x.streamId === e.streamId)!;
        if ((before.page === context.page) !== (e.page === page)) {
          enqueue.sendTo(e.ref, { type: 'stream.view', viewer: 'page', visible: e.page === page });
        }
      }
      enqueue.raise({ type: 'layout.changed' });
    }),
    showPage: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'grid.page') return;
      const page = Math.min(Math.max(0, Math.floor(event.page)), pageCountOf(context.entries) - 1);
      if (page === context.page) return;
      enqueue.assign({ page });
      for (const e of context.entries) {
        if (e.page === page || e.page === context.page) {
          enqueue.sendTo(e.ref, { type: 'stream.view', viewer: 'page', visible: e.page === page });
        }
      }
    }),
    /** Drag/resize: the shown page's cells as react-grid-layout reports them. */
    applyLayout: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'grid.layout') return;
      const byId = new Map(event.cells.map((c) => [c.i, clampCell(c)]));
      let changed = false;
      const entries = context.entries.map((e) => {
        const next = e.page === context.page ? byId.get(e.streamId) : undefined;
        if (!next || sameCell(next, e.cell)) return e;
        changed = true;
        return { ...e, cell: { ...e.cell, x: next.x, y: next.y, w: next.w, h: next.h } };
      });
      if (!changed) return;
      enqueue.assign({ entries });
      enqueue.raise({ type: 'layout.changed' });
    }),
    applySize: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'grid.size') return;
      enqueue.assign({
        entries: context.entries.map((e) =>
          e.streamId === event.streamId ? { ...e, cell: resizeCell(e.cell, event.size) } : e,
        ),
      });
      enqueue.raise({ type: 'layout.changed' });
    }),
    /** Keeps `devices` current and tells the device's streams whether to wait, resume or fail. */
    trackDevice: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'device.status') return;
      const prev = context.devices[event.deviceId];
      enqueue.assign({
        devices: {
          ...context.devices,
          [event.deviceId]: { label: event.label, status: event.status, cameras: prev?.cameras ?? [] },
        },
      });
      const signal = streamSignalOf(event.status);
      if (!signal) return;
      for (const s of context.entries) {
        if (s.deviceId === event.deviceId) enqueue.sendTo(s.ref, { type: signal });
      }
    }),
    /** A device listed its cameras: remember them; restored entries get the real camera (label). */
    trackCameras: assign(({ context, event }) =>
      event.type === 'device.cameras' ? withCameras(context, event.deviceId, event.cameras) : {},
    ),
    closeAll: enqueueActions(({ context, enqueue }) => {
      // `stream.close` first: the stream releases (or un-holds) its session on the way to `closed`.
      for (const s of context.entries) {
        enqueue.sendTo(s.ref, { type: 'stream.close' });
        enqueue.stopChild(s.ref);
      }
      enqueue.assign({
        entries: [],
        page: 0,
        dirty: false,
        saveFailures: 0,
        loadFailures: 0,
        modalStreamId: null,
        ipCameras: [],
      });
    }),
    markDirty: assign({ dirty: true }),
    clearDirty: assign({ dirty: false }),
    showInModal: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'modal.open') return;
      const entry = context.entries.find((e) => e.streamId === event.streamId);
      if (!entry) return;
      const prev = context.entries.find((e) => e.streamId === context.modalStreamId);
      if (prev && prev !== entry)
        enqueue.sendTo(prev.ref, { type: 'stream.view', viewer: 'modal', visible: false });
      enqueue.assign({ modalStreamId: entry.streamId });
      enqueue.sendTo(entry.ref, { type: 'stream.view', viewer: 'modal', visible: true });
    }),
    leaveModal: enqueueActions(({ context, enqueue }) => {
      const entry = context.entries.find((e) => e.streamId === context.modalStreamId);
      if (entry) enqueue.sendTo(entry.ref, { type: 'stream.view', viewer: 'modal', visible: false });
      enqueue.assign({ modalStreamId: null });
    }),
  },
  guards: {
    dirty: ({ context }) => context.dirty,
    /** The failed save may succeed later, unchanged (the server was away: network, 408, 429, 5xx). */
    saveMaySucceedLater: ({ event }) => saveMaySucceedLater((event as { error?: unknown }).error),
    /** The failed load may succeed later (same rule): the saved layout is still there, only not read. */
    loadMaySucceedLater: ({ event }) => loadMaySucceedLater((event as { error?: unknown }).error),
    modalStreamGone: ({ context, event }) =>
      event.type === 'stream.closed' && event.streamId === context.modalStreamId,
  },
  delays: {
    saveDebounce: LAYOUT_SAVE_DEBOUNCE_MS,
    saveRetry: ({ context }) => layoutSaveRetryDelay(context.saveFailures),
    loadRetry: ({ context }) => layoutLoadRetryDelay(context.loadFailures),
  },
}).createMachine({
  id: 'cameraGrid',
  type: 'parallel',
  context: ({ input }) => ({
    entries: [],
    page: 0,
    devices: {},
    ipCameras: [],
    idPrefix: input?.idPrefix ?? 'stream',
    opened: 0,
    admitted: 0,
    dirty: false,
    saveFailures: 0,
    loadFailures: 0,
    modalStreamId: null,
  }),
  on: {
    'stream.close': { actions: 'closeStream' },
    'stream.closed': { actions: ['forgetStream', 'reportStreams'] },
    'grid.page': { actions: 'showPage' },
    'grid.layout': { actions: 'applyLayout' },
    'grid.size': { actions: 'applySize' },
    'device.status': { actions: ['trackDevice', 'tellOpener'] },
    'device.cameras': { actions: ['trackCameras', 'tellOpener'] },
    'stream.open': { actions: ['connectRequestedDevice', 'requestOpen'] },
    'stream.openIp': { actions: 'requestOpen' },
    'opener.admitted': { actions: ['openStream', 'reportStreams'] },
    'opener.deviceWarning': { actions: 'emitDeviceWarning' },
  },
  invoke: {
    id: 'opener',
    src: 'opener',
    input: ({ self }) => ({ reportTo: self }),
  },
  states: {
    layout: {
      initial: 'unloaded',
      on: {
        'streams.reset': { target: '.unloaded', actions: ['closeAll', 'tellOpener'] },
      },
      states: {
        unloaded: {
          on: { 'grid.load': { target: 'loading' } },
        },
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadLayout',
            src: 'loadLayout',
            // A change made before the layout arrived (while it could not be loaded) is saved, merged with
            // the loaded layout (restoreStreams), now that the server's layout is known.
            onDone: [
              {
                guard: 'dirty',
                target: 'ready.pending',
                actions: [
                  { type: 'restoreStreams', params: ({ event }) => event.output },
                  'reportStreams',
                  'noteLoaded',
                ],
              },
              {
                target: 'ready',
                actions: [
                  { type: 'restoreStreams', params: ({ event }) => event.output },
                  'reportStreams',
                  'noteLoaded',
                ],
              },
            ],
            onError: [
              // An outage: the saved layout is still on the server; "empty" is not it. Load again.
              { guard: 'loadMaySucceedLater', target: 'notLoaded', actions: 'noteLoadFailed' },
              // Refused (other 4xx): start with what is open; the next change saves over it, as before.
              { target: 'ready', actions: 'giveUpLoad' },
            ],
          },
          on: { 'layout.changed': { actions: 'markDirty' } },
        },
        /**
         * The saved layout could not be loaded (outage). Nothing is saved from here — it would overwrite the
         * layout the console has not seen; changes are only remembered (`dirty`) and saved, merged, once a
         * load succeeded. Loads again after the back-off or as soon as the server's links are back.
         */
        notLoaded: {
          tags: ['notLoaded'],
          invoke: { id: 'watchServer', src: 'watchServer' },
          after: { loadRetry: { target: 'loading' } },
          on: {
            'layout.serverBack': { target: 'loading' },
            'layout.changed': { actions: 'markDirty' },
            'grid.load': { target: 'loading' },
          },
        },
        ready: {
          initial: 'saved',
          on: {
            'grid.load': { target: 'loading' },
          },
          states: {
            saved: {
              on: { 'layout.changed': { target: 'pending' } },
            },
            /** Debounce: each change restarts the wait. */
            pending: {
              after: { saveDebounce: { target: 'saving' } },
              on: { 'layout.changed': { target: 'pending', reenter: true } },
            },
            saving: {
              entry: 'clearDirty',
              invoke: {
                id: 'saveLayout',
                src: 'saveLayout',
                input: ({ context }) => ({ streams: toSavedStreams(context.entries) }),
                onDone: [
                  { guard: 'dirty', target: 'pending', actions: 'noteSaved' },
                  { target: 'saved', actions: 'noteSaved' },
                ],
                onError: [
                  { guard: 'saveMaySucceedLater', target: 'unsaved', actions: 'noteSaveFailed' },
                  { guard: 'dirty', target: 'pending', actions: 'giveUpSave' },
                  { target: 'saved', actions: 'giveUpSave' },
                ],
              },
              on: { 'layout.changed': { actions: 'markDirty' } },
            },
            /**
             * The server could not take the layout (outage). It waits here, kept in `entries`, and is saved again
             * after the back-off or as soon as the server's links are back; the try sends the newest layout, so a
             * change made meanwhile needs nothing more (and no second save).
             */
            unsaved: {
              tags: ['unsaved'],
              invoke: { id: 'watchServer', src: 'watchServer' },
              after: { saveRetry: { target: 'saving' } },
              on: { 'layout.serverBack': { target: 'saving' } },
            },
          },
        },
      },
    },
    modal: {
      initial: 'closed',
      on: {
        'streams.reset': { target: '.closed' },
      },
      states: {
        closed: {
          on: { 'modal.open': { target: 'open', actions: 'showInModal' } },
        },
        open: {
          on: {
            'modal.open': { actions: 'showInModal' },
            'modal.close': { target: 'closed', actions: 'leaveModal' },
            'modal.minimize': { target: 'minimized' },
            // The root handler forgets the stream; this region only closes.
            'stream.closed': { guard: 'modalStreamGone', target: 'closed' },
          },
        },
        /** §2: the stream keeps going; first the "Minimized" info dialog. */
        minimized: {
          initial: 'notice',
          on: {
            'modal.restore': { target: 'open' },
            'modal.open': { target: 'open', actions: 'showInModal' },
            'modal.close': { target: 'closed', actions: 'leaveModal' },
            // The root handler forgets the stream; this region only closes.
            'stream.closed': { guard: 'modalStreamGone', target: 'closed' },
          },
          states: {
            notice: { on: { 'modal.ack': { target: 'quiet' } } },
            quiet: {},
          },
        },
      },
    },
  },
});

/** The camera grid. */
export const cameraGridMachine = gridMachine;
