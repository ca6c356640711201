/**
 * The camera grid (systemId 'streams') — spec §2 "Camera control page" (grid of camera cells, 12 columns,
 * at most 12 cameras per page, overflow opens a new page; drag; camera chooser dialog with photos when one
 * physical camera matches on several devices; camera-conflict dialog when a camera is in use) and "Stream
 * modal"; §3 Camera layout cell, Camera (IP cameras with deviceId; ids without deviceId skipped); §4 "Stream
 * slots: empty or filled. A stream quota is available or not", "Camera use: if the camera is in use, offer
 * to kill the other processes; the result is true or false"; §5 "Opening a camera stream requires the
 * device to be connected"; §8 "Device Warning", "Camera Conflict"; §9 grid and layout sizes.
 *
 * Three parallel regions:
 * - `opener` — the opening flow, one request at a time (further clicks queue): device connected? (else the
 *   'Device Warning' notice and a connection attempt) → `choosingCamera` when the camera's unique_id is on
 *   several connected devices (photos from getOneFrameFromPhysicalCamera; pick or cancel) → `checking`: the
 *   request's check (`checkRequest`: usage/check_stream_limit with numOfCameras = the device's streams + 1,
 *   and check-camera-usage, both at once) → quota refused → `refused`, nothing opens; camera in use →
 *   `conflict`: kill → `killing` (force-kill-stream) → `killed` shows true/false → continue; or cancel →
 *   `choosingResolution` when asked for (get-supported-resolutions) → the stream actor is spawned on a page
 *   with room (the 13th opens page 2).
 *   Checks run ahead: every queued request that needs no chooser gets its check at once (a spawned
 *   `checkRequest`, numOfCameras counting the streams and requests before it on its device), so twelve
 *   clicks are checked together and each opens as soon as the ones before it did. A check whose count no
 *   longer holds (a request before it was refused or cancelled, a stream closed) is run again; a dialog
 *   drops the checks made ahead (they are made again once it closes), so no answer is older than the
 *   dialogs before it.
 * - `layout` — persistence: `grid.load` (sign-in) loads GET camera-layout, reopens the saved streams
 *   (asking devicePool to connect their devices first; each waits for its device) → `ready`, where every
 *   change of streams, pages or cells is saved with a debounced PUT camera-layout (LAYOUT_SAVE_DEBOUNCE_MS).
 *   `streams.reset` (sign-out) closes everything without saving.
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
  type ActorRefFrom,
  type EventObject,
} from 'xstate';
import type { CommandReply, DeviceCamera, ResolutionOption } from '../../src/protocol/commands';
import type { CameraLayoutSize } from '../../src/protocol/constants';
import type { Device, IpCamera, LayoutCell, SavedStream } from '../../src/protocol/rest';
import type {
  DeviceCamerasReport,
  DeviceConnectionStatus,
  DeviceStatusReport,
} from '../devices/deviceConnection.machine';
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
import { streamMachine, type StreamClosedReport } from './stream.machine';
import { SYSTEM_IDS } from '../systemIds';

export type StreamRef = ActorRefFrom<typeof streamMachine>;

/** Debounce of the layout PUT after the last change, ms. */
export const LAYOUT_SAVE_DEBOUNCE_MS = 1_000;

/** One open stream on the grid. */
export interface GridEntry {
  streamId: string;
  /** Camera identity in the saved layout (gridLayout.cameraKey). */
  key: string;
  deviceId: string;
  camera: DeviceCamera;
  /** Grid page, 0-based. */
  page: number;
  /** react-grid-layout item; i = streamId. */
  cell: LayoutCell;
  ref: StreamRef;
}

/** What the pool last said about a device. */
export interface KnownDevice {
  label: string;
  status: DeviceConnectionStatus;
  cameras: DeviceCamera[];
}

/** A stream the user asked to open. */
export interface OpenRequest {
  /** Sequence number of the request (its check is `checks[id]`). */
  id: number;
  deviceId: string;
  camera: DeviceCamera;
  resolution: ResolutionOption | null;
  /** Offer the supported resolutions before opening. */
  chooseResolution: boolean;
}

