/**
 * The camera opener (invoked by the camera grid, id 'opener') — spec §2 "Camera control page" (camera
 * chooser dialog with photos when one physical camera matches on several devices; camera-conflict dialog
 * when a camera is in use), §3 resolution options, §4 "Stream slots: a stream quota is available or not",
 * "Camera use: if the camera is in use, offer to kill the other processes; the result is true or false",
 * §5 "Opening a camera stream requires the device to be connected", §8 "Device Warning", "Camera Conflict".
 *
 * One request at a time (further `opener.request`s queue): device connected? (else `opener.deviceWarning`
 * to the grid, which shows the notice) → `choosingCamera` when the camera's unique_id is on several
 * connected devices (photos from getOneFrameFromPhysicalCamera; pick or cancel) → `checking`: the request's
 * check (`checkRequest`: usage/check_stream_limit with numOfCameras = the device's streams + 1, and
 * check-camera-usage, both at once) → quota refused → `refused`, nothing opens; camera in use → `conflict`:
 * kill → `killing` (force-kill-stream) → `killed` shows true/false → continue; or cancel →
 * `choosingResolution` when asked for (get-supported-resolutions) → `opener.admitted` to the grid, which
 * spawns the stream on a page with room.
 *
 * Checks run ahead: every queued request that needs no chooser gets its check at once (a spawned
 * `checkRequest`, numOfCameras counting the streams and requests before it on its device), so twelve clicks
 * are checked together and each opens as soon as the ones before it did. A check whose count no longer
 * holds (a request before it was refused or cancelled, a stream closed) is run again; a dialog drops the
 * checks made ahead (they are made again once it closes), so no answer is older than the dialogs before
 * it. The decisions are the pure functions of openerChecks.ts.
 *
 * What the opener knows of the grid comes from the grid: `device.status` / `device.cameras` (forwarded),
 * `opener.streams` (streams per device after each change, and how many admissions the grid had taken);
 * admissions the grid has not taken yet count as streams. Views read it through selectors.ts
 * (`openerToView`) and send the dialog events to this actor.
 */
import {
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  setup,
  type AnyActorRef,
  type EventObject,
} from 'xstate';
import type { CommandReply, DeviceCamera, ResolutionOption } from '../../src/protocol/commands';
import type { DeviceCamerasReport, DeviceStatusReport } from '../devices/deviceConnection.machine';
import {
  candidatesFor,
  checksWantedAhead,
  keepChecks,
  numOfCamerasNow,
  planChecks,
  stepAfterCheck,
  withOutcome,
  type CameraCandidate,
  type KnownDevice,
  type OpenerCounts,
  type OpenRequest,
  type RequestCheck,
  type RequestCheckInput,
  type RequestCheckOutcome,
} from './openerChecks';

export type {
  CameraCandidate,
  KnownDevice,
  OpenRequest,
  RequestCheck,
  RequestCheckInput,
  RequestCheckOutcome,
} from './openerChecks';

/** §8 texts of the opener. */
export const OPENER_TEXTS = {
  quotaExceeded: 'Stream quota exceeded',
} as const;

/** A request the opener let through: the grid opens it (with the chosen resolution, or the request's). */
export interface AdmittedRequest {
  /** Admission sequence number (the grid reports the last one it took in `opener.streams`). */
  seq: number;
  deviceId: string;
  camera: DeviceCamera;
  resolution: ResolutionOption | null;
}

/** What the opener tells the grid (its `reportTo`). */
export type OpenerReport =
  | { type: 'opener.admitted'; request: AdmittedRequest }
  /** §5 §8 "Device Warning": the request's device is not connected; nothing opens. */
  | { type: 'opener.deviceWarning' };

export interface OpenerContext {
  /** The grid (admissions and warnings go there); null in tests of the opener alone. */
  reportTo: AnyActorRef | null;
  devices: Record<string, KnownDevice>;
  /** Streams per device, as the grid last reported them. */
  streams: Record<string, number>;
  /** Admissions the grid has not taken yet (they count as streams). */
  unacked: AdmittedRequest[];
  /** Admissions so far (for the next seq). */
  admitted: number;
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
}

export interface OpenerInput {
  reportTo?: AnyActorRef | null;
}

export type OpenerEvent =
  /** A camera to open (from the grid: `stream.open`, or `stream.openIp` resolved to its device). */
  | { type: 'opener.request'; request: Omit<OpenRequest, 'id'> }
  /** The grid's streams per device after a change, and the last admission it took. */
  | { type: 'opener.streams'; streams: Record<string, number>; admitted: number }
  /** A request's check answered (from the spawned `checkRequest`). */
  | ({ type: 'opener.checked'; checkId: string; requestId: number } & RequestCheckOutcome)
  | { type: 'opener.pick'; deviceId: string }
  | { type: 'opener.kill' }
  | { type: 'opener.continue' }
  | { type: 'opener.resolution'; resolution: ResolutionOption | null }
  | { type: 'opener.cancel' }
  | { type: 'opener.dismiss' }
  /** Sign-out: drop the queue and every check. */
  | { type: 'streams.reset' }
  | DeviceStatusReport
  | DeviceCamerasReport;

