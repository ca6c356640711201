import { describe, expect, it } from 'vitest';
import {
  createActor,
  fromCallback,
  fromPromise,
  setup,
  SimulatedClock,
  type ActorRefFrom,
  type AnyActorRef,
  type EventObject,
} from 'xstate';
import {
  cameraGridMachine,
  GRID_TEXTS,
  LAYOUT_SAVE_DEBOUNCE_MS,
  type CameraCandidate,
  type LoadedLayout,
  type RequestCheckInput,
  type RequestCheckOutcome,
} from '../../../machines/cameras/cameraGrid.machine';
import { openerMachine } from '../../../machines/cameras/opener.machine';
import type { DeviceConnectionStatus } from '../../../machines/devices/deviceConnection.machine';
import type { NoticeEmitted } from '../../../machines/notifications/emitted';
import {
  HIDE_GRACE_MS,
  HOLD_MAX_MS,
  streamMachine,
  STREAM_RETRY_BASE_MS,
  type StartedStream,
  type StartStreamInput,
} from '../../../machines/cameras/stream.machine';
import type { DeviceCamera, ResolutionOption } from '../../../src/protocol/commands';
import type { SavedStream } from '../../../src/protocol/rest';
import { flush, makeCamera, makeDevice } from '../machines/fixtures';

const dev1 = makeDevice(1);
const dev2 = makeDevice(2);
const fakeMedia = {} as MediaStream;
const vga: ResolutionOption = { pixel_format: 'I420', width: 640, height: 480, fps: 30 };

interface Fakes {
  quota?: boolean;
  inUse?: boolean;
  killResult?: boolean;
  layout?: LoadedLayout;
  resolutions?: ResolutionOption[];
  /** Checks wait until the test answers them (log.checks[i].answer()). */
  holdChecks?: boolean;
  /** What resume-stream answers for a held stream (default true). */
  resumes?: boolean;
}

/** A `checkRequest` the fake made, with its answer (also for held checks). */
interface FakeCheck {
  input: RequestCheckInput;
  answer: (outcome?: Partial<RequestCheckOutcome>) => void;
  stopped: boolean;
}

