/**
 * The camera grid under test (tests/unit/cameras/cameraGrid*.test.ts): the real grid, opener and stream
 * machines with fake services, a simulated clock, and a log of everything observable.
 */
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
  type CameraCandidate,
  type LoadedLayout,
  type RequestCheckInput,
  type RequestCheckOutcome,
} from '../../../machines/cameras/cameraGrid.machine';
import { openerMachine } from '../../../machines/cameras/opener.machine';
import { connectivityMachine } from '../../../machines/signalling/connectivity.machine';
import type { DeviceConnectionStatus } from '../../../machines/devices/deviceConnection.machine';
import type { NoticeEmitted } from '../../../machines/notifications/emitted';
import { streamMachine } from '../../../machines/cameras/stream.machine';
import type { DeviceCamera, ResolutionOption } from '../../../src/protocol/commands';
import type { SavedStream } from '../../../src/protocol/rest';
import { makeDevice } from '../machines/fixtures';
import { fakeStreamSession } from './fakeSession';

export const dev1 = makeDevice(1);
export const dev2 = makeDevice(2);
export const vga: ResolutionOption = { pixel_format: 'I420', width: 640, height: 480, fps: 30 };

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
  /** The error GET camera-layout fails with on its `attempt`-th call (1-based); undefined: it answers `layout`. */
  loadError?: (attempt: number) => unknown;
  /** The error PUT camera-layout fails with on its `attempt`-th call (1-based); undefined: it succeeds. */
  saveError?: (attempt: number) => unknown;
}

/** An error as the console's REST transport gives it (ApiRequestError: code, message, HTTP status). */
export const httpError = (status: number, code = 'http_error') =>
  Object.assign(new Error(`Request failed (${status}).`), { code, status });

/** A `checkRequest` the fake made, with its answer (also for held checks). */
interface FakeCheck {
  input: RequestCheckInput;
  answer: (outcome?: Partial<RequestCheckOutcome>) => void;
  stopped: boolean;
}

/** The grid with fake services and real stream actors; everything observable is recorded. */
export function startGrid(fakes: Fakes = {}) {
  const clock = new SimulatedClock();
  const session = fakeStreamSession({ resumes: () => fakes.resumes ?? true });
  const log = {
    /** Sessions opened (negotiations), closed, held and resumed (fakeSession.ts). */
    ...session.log,
    /** GET camera-layout calls made (also those that failed). */
    loads: 0,
    /** Every PUT camera-layout sent (also those that failed). */
    saved: [] as SavedStream[][],
    /** The layouts the server took, in order (its last one is what a reload shows). */
    stored: [] as SavedStream[][],
    quota: [] as Array<{ deviceId: string; numOfCameras: number }>,
    checks: [] as FakeCheck[],
    killed: 0,
    photos: [] as CameraCandidate[][],
    poolEvents: [] as unknown[],
  };
  const stream = streamMachine.provide({
    actors: {
      streamSession: session.actor,
      recordStream: fromCallback(() => () => undefined),
    },
  });
  const machine = cameraGridMachine.provide({
    actors: {
      stream,
      loadLayout: fromPromise<LoadedLayout, void>(async () => {
        log.loads++;
        const error = fakes.loadError?.(log.loads);
        if (error) throw error;
        return fakes.layout ?? { streams: [], devices: [], ipCameras: [] };
      }),
      saveLayout: fromPromise<void, { streams: SavedStream[] }>(async ({ input }) => {
        log.saved.push(input.streams);
        const error = fakes.saveError?.(log.saved.length);
        if (error) throw error;
        log.stored.push(input.streams);
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
  // The grid under a root with a stand-in for the device pool (systemId 'devicePool') and the real
  // connectivity machine (systemId 'connectivity'), told of the server's links by the test (`server`).
  const root = createActor(
    setup({
      actors: {
        grid: machine,
        pool: fromCallback(({ receive }) => {
          receive((e) => log.poolEvents.push(e));
        }),
        connectivity: connectivityMachine.provide({
          actors: { watchConnectivity: fromCallback(() => () => undefined) },
        }),
      },
    }).createMachine({
      invoke: [
        { src: 'pool', systemId: 'devicePool' },
        { src: 'connectivity', id: 'connectivity', systemId: 'connectivity' },
        { src: 'grid', id: 'grid', systemId: 'streams', input: { idPrefix: 'web-t' } },
      ],
    }),
    { clock },
  );
  const notices: NoticeEmitted[] = [];
  root.start();
  const grid = root.system.get('streams') as ActorRefFrom<typeof cameraGridMachine>;
  const connectivity = root.system.get('connectivity') as ActorRefFrom<typeof connectivityMachine>;
  connectivity.send({ type: 'connectivity.start' });
  /** The server's links (signalling and the realtime socket) as the connectivity watcher reports them. */
  const server = (up: boolean) =>
    connectivity.send({ type: up ? 'connectivity.server.up' : 'connectivity.server.down' });
  grid.on('notice', (n) => notices.push(n));
  const device = (d: typeof dev1, status: DeviceConnectionStatus, cameras?: DeviceCamera[]) => {
    grid.send({ type: 'device.status', deviceId: d.device_id, label: d.label, status });
    if (cameras) grid.send({ type: 'device.cameras', deviceId: d.device_id, cameras });
  };
  const open = (camera: DeviceCamera, extra: { chooseResolution?: boolean } = {}) =>
    grid.send({ type: 'stream.open', deviceId: camera.device_id, camera, ...extra });
  const streamOf = (i: number) => grid.getSnapshot().context.entries[i]!.ref as AnyActorRef;
  const stateOf = (i: number) => JSON.stringify(streamOf(i).getSnapshot().value);
  return { grid, clock, log, notices, device, open, streamOf, stateOf, server, end: session.end };
}

export type Grid = ReturnType<typeof startGrid>['grid'];
/** The grid's invoked opener (the opening flow). */
export const openerRef = (grid: Grid) => grid.getSnapshot().children.opener!;
/** The opener's state (its dialog, or idle). */
export const opener = (grid: Grid) => openerRef(grid).getSnapshot().value;
/** What the opener holds (candidates, photos, usage, kill result, refusal, the request, its checks). */
export const openerContext = (grid: Grid) => openerRef(grid).getSnapshot().context;