/** A device that has the requested physical camera (chooser dialog). */
export interface CameraCandidate {
  deviceId: string;
  deviceLabel: string;
  camera: DeviceCamera;
}

/** What `checkRequest` checks (§4 stream quota and camera use) for one request. */
export interface RequestCheckInput {
  /** The spawned check's actor id; its `opener.checked` event carries it back. */
  checkId: string;
  requestId: number;
  deviceId: string;
  cameraId: string;
  /** usage/check_stream_limit numOfCameras: the device's streams, the requests before this one on it, + 1. */
  numOfCameras: number;
}

/** `checkRequest`'s answer: usage/check_stream_limit and check-camera-usage, asked together. */
export interface RequestCheckOutcome {
  /** is_quota_available; false also when the quota could not be checked (then `quotaError` says why). */
  quotaAvailable: boolean;
  quotaError: string | null;
  /** check-camera-usage's reply; null when the device did not answer (that does not block the stream). */
  usage: CommandReply<'check-camera-usage'> | null;
}

/** A check made for a request, and its outcome once answered. */
export interface RequestCheck {
  checkId: string;
  deviceId: string;
  cameraId: string;
  numOfCameras: number;
  outcome: RequestCheckOutcome | null;
}

/** Outcome of GET camera-layout (with the devices its streams need, and the server's IP cameras). */
export interface LoadedLayout {
  streams: SavedStream[];
  /** The devices the saved streams are on (those still owned by the user). */
  devices: Device[];
  /** GET ip-cameras (§3: listed from the server, each with the device that reaches it). */
  ipCameras: IpCamera[];
}

export interface CameraGridContext {
  entries: GridEntry[];
  /** The page shown, 0-based. */
  page: number;
  devices: Record<string, KnownDevice>;
  /** IP cameras listed by the server. */
  ipCameras: IpCamera[];
  /** Prefix of stream ids (this tab's browser id), so callIds are unique across tabs. */
  idPrefix: string;
  /** Streams opened so far (for the next id). */
  opened: number;
  /** Requests waiting for the opener. */
  queue: OpenRequest[];
  /** The request the opener works on. */
  request: OpenRequest | null;
  /** Requests made so far (for the next request id). */
  requested: number;
  /** Checks made so far (for the next check's actor id). */
  checked: number;
  /** Checks of the current and queued requests, by request id. */
  checks: Record<number, RequestCheck>;
  candidates: CameraCandidate[];
  /** Chooser photos by device id (PNG data URL; null = could not be taken). */
  photos: Record<string, string | null>;
  /** check-camera-usage: the other processes using the camera. */
  usage: CommandReply<'check-camera-usage'>['processes'];
  /** force-kill-stream result (§4: true or false). */
  killResult: boolean | null;
  resolutions: ResolutionOption[];
  /** Why the last request was refused (quota), shown in the `refused` dialog. */
  refusal: string | null;
  /** A change arrived while saving: save again afterwards. */
  dirty: boolean;
  /** The stream in the modal. */
  modalStreamId: string | null;
}

export interface CameraGridInput {
  idPrefix?: string;
}