/** The grid with fake services and real stream actors; everything observable is recorded. */
function startGrid(fakes: Fakes = {}) {
  const clock = new SimulatedClock();
  const log = {
    started: [] as StartStreamInput[],
    released: [] as string[],
    saved: [] as SavedStream[][],
    quota: [] as Array<{ deviceId: string; numOfCameras: number }>,
    checks: [] as FakeCheck[],
    killed: 0,
    photos: [] as CameraCandidate[][],
    poolEvents: [] as unknown[],
    held: [] as string[],
    resumed: [] as string[],
  };
  const ended = new Map<string, (error: string) => void>();
  const stream = streamMachine.provide({
    actors: {
      startStream: fromPromise<StartedStream, StartStreamInput>(async ({ input }) => {
        log.started.push(input);
        return { mediaStream: fakeMedia, resolution: input.resolution };
      }),
      watchStream: fromCallback(({ input, sendBack }) => {
        ended.set(input.streamId, (error) => sendBack({ type: 'stream.ended', error }));
        return () => ended.delete(input.streamId);
      }),
      recordStream: fromCallback(() => () => undefined),
      pollStats: fromCallback(() => () => undefined),
      resumeStream: fromPromise<boolean, { streamId: string; deviceId: string }>(async ({ input }) => {
        log.resumed.push(input.streamId);
        return fakes.resumes ?? true;
      }),
    },
    actions: {
      releaseStream: (_, p) => log.released.push(p.streamId),
      holdStream: (_, p) => log.held.push(p.streamId),
    },
  });
  const machine = cameraGridMachine.provide({
    actors: {
      stream,
      loadLayout: fromPromise<LoadedLayout, void>(
        async () => fakes.layout ?? { streams: [], devices: [], ipCameras: [] },
      ),
      saveLayout: fromPromise<void, { streams: SavedStream[] }>(async ({ input }) => {
        log.saved.push(input.streams);
      }),
      opener: openerMachine.provide({
        actors: {
          checkRequest: fromCallback<EventObject, RequestCheckInput>(({ input, sendBack }) => {
            log.quota.push({ deviceId: input.deviceId, numOfCameras: input.numOfCameras });
            const check: FakeCheck = {
              input,
              stopped: false,
              answer: (outcome = {}) => {
                if (check.stopped) return;
                sendBack({
                  type: 'opener.checked',
                  checkId: input.checkId,
                  requestId: input.requestId,
                  quotaAvailable: fakes.quota ?? true,
                  quotaError: null,
                  usage: {
                    in_use: fakes.inUse ?? false,
                    processes: fakes.inUse ? [{ id: 'other-viewer', kind: 'stream' as const }] : [],
                  },
                  ...outcome,
                });
              },
            };
            log.checks.push(check);
            if (!fakes.holdChecks) void Promise.resolve().then(() => check.answer());
            return () => {
              check.stopped = true;
            };
          }),
          loadPhotos: fromPromise<Record<string, string | null>, { candidates: CameraCandidate[] }>(
            async ({ input }) => {
              log.photos.push(input.candidates);
              return Object.fromEntries(
                input.candidates.map((c) => [c.deviceId, `data:image/png;${c.deviceId}`]),
              );
            },
          ),
          forceKill: fromPromise<boolean, { deviceId: string; cameraId: string }>(async () => {
            log.killed++;
            return fakes.killResult ?? true;
          }),
          loadResolutions: fromPromise<ResolutionOption[], { deviceId: string; cameraId: string }>(
            async () => fakes.resolutions ?? [vga],
          ),
        },
      }),
    },
  });
  // The grid under a root with a stand-in for the device pool (systemId 'devicePool'), as in the console.
  const root = createActor(
    setup({
      actors: {
        grid: machine,
        pool: fromCallback(({ receive }) => {
          receive((e) => log.poolEvents.push(e));
        }),
      },
    }).createMachine({
      invoke: [
        { src: 'pool', systemId: 'devicePool' },
        { src: 'grid', id: 'grid', systemId: 'streams', input: { idPrefix: 'web-t' } },
      ],
    }),
    { clock },
  );
  const notices: NoticeEmitted[] = [];
  root.start();
  const grid = root.system.get('streams') as ActorRefFrom<typeof cameraGridMachine>;
  grid.on('notice', (n) => notices.push(n));
  const device = (d: typeof dev1, status: DeviceConnectionStatus, cameras?: DeviceCamera[]) => {
    grid.send({ type: 'device.status', deviceId: d.device_id, label: d.label, status });
    if (cameras) grid.send({ type: 'device.cameras', deviceId: d.device_id, cameras });
  };
  const open = (camera: DeviceCamera, extra: { chooseResolution?: boolean } = {}) =>
    grid.send({ type: 'stream.open', deviceId: camera.device_id, camera, ...extra });
  const streamOf = (i: number) => grid.getSnapshot().context.entries[i]!.ref as AnyActorRef;
  const stateOf = (i: number) => JSON.stringify(streamOf(i).getSnapshot().value);
  return { grid, clock, log, notices, device, open, streamOf, stateOf, ended };
}

type Grid = ReturnType<typeof startGrid>['grid'];
/** The grid's invoked opener (the opening flow). */
const openerRef = (grid: Grid) => grid.getSnapshot().children.opener!;
/** The opener's state (its dialog, or idle). */
const opener = (grid: Grid) => openerRef(grid).getSnapshot().value;
/** What the opener holds (candidates, photos, usage, kill result, refusal, the request, its checks). */
const openerContext = (grid: Grid) => openerRef(grid).getSnapshot().context;