/**
 * While a dialog is open, new requests only queue: the checks made ahead wait until it closes (a dialog
 * can take minutes, and its outcome changes the counts).
 */
const QUEUE_ONLY = { 'opener.request': { actions: 'enqueue' } } as const;

const notProvided = (name: string): never => {
  throw new Error(`opener: actor '${name}' is not provided`);
};

/** The counts the check functions read: reported streams plus admissions not yet taken. */
function countsOf(context: OpenerContext): OpenerCounts {
  return {
    streams: (deviceId) =>
      (context.streams[deviceId] ?? 0) + context.unacked.filter((a) => a.deviceId === deviceId).length,
    request: context.request,
    queue: context.queue,
  };
}

/** The current request's check outcome, when answered and still valid. */
function currentOutcome(context: OpenerContext): RequestCheckOutcome | null {
  return (context.request && context.checks[context.request.id]?.outcome) ?? null;
}

/** The opener's effects, named: the grid's `.provide()` hands them on (cameraGrid.machine.ts). */
export const openerActors = {
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
};

export const openerMachine = setup({
  types: {
    context: {} as OpenerContext,
    events: {} as OpenerEvent,
    input: {} as OpenerInput,
  },
  actors: openerActors,
  actions: {
    enqueue: assign({
      queue: ({ context, event }) =>
        event.type === 'opener.request'
          ? [...context.queue, { ...event.request, id: context.requested + 1 }]
          : context.queue,
      requested: ({ context, event }) =>
        event.type === 'opener.request' ? context.requested + 1 : context.requested,
    }),
    /**
     * Checks ahead: a check for every queued request that needs no dialog first and has none for its
     * present count; a check whose count changed is stopped and made again.
     */
    checkAhead: enqueueActions(({ context, enqueue }) => {
      const plan = planChecks(
        context.checks,
        context.checked,
        checksWantedAhead(context.devices, countsOf(context)),
      );
      for (const id of plan.stop) enqueue.stopChild(id);
      for (const input of plan.start) enqueue.spawnChild('checkRequest', { id: input.checkId, input });
      if (plan.checked !== context.checked) enqueue.assign({ checked: plan.checked, checks: plan.checks });
    }),
    /** The current request's check, made now unless one holds for its device, camera and count. */
    checkCurrent: enqueueActions(({ context, enqueue }) => {
      const request = context.request;
      if (!request) return;
      const plan = planChecks(context.checks, context.checked, [
        { request, numOfCameras: numOfCamerasNow(countsOf(context)) },
      ]);
      for (const id of plan.stop) enqueue.stopChild(id);
      for (const input of plan.start) enqueue.spawnChild('checkRequest', { id: input.checkId, input });
      if (plan.checked !== context.checked) enqueue.assign({ checked: plan.checked, checks: plan.checks });
    }),
    /** Keeps a check's answer (only from the check that is current for its request). */
    keepCheckOutcome: assign({
      checks: ({ context, event }) =>
        event.type === 'opener.checked' ? withOutcome(context.checks, event) : context.checks,
    }),
    /** A dialog opens: the checks made ahead are dropped (made again once the opener is free). */
    dropChecks: enqueueActions(({ context, enqueue }) => {
      const kept = keepChecks(context.checks, new Set());
      for (const id of kept.stop) enqueue.stopChild(id);
      if (kept.stop.length) enqueue.assign({ checks: kept.checks });
    }),
    /** Drops the checks of requests that are neither current nor queued (done, cancelled, reset). */
    pruneChecks: enqueueActions(({ context, enqueue }) => {
      const keep = new Set([
        ...context.queue.map((r) => r.id),
        ...(context.request ? [context.request.id] : []),
      ]);
      const kept = keepChecks(context.checks, keep);
      for (const id of kept.stop) enqueue.stopChild(id);
      if (kept.stop.length) enqueue.assign({ checks: kept.checks });
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
    clearQueue: assign({ queue: [], request: null, unacked: [], streams: {} }),
    findCandidates: assign({
      candidates: ({ context }) => (context.request ? candidatesFor(context.devices, context.request) : []),
    }),
    pickCandidate: assign({
      request: ({ context, event }) => {
        if (event.type !== 'opener.pick' || !context.request) return context.request;
        const c = context.candidates.find((x) => x.deviceId === event.deviceId);
        return c ? { ...context.request, deviceId: c.deviceId, camera: c.camera } : context.request;
      },
    }),
    keepRefusal: assign({
      refusal: ({ context }) => currentOutcome(context)?.quotaError ?? OPENER_TEXTS.quotaExceeded,
    }),
    keepUsage: assign({ usage: ({ context }) => currentOutcome(context)?.usage?.processes ?? [] }),
    trackDevice: assign({
      devices: ({ context, event }) => {
        if (event.type !== 'device.status') return context.devices;
        const prev = context.devices[event.deviceId];
        return {
          ...context.devices,
          [event.deviceId]: { label: event.label, status: event.status, cameras: prev?.cameras ?? [] },
        };
      },
    }),
    trackCameras: assign({
      devices: ({ context, event }) => {
        if (event.type !== 'device.cameras') return context.devices;
        const prev = context.devices[event.deviceId];
        return {
          ...context.devices,
          [event.deviceId]: {
            label: prev?.label ?? event.deviceId,
            status: prev?.status ?? 'open',
            cameras: event.cameras,
          },
        };
      },
    }),
    /** The grid's counts; the admissions it took no longer count twice. */
    trackStreams: assign(({ context, event }) =>
      event.type === 'opener.streams'
        ? { streams: event.streams, unacked: context.unacked.filter((a) => a.seq > event.admitted) }
        : {},
    ),
    /** §5 §8 "Device Warning": the grid shows the notice. */
    warnDevice: ({ context }) =>
      context.reportTo?.send({ type: 'opener.deviceWarning' } satisfies OpenerReport),
    /** The request passed: the grid opens its stream (the chosen resolution, else the request's). */
    admit: enqueueActions(({ context, enqueue }, params: { resolution: ResolutionOption | null }) => {
      const request = context.request;
      if (!request) return;
      const admitted: AdmittedRequest = {
        seq: context.admitted + 1,
        deviceId: request.deviceId,
        camera: request.camera,
        resolution: params.resolution ?? request.resolution,
      };
      enqueue.assign({ admitted: admitted.seq, unacked: [...context.unacked, admitted] });
      const reportTo = context.reportTo;
      if (reportTo)
        enqueue.sendTo(reportTo, { type: 'opener.admitted', request: admitted } satisfies OpenerReport);
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
    checkRefused: ({ context }) => stepAfterCheck(currentOutcome(context)) === 'refused',
    /** …: the camera is in use (§4 Camera use). */
    checkInUse: ({ context }) => stepAfterCheck(currentOutcome(context)) === 'conflict',
    /** …: neither (an unanswered usage check does not block the stream). */
    checkPassed: ({ context }) => stepAfterCheck(currentOutcome(context)) === 'admitted',
    wantsResolution: ({ context }) => !!context.request?.chooseResolution,
  },
}).createMachine({
  id: 'opener',
  initial: 'idle',
  context: ({ input }) => ({
    reportTo: input?.reportTo ?? null,
    devices: {},
    streams: {},
    unacked: [],
    admitted: 0,
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
  }),
  on: {
    'opener.request': { actions: ['enqueue', 'checkAhead'] },
    'opener.checked': { actions: 'keepCheckOutcome' },
    'opener.streams': { actions: 'trackStreams' },
    'device.status': { actions: 'trackDevice' },
    'device.cameras': { actions: 'trackCameras' },
    'streams.reset': { target: '.idle', actions: 'clearQueue' },
  },
  states: {
    idle: {
      entry: ['clearRequest', 'pruneChecks', 'checkAhead'],
      always: { guard: 'queued', target: 'deciding', actions: 'takeNext' },
    },
    /** Which dialog, if any, the request needs first. */
    deciding: {
      always: [
        { guard: 'deviceConnected', target: 'routing', actions: 'findCandidates' },
        { target: 'idle', actions: 'warnDevice' },
      ],
    },
    routing: {
      always: [{ guard: 'severalCandidates', target: 'choosingCamera' }, { target: 'checking' }],
    },
    /** §2 camera chooser: one physical camera on several devices; a photo per candidate. */
    choosingCamera: {
      tags: ['dialog'],
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
        { guard: 'checkRefused', target: 'refused', actions: 'keepRefusal' },
        { guard: 'checkInUse', target: 'conflict', actions: 'keepUsage' },
        { guard: 'checkPassed', target: 'admitted' },
      ],
    },
    /** Nothing opens; the dialog says why. */
    refused: {
      tags: ['dialog'],
      entry: 'dropChecks',
      on: { ...QUEUE_ONLY, 'opener.dismiss': { target: 'idle' }, 'opener.cancel': { target: 'idle' } },
    },
    /** §2 §8 "Camera Conflict": kill the other processes, or cancel. */
    conflict: {
      tags: ['dialog'],
      entry: 'dropChecks',
      on: {
        ...QUEUE_ONLY,
        'opener.kill': { target: 'killing' },
        'opener.cancel': { target: 'idle' },
      },
    },
    killing: {
      tags: ['busy', 'dialog'],
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
      tags: ['dialog'],
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
        { target: 'idle', actions: { type: 'admit', params: { resolution: null } } },
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
        onError: { target: 'idle', actions: { type: 'admit', params: { resolution: null } } },
      },
    },
    /** §3 resolution options, labelled "format Resolution: WxH FPS: n". */
    choosingResolution: {
      tags: ['dialog'],
      entry: 'dropChecks',
      on: {
        ...QUEUE_ONLY,
        'opener.resolution': {
          target: 'idle',
          actions: { type: 'admit', params: ({ event }) => ({ resolution: event.resolution }) },
        },
        'opener.cancel': { target: 'idle' },
      },
    },
  },
});