export type CameraGridEvent =
  | {
      type: 'stream.open';
      deviceId: string;
      camera: DeviceCamera;
      resolution?: ResolutionOption;
      chooseResolution?: boolean;
      /** When given and not connected, the grid asks the pool to connect it (§8 "connection is still attempted"). */
      device?: Device;
    }
  /** Open an IP camera listed by the server (§3) through the device that reaches it. */
  | { type: 'stream.openIp'; ipCameraId: string; chooseResolution?: boolean }
  /** A request's check answered (from the spawned `checkRequest`). */
  | ({ type: 'opener.checked'; checkId: string; requestId: number } & RequestCheckOutcome)
  | { type: 'opener.pick'; deviceId: string }
  | { type: 'opener.kill' }
  | { type: 'opener.continue' }
  | { type: 'opener.resolution'; resolution: ResolutionOption | null }
  | { type: 'opener.cancel' }
  | { type: 'opener.dismiss' }
  | { type: 'stream.close'; streamId: string }
  | { type: 'grid.page'; page: number }
  /** Cells of the shown page after a drag or resize (react-grid-layout's layout). */
  | { type: 'grid.layout'; cells: LayoutCell[] }
  | { type: 'grid.size'; streamId: string; size: CameraLayoutSize }
  /** Root system on sign-in: load the saved layout and reopen its streams. */
  | { type: 'grid.load' }
  /** Root system, on sign-out: close every stream (not saved). */
  | { type: 'streams.reset' }
  | { type: 'modal.open'; streamId: string }
  | { type: 'modal.close' }
  | { type: 'modal.minimize' }
  | { type: 'modal.restore' }
  /** "I understood" (or "Camera Page") on the Minimized dialog. */
  | { type: 'modal.ack' }
  /** Internal: the layout changed (saved after the debounce). */
  | { type: 'layout.changed' }
  | DeviceStatusReport
  | DeviceCamerasReport
  | StreamClosedReport;

/** §8 texts. */
export const GRID_TEXTS = {
  deviceWarningTitle: 'Device Warning',
  deviceWarning: 'The device is not connected. Connect it first (the connection is still attempted).',
  quotaExceeded: 'Stream quota exceeded',
  conflictTitle: 'Camera Conflict',
  saveFailed: 'The camera layout could not be saved.',
  minimized: 'Minimized - Stream is still going on. You can use the camera page to monitor and manage',
} as const;

/**
 * While a dialog is open, new requests only queue: the checks made ahead wait until it closes (a dialog
 * can take minutes, and its outcome changes the counts).
 */
const QUEUE_ONLY = {
  'stream.open': { actions: ['enqueue', 'connectRequestedDevice'] },
  'stream.openIp': { actions: 'enqueue' },
} as const;

const notProvided = (name: string): never => {
  throw new Error(`cameraGrid: actor '${name}' is not provided`);
};

/** The saved form of the entries (PUT camera-layout). */
export function toSavedStreams(entries: readonly GridEntry[]): SavedStream[] {
  return entries.map((e) => {
    const resolution = e.ref.getSnapshot().context.resolution;
    return {
      key: e.key,
      deviceId: e.deviceId,
      cameraId: e.camera.camera_id,
      page: e.page,
      cell: { ...e.cell, i: e.streamId },
      ...(resolution ? { resolution } : {}),
    };
  });
}

/** A camera known only by its id (a restored stream before its device listed its cameras). */
function placeholderCamera(deviceId: string, cameraId: string, key: string): DeviceCamera {
  const ip = key.startsWith('ip:');
  return {
    id: ip ? cameraId : `${deviceId}-${cameraId}`,
    camera_id: cameraId,
    uniqueCameraId: `${deviceId}-${cameraId}`,
    unique_id: cameraId,
    name: cameraId,
    label: cameraId,
    device_id: deviceId,
    camera_type: ip ? 'ip' : 'physical',
  };
}

/** Connected devices (other than none) that have a physical camera with this unique_id. */
function candidatesFor(context: CameraGridContext, request: OpenRequest): CameraCandidate[] {
  if (request.camera.camera_type === 'ip' || !request.camera.unique_id) return [];
  const out: CameraCandidate[] = [];
  for (const [deviceId, d] of Object.entries(context.devices)) {
    if (d.status !== 'open') continue;
    const camera = d.cameras.find((c) => c.unique_id === request.camera.unique_id && c.camera_type !== 'ip');
    if (camera) out.push({ deviceId, deviceLabel: d.label, camera });
  }
  return out;
}