describe('camera grid: pages', () => {
  it('opens the 13th camera on page 2 and shows that page; the hidden page 1 streams pause', async () => {
    const cams = Array.from({ length: 13 }, (_, i) => makeCamera(dev1.device_id, i));
    const { grid, clock, device, open, stateOf } = startGrid();
    device(dev1, 'open', cams);
    for (const c of cams.slice(0, 12)) open(c);
    await flush(20);
    expect(grid.getSnapshot().context.entries.map((e) => e.page)).toEqual(Array(12).fill(0));
    expect(grid.getSnapshot().context.page).toBe(0);
    open(cams[12]!);
    await flush(20);
    const { entries, page } = grid.getSnapshot().context;
    expect(entries).toHaveLength(13);
    expect(entries[12]!.page).toBe(1);
    expect(page).toBe(1);
    clock.increment(HIDE_GRACE_MS);
    await flush();
    expect(stateOf(0)).toBe('{"paused":"held"}');
    expect(stateOf(12)).toContain('playing');
    grid.send({ type: 'grid.page', page: 0 });
    await flush(10);
    expect(stateOf(0)).toContain('playing');
  });

  it('places a new cell in the first free spot of its page, with the §9 medium size', async () => {
    const cams = [0, 1, 2, 3].map((i) => makeCamera(dev1.device_id, i));
    const { grid, device, open } = startGrid();
    device(dev1, 'open', cams);
    for (const c of cams) open(c);
    await flush(20);
    const cells = grid.getSnapshot().context.entries.map((e) => [e.cell.x, e.cell.y, e.cell.w, e.cell.h]);
    expect(cells).toEqual([
      [0, 0, 4, 7],
      [4, 0, 4, 7],
      [8, 0, 4, 7],
      [0, 7, 4, 7],
    ]);
  });

  it('resizes a cell to a §9 size and applies drags from the view', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, device, open } = startGrid();
    device(dev1, 'open', [cam]);
    open(cam);
    await flush(10);
    const id = grid.getSnapshot().context.entries[0]!.streamId;
    grid.send({ type: 'grid.size', streamId: id, size: 'xlarge' });
    expect(grid.getSnapshot().context.entries[0]!.cell).toMatchObject({ x: 0, w: 12, h: 8 });
    grid.send({ type: 'grid.layout', cells: [{ i: id, x: 0, y: 3, w: 6, h: 6 }] });
    expect(grid.getSnapshot().context.entries[0]!.cell).toMatchObject({ x: 0, y: 3, w: 6, h: 6 });
  });
});

describe('camera grid: layout persistence', () => {
  it('saves once, LAYOUT_SAVE_DEBOUNCE_MS after the last of several quick changes', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, clock, device, open, log } = startGrid();
    grid.send({ type: 'grid.load' });
    await flush();
    device(dev1, 'open', [cam]);
    open(cam);
    await flush(10);
    const id = grid.getSnapshot().context.entries[0]!.streamId;
    clock.increment(LAYOUT_SAVE_DEBOUNCE_MS / 2);
    grid.send({ type: 'grid.size', streamId: id, size: 'large' });
    clock.increment(LAYOUT_SAVE_DEBOUNCE_MS / 2);
    grid.send({ type: 'grid.size', streamId: id, size: 'big' });
    clock.increment(LAYOUT_SAVE_DEBOUNCE_MS - 1);
    await flush();
    expect(log.saved).toHaveLength(0);
    clock.increment(1);
    await flush();
    expect(log.saved).toHaveLength(1);
    expect(log.saved[0]).toEqual([
      expect.objectContaining({
        key: `${dev1.device_id}:cam0`,
        deviceId: dev1.device_id,
        cameraId: 'cam0',
        page: 0,
        cell: expect.objectContaining({ w: 6, h: 12 }),
      }),
    ]);
  });

  it('does not save before the layout was loaded, nor when signing out', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, clock, device, open, log } = startGrid();
    device(dev1, 'open', [cam]);
    open(cam);
    await flush(10);
    clock.increment(LAYOUT_SAVE_DEBOUNCE_MS * 2);
    grid.send({ type: 'streams.reset' });
    clock.increment(LAYOUT_SAVE_DEBOUNCE_MS * 2);
    await flush();
    expect(log.saved).toEqual([]);
    expect(grid.getSnapshot().context.entries).toEqual([]);
  });

  it('reopens the saved streams on load, connecting their devices first, and plays them once connected', async () => {
    const saved: SavedStream[] = [
      {
        key: `${dev1.device_id}:cam0`,
        deviceId: dev1.device_id,
        cameraId: 'cam0',
        page: 0,
        cell: { i: 'old-1', x: 4, y: 0, w: 6, h: 6 },
      },
      {
        key: `${dev1.device_id}:cam1`,
        deviceId: dev1.device_id,
        cameraId: 'cam1',
        page: 0,
        cell: { i: 'old-2', x: 0, y: 6, w: 3, h: 6 },
        resolution: vga,
      },
      // A device the user no longer has: skipped.
      {
        key: 'dev-gone:cam0',
        deviceId: 'dev-gone',
        cameraId: 'cam0',
        page: 0,
        cell: { i: 'old-3', x: 0, y: 0, w: 4, h: 7 },
      },
    ];
    const { grid, device, log, stateOf } = startGrid({
      layout: { streams: saved, devices: [dev1], ipCameras: [] },
    });
    grid.send({ type: 'grid.load' });
    await flush(10);
    const { entries } = grid.getSnapshot().context;
    expect(entries.map((e) => [e.camera.camera_id, e.cell.x, e.cell.w])).toEqual([
      ['cam0', 4, 6],
      ['cam1', 0, 3],
    ]);
    expect(log.poolEvents).toEqual([{ type: 'device.connect', device: dev1 }]);
    expect(stateOf(0)).toBe('"waitingForDevice"');
    device(dev1, 'open', [makeCamera(dev1.device_id, 0), makeCamera(dev1.device_id, 1)]);
    await flush(10);
    expect(stateOf(0)).toContain('playing');
    expect(log.started.map((s) => s.resolution)).toEqual([null, vga]);
    expect(grid.getSnapshot().context.entries[0]!.camera.label).toBe('Camera 0');
  });
});