/** The streams on a device plus the requests ahead of `index` in the queue on it (the current one too). */
function streamsAhead(context: CameraGridContext, deviceId: string, index: number): number {
  return (
    context.entries.filter((e) => e.deviceId === deviceId).length +
    (context.request?.deviceId === deviceId ? 1 : 0) +
    context.queue.slice(0, index).filter((r) => r.deviceId === deviceId).length
  );
}

/** True when `check` was made for this device, camera and count. */
function checkHolds(check: RequestCheck | undefined, want: Omit<RequestCheck, 'checkId' | 'outcome'>) {
  return (
    !!check &&
    check.deviceId === want.deviceId &&
    check.cameraId === want.cameraId &&
    check.numOfCameras === want.numOfCameras
  );
}

/** What the check actions may enqueue (a subset of enqueueActions' `enqueue`). */
interface CheckEnqueue {
  assign: (values: Partial<CameraGridContext>) => void;
  stopChild: (id: string) => void;
  spawnChild: (src: 'checkRequest', options: { id: string; input: RequestCheckInput }) => void;
}

/**
 * Makes sure each request has a check for its device, camera and `numOfCameras`: a check that no longer holds
 * is stopped and a new `checkRequest` spawned (actor id `check-<n>`).
 */
function makeChecks(
  context: CameraGridContext,
  enqueue: CheckEnqueue,
  wanted: ReadonlyArray<{ request: OpenRequest; numOfCameras: number }>,
): void {
  let checked = context.checked;
  const checks = { ...context.checks };
  for (const { request, numOfCameras } of wanted) {
    const want = { deviceId: request.deviceId, cameraId: request.camera.camera_id, numOfCameras };
    const check = checks[request.id];
    if (checkHolds(check, want)) continue;
    if (check) enqueue.stopChild(check.checkId);
    checked += 1;
    const checkId = `check-${checked}`;
    checks[request.id] = { ...want, checkId, outcome: null };
    enqueue.spawnChild('checkRequest', { id: checkId, input: { ...want, checkId, requestId: request.id } });
  }
  if (checked !== context.checked) enqueue.assign({ checked, checks });
}

/** Stops and forgets the checks of every request not in `keep`. */
function keepChecksOf(context: CameraGridContext, enqueue: CheckEnqueue, keep: ReadonlySet<number>): void {
  const drop = Object.keys(context.checks)
    .map(Number)
    .filter((id) => !keep.has(id));
  if (drop.length === 0) return;
  for (const id of drop) enqueue.stopChild(context.checks[id]!.checkId);
  enqueue.assign({
    checks: Object.fromEntries(Object.entries(context.checks).filter(([id]) => keep.has(Number(id)))),
  });
}

/** The current request's check outcome, when answered and still valid. */
function currentOutcome(context: CameraGridContext): RequestCheckOutcome | null {
  return (context.request && context.checks[context.request.id]?.outcome) ?? null;
}

export const cameraGridMachine = setup({
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
     * GET usage/check_stream_limit?deviceId&numOfCameras → is_quota_available, and check-camera-usage, at
     * once; answers with `opener.checked` { checkId, requestId, ...RequestCheckOutcome }. Stopped = cancelled.
     */
    checkRequest: fromCallback<EventObject, RequestCheckInput>(() => notProvided('checkRequest')),
    /** getOneFrameFromPhysicalCamera per candidate (device id → data URL, null when it failed). */
    loadPhotos: fromPromise<Record<string, string | null>, { candidates: CameraCandidate[] }>(async () =>
      notProvided('loadPhotos'),
    ),
    /** force-kill-stream → result. */
    forceKill: fromPromise<boolean, { deviceId: string; cameraId: string }>(async () =>
      notProvided('forceKill'),
    ),
    /** get-supported-resolutions. */
    loadResolutions: fromPromise<ResolutionOption[], { deviceId: string; cameraId: string }>(async () =>
      notProvided('loadResolutions'),
    ),
  },
  actions: {
    enqueue: assign({
      queue: ({ context, event }) => {
        if (event.type === 'stream.open') {
          return [
            ...context.queue,
            {
              id: context.requested + 1,
              deviceId: event.deviceId,
              camera: event.camera,
              resolution: event.resolution ?? null,
              chooseResolution: event.chooseResolution ?? false,
            },
          ];
        }
        if (event.type === 'stream.openIp') {
          const ip = context.ipCameras.find((c) => c.id === event.ipCameraId);
          // §3: camera ids without deviceId are skipped.
          if (!ip?.deviceId) return context.queue;
          const listed = context.devices[ip.deviceId]?.cameras.find(
            (c) => c.camera_type === 'ip' && c.camera_id === ip.id,
          );
          const camera: DeviceCamera = listed ?? {
            ...placeholderCamera(ip.deviceId, ip.id, `ip:${ip.id}`),
            name: ip.label,
            label: ip.label,
          };
          return [
            ...context.queue,
            {
              id: context.requested + 1,
              deviceId: ip.deviceId,
              camera,
              resolution: null,
              chooseResolution: event.chooseResolution ?? false,
            },
          ];
        }
        return context.queue;
      },
      requested: ({ context }) => context.requested + 1,
    }),
    /**
     * Checks ahead: spawns `checkRequest` for every queued request that needs no dialog first (device
     * connected, one candidate) and has no check for its present count; a check whose count changed is
     * stopped and made again.
     */
    checkAhead: enqueueActions(({ context, enqueue }) => {
      const wanted = context.queue.flatMap((request, index) =>
        context.devices[request.deviceId]?.status === 'open' && candidatesFor(context, request).length <= 1
          ? [{ request, numOfCameras: streamsAhead(context, request.deviceId, index) + 1 }]
          : [],
      );
      makeChecks(context, enqueue, wanted);
    }),
    /** The current request's check, made now unless one holds for its device, camera and count. */
    checkCurrent: enqueueActions(({ context, enqueue }) => {
      const request = context.request;
      if (!request) return;
      const numOfCameras = context.entries.filter((e) => e.deviceId === request.deviceId).length + 1;
      makeChecks(context, enqueue, [{ request, numOfCameras }]);
    }),
    /** Keeps a check's answer (only from the check that is current for its request). */
    keepCheckOutcome: assign({
      checks: ({ context, event }) => {
        if (event.type !== 'opener.checked') return context.checks;
        const check = context.checks[event.requestId];
        if (!check || check.checkId !== event.checkId) return context.checks;
        const { quotaAvailable, quotaError, usage } = event;
        return {
          ...context.checks,
          [event.requestId]: { ...check, outcome: { quotaAvailable, quotaError, usage } },
        };
      },
    }),
    /** A dialog opens: the checks made ahead are dropped (made again once the opener is free). */
    dropChecks: enqueueActions(({ context, enqueue }) => keepChecksOf(context, enqueue, new Set())),
    /** Drops the checks of requests that are neither current nor queued (done, cancelled, reset). */
    pruneChecks: enqueueActions(({ context, enqueue }) =>
      keepChecksOf(
        context,
        enqueue,
        new Set([...context.queue.map((r) => r.id), ...(context.request ? [context.request.id] : [])]),
      ),
    ),
    /** Also asks the pool to connect the device when the event carried it (§8 "still attempted"). */
    connectRequestedDevice: enqueueActions(({ event, enqueue, system }) => {
      if (event.type !== 'stream.open' || !event.device) return;
      const pool = system.get(SYSTEM_IDS.devicePool);
      const connect: DevicePoolEvent = { type: 'device.connect', device: event.device };
      if (pool) enqueue.sendTo(pool, connect as EventObject);
    }),
    takeNext: assign({
      request: ({ context }) => context.queue[0] ?? null,
      queue: ({ context }) => context.queue.slice(1),
      candidates: [],
      photos: {},
      usage: [],
      killResult: null,
      resolutions: [],
      refusal: null,
    }),
    clearRequest: assign({ request: null, candidates: [], photos: {}, usage: [], resolutions: [] }),
    findCandidates: assign({
      candidates: ({ context }) => (context.request ? candidatesFor(context, context.request) : []),
    }),
    pickCandidate: assign({
      request: ({ context, event }) => {
        if (event.type !== 'opener.pick' || !context.request) return context.request;
        const c = context.candidates.find((x) => x.deviceId === event.deviceId);
        return c ? { ...context.request, deviceId: c.deviceId, camera: c.camera } : context.request;
      },
    }),
    emitDeviceWarning: emit({
      type: 'notice',
      title: GRID_TEXTS.deviceWarningTitle,
      message: GRID_TEXTS.deviceWarning,
      variant: 'warning',
    } as const),
    emitSaveFailed: emit({
      type: 'notice',
      title: 'Camera page',
      message: GRID_TEXTS.saveFailed,
      variant: 'warning',
    } as const),
    /** Spawns the stream actor for the request on a page with room and shows that page (§2). */
    openStream: enqueueActions(({ context, enqueue }, params: { resolution: ResolutionOption | null }) => {
      const request = context.request;
      if (!request) return;
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
                resolution: params.resolution ?? request.resolution,
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
    /** Reopens the saved streams whose device is still the user's; connects those devices first (§5). */
    restoreStreams: enqueueActions(({ context, enqueue, system }, loaded: LoadedLayout) => {
      const byId = new Map(loaded.devices.map((d) => [d.device_id, d]));
      const saved = loaded.streams.filter((s) => byId.has(s.deviceId));
      const pool = system.get(SYSTEM_IDS.devicePool);
      for (const device of new Set(saved.map((s) => s.deviceId))) {
        if (pool && context.devices[device]?.status !== 'open') {
          const connect: DevicePoolEvent = { type: 'device.connect', device: byId.get(device)! };
          enqueue.sendTo(pool, connect as EventObject);
        }
      }
      const shownPage = 0;
      let opened = context.opened;
      const restored = saved.map((s) => {
        opened += 1;
        const streamId = `${context.idPrefix}-${opened}`;
        const known = context.devices[s.deviceId];
        const camera =
          known?.cameras.find((c) => c.camera_id === s.cameraId) ??
          placeholderCamera(s.deviceId, s.cameraId, s.key);
        return { saved: s, streamId, camera, deviceOpen: known?.status === 'open' };
      });
      enqueue.assign({
        opened,
        page: shownPage,
        ipCameras: loaded.ipCameras,
        entries: ({ context: c, spawn, self }) =>
          compactPages([
            ...c.entries,
            ...restored.map(({ saved: s, streamId, camera, deviceOpen }) => ({
              streamId,
              key: s.key,
              deviceId: s.deviceId,
              camera,
              page: s.page,
              cell: clampCell({ ...s.cell, i: streamId }),
              ref: spawn('stream', {
                id: `stream-${streamId}`,
                input: {
                  streamId,
                  deviceId: s.deviceId,
                  deviceLabel: byId.get(s.deviceId)?.label ?? s.deviceId,
                  camera,
                  resolution: s.resolution ?? null,
                  reportTo: self,
                  deviceOpen,
                  onShownPage: s.page === shownPage,
                },
              }),
            })),
          ]),
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
      const signal =
        event.status === 'open'
          ? 'stream.deviceUp'
          : event.status === 'reconnecting'
            ? 'stream.deviceDown'
            : event.status === 'closed' || event.status === 'errored'
              ? 'stream.deviceLost'
              : null;
      if (!signal) return;
      for (const s of context.entries) {
        if (s.deviceId === event.deviceId) enqueue.sendTo(s.ref, { type: signal });
      }
    }),
    /** A device listed its cameras: remember them; restored entries get the real camera (label). */
    trackCameras: assign(({ context, event }) => {
      if (event.type !== 'device.cameras') return {};
      const prev = context.devices[event.deviceId];
      return {
        devices: {
          ...context.devices,
          [event.deviceId]: {
            label: prev?.label ?? event.deviceId,
            status: prev?.status ?? 'open',
            cameras: event.cameras,
          },
        },
        entries: context.entries.map((e) => {
          if (e.deviceId !== event.deviceId) return e;
          const camera = event.cameras.find((c) => c.camera_id === e.camera.camera_id);
          return camera && camera !== e.camera ? { ...e, camera } : e;
        }),
      };
    }),
    closeAll: enqueueActions(({ context, enqueue }) => {
      // `stream.close` first: the stream releases (or un-holds) its session on the way to `closed`.
      for (const s of context.entries) {
        enqueue.sendTo(s.ref, { type: 'stream.close' });
        enqueue.stopChild(s.ref);
      }
      enqueue.assign({
        entries: [],
        page: 0,
        queue: [],
        request: null,
        dirty: false,
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
    queued: ({ context }) => context.queue.length > 0,
    /** §5: the request's device link is open. */
    deviceConnected: ({ context }) =>
      !!context.request && context.devices[context.request.deviceId]?.status === 'open',
    /** One physical camera on several connected devices → the chooser (§2). */
    severalCandidates: ({ context }) => context.candidates.length > 1,
    /** The current request's check answered: no quota (§4 "A stream quota is available or not"). */
    checkRefused: ({ context }) => currentOutcome(context)?.quotaAvailable === false,
    /** …: the camera is in use (§4 Camera use). */
    checkInUse: ({ context }) => currentOutcome(context)?.usage?.in_use === true,
    checkAnswered: ({ context }) => currentOutcome(context) !== null,
    wantsResolution: ({ context }) => !!context.request?.chooseResolution,
    dirty: ({ context }) => context.dirty,
    modalStreamGone: ({ context, event }) =>
      event.type === 'stream.closed' && event.streamId === context.modalStreamId,
  },
  delays: {
    saveDebounce: LAYOUT_SAVE_DEBOUNCE_MS,
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
    queue: [],
    request: null,
    requested: 0,
    checked: 0,
    checks: {},
    candidates: [],
    photos: {},
    usage: [],
    killResult: null,
    resolutions: [],
    refusal: null,
    dirty: false,
    modalStreamId: null,
  }),
  on: {
    'stream.close': { actions: 'closeStream' },
    'stream.closed': { actions: 'forgetStream' },
    'grid.page': { actions: 'showPage' },
    'grid.layout': { actions: 'applyLayout' },
    'grid.size': { actions: 'applySize' },
    'device.status': { actions: 'trackDevice' },
    'device.cameras': { actions: 'trackCameras' },
  },
  states: {
    opener: {
      initial: 'idle',
      on: {
        'stream.open': { actions: ['enqueue', 'connectRequestedDevice', 'checkAhead'] },
        'stream.openIp': { actions: ['enqueue', 'checkAhead'] },
        'opener.checked': { actions: 'keepCheckOutcome' },
        'streams.reset': { target: '.idle' },
      },
      states: {
        idle: {
          entry: ['clearRequest', 'pruneChecks', 'checkAhead'],
          always: { guard: 'queued', target: 'deciding', actions: 'takeNext' },
        },
        /** Which dialog, if any, the request needs first. */
        deciding: {
          always: [
            { guard: { type: 'deviceConnected' }, target: 'routing', actions: 'findCandidates' },
            { target: 'idle', actions: 'emitDeviceWarning' },
          ],
        },
        routing: {
          always: [{ guard: 'severalCandidates', target: 'choosingCamera' }, { target: 'checking' }],
        },
        /** §2 camera chooser: one physical camera on several devices; a photo per candidate. */
        choosingCamera: {
          entry: 'dropChecks',
          invoke: {
            id: 'loadPhotos',
            src: 'loadPhotos',
            input: ({ context }) => ({ candidates: context.candidates }),
            onDone: { actions: assign({ photos: ({ event }) => event.output }) },
          },
          on: {
            ...QUEUE_ONLY,
            'opener.pick': { target: 'checking', actions: 'pickCandidate' },
            'opener.cancel': { target: 'idle' },
          },
        },
        /** §4 §7 stream quota and §4 camera use: the request's check (made ahead, or now). */
        checking: {
          tags: ['busy'],
          entry: 'checkCurrent',
          always: [
            {
              guard: 'checkRefused',
              target: 'refused',
              actions: assign({
                refusal: ({ context }) => currentOutcome(context)?.quotaError ?? GRID_TEXTS.quotaExceeded,
              }),
            },
            {
              guard: 'checkInUse',
              target: 'conflict',
              actions: assign({ usage: ({ context }) => currentOutcome(context)?.usage?.processes ?? [] }),
            },
            // An unanswered usage check (usage null) does not block the stream.
            { guard: 'checkAnswered', target: 'admitted' },
          ],
        },
        /** Nothing opens; the dialog says why. */
        refused: {
          tags: ['refused'],
          entry: 'dropChecks',
          on: { ...QUEUE_ONLY, 'opener.dismiss': { target: 'idle' }, 'opener.cancel': { target: 'idle' } },
        },
        /** §2 §8 "Camera Conflict": kill the other processes, or cancel. */
        conflict: {
          entry: 'dropChecks',
          on: {
            ...QUEUE_ONLY,
            'opener.kill': { target: 'killing' },
            'opener.cancel': { target: 'idle' },
          },
        },
        killing: {
          tags: ['busy'],
          invoke: {
            id: 'forceKill',
            src: 'forceKill',
            input: ({ context }) => ({
              deviceId: context.request!.deviceId,
              cameraId: context.request!.camera.camera_id,
            }),
            onDone: { target: 'killed', actions: assign({ killResult: ({ event }) => event.output }) },
            onError: { target: 'killed', actions: assign({ killResult: false }) },
          },
        },
        /** §4 "the result is true or false": shown, then the stream opens. */
        killed: {
          entry: 'dropChecks',
          on: {
            ...QUEUE_ONLY,
            'opener.continue': { target: 'admitted' },
            'opener.cancel': { target: 'idle' },
          },
        },
        admitted: {
          always: [
            { guard: 'wantsResolution', target: 'loadingResolutions' },
            { target: 'idle', actions: { type: 'openStream', params: { resolution: null } } },
          ],
        },
        loadingResolutions: {
          tags: ['busy'],
          invoke: {
            id: 'loadResolutions',
            src: 'loadResolutions',
            input: ({ context }) => ({
              deviceId: context.request!.deviceId,
              cameraId: context.request!.camera.camera_id,
            }),
            onDone: {
              target: 'choosingResolution',
              actions: assign({ resolutions: ({ event }) => event.output }),
            },
            // No list: open with the device's default.
            onError: { target: 'idle', actions: { type: 'openStream', params: { resolution: null } } },
          },
        },
        /** §3 resolution options, labelled "format Resolution: WxH FPS: n". */
        choosingResolution: {
          entry: 'dropChecks',
          on: {
            ...QUEUE_ONLY,
            'opener.resolution': {
              target: 'idle',
              actions: {
                type: 'openStream',
                params: ({ event }) => ({ resolution: event.resolution }),
              },
            },
            'opener.cancel': { target: 'idle' },
          },
        },
      },
    },
    layout: {
      initial: 'unloaded',
      on: {
        'streams.reset': { target: '.unloaded', actions: 'closeAll' },
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
            onDone: {
              target: 'ready',
              actions: { type: 'restoreStreams', params: ({ event }) => event.output },
            },
            // Start empty; the next change saves over whatever the server had.
            onError: { target: 'ready' },
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
                onDone: [{ guard: 'dirty', target: 'pending' }, { target: 'saved' }],
                onError: [
                  { guard: 'dirty', target: 'pending' },
                  { target: 'saved', actions: 'emitSaveFailed' },
                ],
              },
              on: { 'layout.changed': { actions: 'markDirty' } },
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