describe('camera grid: opening flow', () => {
  it('refuses a camera of a device that is not connected (§5 Device Warning) and opens nothing', async () => {
    const { grid, open, notices } = startGrid();
    open(makeCamera(dev1.device_id));
    await flush();
    expect(grid.getSnapshot().context.entries).toEqual([]);
    expect(notices.map((n) => n.title)).toEqual([GRID_TEXTS.deviceWarningTitle]);
  });

  it('asks the quota with the device streams + 1 and, when refused, says so and opens nothing', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, device, open, log } = startGrid({ quota: false });
    device(dev1, 'open', [cam]);
    open(cam);
    await flush();
    expect(log.quota).toEqual([{ deviceId: dev1.device_id, numOfCameras: 1 }]);
    expect(opener(grid)).toBe('refused');
    expect(openerContext(grid).refusal).toBe(GRID_TEXTS.quotaExceeded);
    expect(grid.getSnapshot().context.entries).toEqual([]);
    expect(log.started).toEqual([]);
    openerRef(grid).send({ type: 'opener.dismiss' });
    expect(opener(grid)).toBe('idle');
  });

  it('on a camera conflict kills the other processes, shows the result, then opens', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, device, open, log } = startGrid({ inUse: true, killResult: true });
    device(dev1, 'open', [cam]);
    open(cam);
    await flush();
    expect(opener(grid)).toBe('conflict');
    expect(openerContext(grid).usage).toHaveLength(1);
    openerRef(grid).send({ type: 'opener.kill' });
    await flush();
    expect(log.killed).toBe(1);
    expect(opener(grid)).toBe('killed');
    expect(openerContext(grid).killResult).toBe(true);
    expect(grid.getSnapshot().context.entries).toEqual([]);
    openerRef(grid).send({ type: 'opener.continue' });
    await flush();
    expect(grid.getSnapshot().context.entries).toHaveLength(1);
    expect(log.started).toHaveLength(1);
  });

  it('cancelling the conflict dialog opens nothing', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, device, open, log } = startGrid({ inUse: true });
    device(dev1, 'open', [cam]);
    open(cam);
    await flush();
    openerRef(grid).send({ type: 'opener.cancel' });
    await flush();
    expect(opener(grid)).toBe('idle');
    expect(log.killed).toBe(0);
    expect(grid.getSnapshot().context.entries).toEqual([]);
  });

  it('offers the chooser with a photo per device when one physical camera is on several devices', async () => {
    const onDev1 = makeCamera(dev1.device_id);
    const onDev2 = makeCamera(dev2.device_id); // same unique_id 'u-cam0'
    const { grid, device, open, log } = startGrid();
    device(dev1, 'open', [onDev1]);
    device(dev2, 'open', [onDev2]);
    open(onDev1);
    await flush();
    expect(opener(grid)).toBe('choosingCamera');
    expect(openerContext(grid).candidates.map((c) => c.deviceId)).toEqual([dev1.device_id, dev2.device_id]);
    expect(openerContext(grid).photos[dev2.device_id]).toBe(`data:image/png;${dev2.device_id}`);
    openerRef(grid).send({ type: 'opener.pick', deviceId: dev2.device_id });
    await flush();
    expect(log.quota).toEqual([{ deviceId: dev2.device_id, numOfCameras: 1 }]);
    expect(grid.getSnapshot().context.entries.map((e) => e.deviceId)).toEqual([dev2.device_id]);
  });

  it('offers the supported resolutions when asked and passes the chosen one to send-sdp', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, device, open, log } = startGrid();
    device(dev1, 'open', [cam]);
    open(cam, { chooseResolution: true });
    await flush();
    expect(opener(grid)).toBe('choosingResolution');
    openerRef(grid).send({ type: 'opener.resolution', resolution: vga });
    await flush();
    expect(log.started.map((s) => s.resolution)).toEqual([vga]);
  });

  it('queues clicks made while a dialog is open and handles them afterwards', async () => {
    const cams = [0, 1].map((i) => makeCamera(dev1.device_id, i));
    const { grid, device, open } = startGrid({ inUse: true });
    device(dev1, 'open', cams);
    open(cams[0]!);
    open(cams[1]!);
    await flush();
    openerRef(grid).send({ type: 'opener.cancel' });
    await flush();
    expect(opener(grid)).toBe('conflict');
    expect(openerContext(grid).request?.camera.camera_id).toBe('cam1');
  });
});

describe('camera grid: checks run ahead', () => {
  it('checks every queued camera at once, counting the ones before it, and opens them in click order', async () => {
    const cams = [0, 1, 2].map((i) => makeCamera(dev1.device_id, i));
    const other = makeCamera(dev2.device_id, 5);
    const { grid, device, open, log } = startGrid({ holdChecks: true });
    device(dev1, 'open', cams);
    device(dev2, 'open', [other]);
    for (const c of cams) open(c);
    open(other);
    await flush();
    // Four checks before any answer; numOfCameras counts the requests before each on its device.
    expect(log.quota).toEqual([
      { deviceId: dev1.device_id, numOfCameras: 1 },
      { deviceId: dev1.device_id, numOfCameras: 2 },
      { deviceId: dev1.device_id, numOfCameras: 3 },
      { deviceId: dev2.device_id, numOfCameras: 1 },
    ]);
    // Answers out of order: the later ones wait for the first, then all open without new checks.
    log.checks[3]!.answer();
    log.checks[2]!.answer();
    log.checks[1]!.answer();
    await flush();
    expect(grid.getSnapshot().context.entries).toEqual([]);
    log.checks[0]!.answer();
    await flush(20);
    expect(grid.getSnapshot().context.entries.map((e) => e.camera.camera_id)).toEqual([
      'cam0',
      'cam1',
      'cam2',
      other.camera_id,
    ]);
    expect(log.checks).toHaveLength(4);
    expect(openerContext(grid).checks).toEqual({});
  });

  it('checks a queued camera again when one before it was refused (its count changed)', async () => {
    const cams = [0, 1].map((i) => makeCamera(dev1.device_id, i));
    const { grid, device, open, log } = startGrid({ holdChecks: true });
    device(dev1, 'open', cams);
    open(cams[0]!);
    open(cams[1]!);
    await flush();
    log.checks[1]!.answer();
    log.checks[0]!.answer({ quotaAvailable: false });
    await flush();
    expect(opener(grid)).toBe('refused');
    // The dialog dropped the check made ahead: its answer no longer counts.
    expect(log.checks[1]!.stopped).toBe(true);
    openerRef(grid).send({ type: 'opener.dismiss' });
    await flush();
    expect(log.quota.at(-1)).toEqual({ deviceId: dev1.device_id, numOfCameras: 1 });
    log.checks.at(-1)!.answer();
    await flush(20);
    expect(grid.getSnapshot().context.entries.map((e) => e.camera.camera_id)).toEqual(['cam1']);
  });

  it('shows the refusal reason when the quota could not be checked', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, device, open, log } = startGrid({ holdChecks: true });
    device(dev1, 'open', [cam]);
    open(cam);
    await flush();
    log.checks[0]!.answer({ quotaAvailable: false, quotaError: 'Server unavailable' });
    await flush();
    expect(opener(grid)).toBe('refused');
    expect(openerContext(grid).refusal).toBe('Server unavailable');
  });

  it('opens the camera when the device did not answer the usage check', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, device, open, log } = startGrid({ holdChecks: true });
    device(dev1, 'open', [cam]);
    open(cam);
    await flush();
    log.checks[0]!.answer({ usage: null });
    await flush(20);
    expect(grid.getSnapshot().context.entries).toHaveLength(1);
  });

  it('makes no check ahead while a dialog is open, and checks the queued cameras once it closes', async () => {
    const onDev1 = makeCamera(dev1.device_id);
    const onDev2 = makeCamera(dev2.device_id); // same physical camera: the chooser
    const own = makeCamera(dev1.device_id, 3);
    const { grid, device, open, log } = startGrid({ holdChecks: true });
    device(dev1, 'open', [onDev1, own]);
    device(dev2, 'open', [onDev2]);
    open(onDev1);
    await flush();
    expect(opener(grid)).toBe('choosingCamera');
    open(own);
    await flush();
    expect(log.quota).toEqual([]);
    openerRef(grid).send({ type: 'opener.pick', deviceId: dev2.device_id });
    await flush();
    // The picked camera's own check; the queued one waits for the opener.
    expect(log.quota).toEqual([{ deviceId: dev2.device_id, numOfCameras: 1 }]);
    log.checks[0]!.answer();
    await flush(20);
    expect(log.quota.at(-1)).toEqual({ deviceId: dev1.device_id, numOfCameras: 1 });
    log.checks.at(-1)!.answer();
    await flush(20);
    expect(grid.getSnapshot().context.entries.map((e) => e.deviceId)).toEqual([
      dev2.device_id,
      dev1.device_id,
    ]);
  });

  it('stops the checks of queued cameras on sign-out', async () => {
    const cams = [0, 1].map((i) => makeCamera(dev1.device_id, i));
    const { grid, device, open, log } = startGrid({ holdChecks: true });
    device(dev1, 'open', cams);
    open(cams[0]!);
    open(cams[1]!);
    await flush();
    grid.send({ type: 'streams.reset' });
    await flush();
    expect(log.checks.map((c) => c.stopped)).toEqual([true, true]);
    expect(openerContext(grid).checks).toEqual({});
  });
});

describe('camera grid: streams recover', () => {
  it('shows Reconnecting while the device reconnects and resumes with a new negotiation', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, device, open, log, stateOf } = startGrid();
    device(dev1, 'open', [cam]);
    open(cam);
    await flush();
    const id = grid.getSnapshot().context.entries[0]!.streamId;
    device(dev1, 'reconnecting');
    await flush();
    expect(stateOf(0)).toBe('"waitingForDevice"');
    expect(log.released).toContain(id);
    device(dev1, 'open');
    await flush();
    expect(stateOf(0)).toContain('playing');
    expect(log.started.map((s) => s.streamId)).toEqual([id, id]);
  });

  it('resumes a stream the agent closed (stream.status) after the back-off', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, clock, device, open, log, stateOf, ended } = startGrid();
    device(dev1, 'open', [cam]);
    open(cam);
    await flush();
    const id = grid.getSnapshot().context.entries[0]!.streamId;
    ended.get(id)!('The device closed the stream.');
    await flush();
    expect(stateOf(0)).toBe('"retrying"');
    clock.increment(STREAM_RETRY_BASE_MS);
    await flush();
    expect(stateOf(0)).toContain('playing');
    expect(log.started).toHaveLength(2);
  });

  it('holds a cell hidden for a second (pause-stream) and resumes it on the same connection', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, clock, device, open, log, streamOf, stateOf } = startGrid();
    device(dev1, 'open', [cam]);
    open(cam);
    await flush();
    const id = grid.getSnapshot().context.entries[0]!.streamId;
    streamOf(0).send({ type: 'stream.view', viewer: 'cell', visible: false });
    clock.increment(HIDE_GRACE_MS - 1);
    expect(stateOf(0)).toContain('playing');
    clock.increment(1);
    expect(stateOf(0)).toBe('{"paused":"held"}');
    expect(log.held).toEqual([id]);
    expect(log.released).not.toContain(id);
    streamOf(0).send({ type: 'stream.view', viewer: 'cell', visible: true });
    await flush();
    expect(stateOf(0)).toContain('playing');
    expect(log.resumed).toEqual([id]);
    expect(log.started).toHaveLength(1); // no new negotiation
  });

  it('negotiates anew when the agent no longer has the held stream', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, clock, device, open, log, streamOf, stateOf } = startGrid({ resumes: false });
    device(dev1, 'open', [cam]);
    open(cam);
    await flush();
    streamOf(0).send({ type: 'stream.view', viewer: 'cell', visible: false });
    clock.increment(HIDE_GRACE_MS);
    streamOf(0).send({ type: 'stream.view', viewer: 'cell', visible: true });
    await flush();
    expect(stateOf(0)).toContain('playing');
    expect(log.started).toHaveLength(2);
    expect(grid.getSnapshot().context.entries).toHaveLength(1);
  });

  it('releases a stream held for HOLD_MAX_MS; seen again, it negotiates anew', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, clock, device, open, log, streamOf, stateOf } = startGrid();
    device(dev1, 'open', [cam]);
    open(cam);
    await flush();
    const id = grid.getSnapshot().context.entries[0]!.streamId;
    streamOf(0).send({ type: 'stream.view', viewer: 'cell', visible: false });
    clock.increment(HIDE_GRACE_MS);
    clock.increment(HOLD_MAX_MS);
    expect(stateOf(0)).toBe('{"paused":"released"}');
    expect(log.released).toContain(id);
    streamOf(0).send({ type: 'stream.view', viewer: 'cell', visible: true });
    await flush();
    expect(stateOf(0)).toContain('playing');
    expect(log.resumed).toEqual([]);
    expect(log.started).toHaveLength(2);
  });

  it('releases every stream (also held ones) on sign-out', async () => {
    const cams = [0, 1].map((i) => makeCamera(dev1.device_id, i));
    const { grid, clock, device, open, log, streamOf } = startGrid();
    device(dev1, 'open', cams);
    for (const c of cams) open(c);
    await flush(20);
    const ids = grid.getSnapshot().context.entries.map((e) => e.streamId);
    streamOf(1).send({ type: 'stream.view', viewer: 'cell', visible: false });
    clock.increment(HIDE_GRACE_MS);
    grid.send({ type: 'streams.reset' });
    await flush();
    expect(ids.every((id) => log.released.includes(id))).toBe(true);
    expect(grid.getSnapshot().context.entries).toEqual([]);
  });

  it('fails the streams of a device the user disconnected', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, device, open, stateOf } = startGrid();
    device(dev1, 'open', [cam]);
    open(cam);
    await flush();
    device(dev1, 'closed');
    expect(stateOf(0)).toBe('"failed"');
    expect(grid.getSnapshot().context.entries[0]!.ref.getSnapshot().context.error).toBe(
      'Device disconnected',
    );
  });
});

describe('camera grid: stream modal', () => {
  it('shows a stream in the modal, minimises with the notice, and closes', async () => {
    const cam = makeCamera(dev1.device_id);
    const { grid, device, open, streamOf } = startGrid();
    device(dev1, 'open', [cam]);
    open(cam);
    await flush();
    const id = grid.getSnapshot().context.entries[0]!.streamId;
    grid.send({ type: 'modal.open', streamId: id });
    expect(grid.getSnapshot().matches({ modal: 'open' })).toBe(true);
    expect(streamOf(0).getSnapshot().context.modalVisible).toBe(true);
    grid.send({ type: 'modal.minimize' });
    expect(grid.getSnapshot().matches({ modal: { minimized: 'notice' } })).toBe(true);
    grid.send({ type: 'modal.ack' });
    expect(grid.getSnapshot().matches({ modal: { minimized: 'quiet' } })).toBe(true);
    grid.send({ type: 'modal.close' });
    expect(grid.getSnapshot().matches({ modal: 'closed' })).toBe(true);
    expect(streamOf(0).getSnapshot().context.modalVisible).toBe(false);
  });
});
