import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import {
  cameraGridMachine,
  type CameraCandidate,
  type LoadedLayout,
  type RequestCheckInput,
  type RequestCheckOutcome,
} from '../../../machines/cameras/cameraGrid.machine';
import {
  streamMachine,
  type StartedStream,
  type StartStreamInput,
} from '../../../machines/cameras/stream.machine';
import type { DeviceCamera, ResolutionOption } from '../../../src/protocol/commands';
import type { SavedStream } from '../../../src/protocol/rest';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof cameraGridMachine>;

const cam = (deviceId: string): DeviceCamera => ({
  id: `${deviceId}-cam0`,
  camera_id: 'cam0',
  uniqueCameraId: `${deviceId}-cam0`,
  unique_id: 'u-cam0', // the same physical camera on both devices: the chooser
  name: 'Camera 0',
  label: 'Camera 0',
  device_id: deviceId,
  camera_type: 'physical',
});
const vga: ResolutionOption = { pixel_format: 'I420', width: 640, height: 480, fps: 30 };
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
const fail = (id: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error('failed') }) as EventObject;

/**
 * Sample events per state, pruned so the graph stays small: devices come up one after the other (dev-1,
 * then — before any stream — dev-2 with the same physical camera, which makes the chooser reachable), a
 * camera is opened only while the opener is idle with nothing queued (queueing has a unit test), the
 * modal is used only while the opener is idle.
 */
function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const first = s.context.entries[0]?.streamId;
  const d = s.context.devices;
  const openerIdle = (s.value as { opener: string }).opener === 'idle';
  switch (type) {
    case 'device.status': {
      if (!d['dev-1']) return [{ type, deviceId: 'dev-1', label: 'Device 1', status: 'open' } as EventObject];
      if (!d['dev-2'] && s.context.entries.length === 0 && openerIdle) {
        return [{ type, deviceId: 'dev-2', label: 'Device 2', status: 'open' } as EventObject];
      }
      return [];
    }
    case 'device.cameras':
      return Object.entries(d)
        .filter(([, x]) => x.status === 'open' && x.cameras.length === 0)
        .map(([deviceId]) => ({ type, deviceId, cameras: [cam(deviceId)] }) as EventObject);
    case 'stream.open':
      return openerIdle && s.context.queue.length === 0 && s.context.entries.length < 2
        ? [
            { type, deviceId: 'dev-1', camera: cam('dev-1') } as EventObject,
            { type, deviceId: 'dev-1', camera: cam('dev-1'), chooseResolution: true } as EventObject,
          ]
        : [];
    case 'modal.open':
      return first && openerIdle ? [{ type, streamId: first } as EventObject] : [];
    case 'modal.close':
    case 'modal.minimize':
    case 'modal.restore':
    case 'modal.ack':
      return openerIdle ? [{ type }] : [];
    case 'opener.pick':
      return [{ type, deviceId: 'dev-2' } as EventObject];
    case 'opener.resolution':
      return [{ type, resolution: vga } as EventObject];
    case 'grid.size':
      return first && openerIdle ? [{ type, streamId: first, size: 'large' } as EventObject] : [];
    case 'streams.reset':
      return openerIdle ? [{ type }] : [];
    // Covered by unit tests (they need running stream actors or view input); kept out of the graph.
    case 'stream.close':
    case 'stream.closed':
    case 'stream.openIp':
    case 'grid.page':
    case 'grid.layout':
    case 'layout.changed':
      return [];
    case 'xstate.done.actor.loadLayout':
      return [done('loadLayout', { streams: [], devices: [], ipCameras: [] })];
    case 'opener.checked': {
      // The answer of the current request's check (checks ahead need queued requests: unit tests).
      const request = s.context.request;
      const check = request && s.context.checks[request.id];
      if (!check || check.outcome) return [];
      const answer = (
        outcome: Omit<RequestCheckOutcome, 'usage'> & { usage: RequestCheckOutcome['usage'] },
      ) => ({ type, checkId: check.checkId, requestId: request.id, ...outcome }) as EventObject;
      const free = { in_use: false, processes: [] };
      return [
        answer({ quotaAvailable: true, quotaError: null, usage: free }),
        answer({
          quotaAvailable: true,
          quotaError: null,
          usage: { in_use: true, processes: [{ id: 'x', kind: 'stream' }] },
        }),
        answer({ quotaAvailable: true, quotaError: null, usage: null }),
        answer({ quotaAvailable: false, quotaError: null, usage: free }),
        answer({ quotaAvailable: false, quotaError: 'Server unavailable', usage: null }),
      ];
    }
    case 'xstate.done.actor.forceKill':
      return [done('forceKill', true), done('forceKill', false)];
    case 'xstate.done.actor.loadResolutions':
      return [done('loadResolutions', [vga])];
    case 'xstate.done.actor.loadPhotos':
      return [done('loadPhotos', { 'dev-1': null, 'dev-2': 'data:image/png;base64,' })];
    case 'xstate.done.actor.saveLayout':
      return [done('saveLayout', undefined)];
    default:
      return type.startsWith('xstate.error.actor.')
        ? [fail(type.slice('xstate.error.actor.'.length))]
        : undefined;
  }
}

/** Region states plus the context the guards read (devices, streams count, queue, dirty). */
const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    Object.entries(s.context.devices)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([id, d]) => [id, d.status, d.cameras.length]),
    Math.min(s.context.entries.length, 2),
    s.context.queue.length,
    s.context.dirty,
    !!s.context.request?.chooseResolution,
  ]);

const model = createMachineTestModel(cameraGridMachine, {
  events: eventsFor,
  key,
  input: { idPrefix: 'web-m' },
});

function start(driver: Driver) {
  return createActor(
    cameraGridMachine.provide({
      actors: {
        stream: streamMachine.provide({
          actors: {
            startStream: fromPromise<StartedStream, StartStreamInput>(() => new Promise(() => undefined)),
            watchStream: fromCallback(() => () => undefined),
          },
        }),
        loadLayout: driver.promise<LoadedLayout, void>('loadLayout'),
        saveLayout: driver.promise<void, { streams: SavedStream[] }>('saveLayout'),
        // Its answers are the path's `opener.checked` events.
        checkRequest: driver.callback<EventObject, RequestCheckInput>('checkRequest', (i) => i.checkId),
        loadPhotos: driver.promise<Record<string, string | null>, { candidates: CameraCandidate[] }>(
          'loadPhotos',
        ),
        forceKill: driver.promise<boolean, { deviceId: string; cameraId: string }>('forceKill'),
        loadResolutions: driver.promise<ResolutionOption[], { deviceId: string; cameraId: string }>(
          'loadResolutions',
        ),
      },
    }),
    { input: { idPrefix: 'web-m' }, clock: driver.clock },
  ).start();
}

describe('cameraGrid (model-based paths)', () => {
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches every dialog of the opening flow, the save states and the modal states', () => {
    const values = paths.map((p) => JSON.stringify(p.state.value));
    const openerStates = ['choosingCamera', 'refused', 'conflict', 'killing', 'killed', 'choosingResolution'];
    expect(openerStates.filter((o) => !values.some((v) => v.includes(`"opener":"${o}"`)))).toEqual([]);
    for (const layout of ['"loading"', '"pending"', '"saving"']) {
      expect(values.some((v) => v.includes(layout))).toBe(true);
    }
    expect(values.some((v) => v.includes('"minimized":"notice"'))).toBe(true);
    expect(paths.some((p) => p.state.context.entries.length > 0)).toBe(true);
  });

  // ~3,300 paths, ~40,000 steps: allow for a machine shared with other work.
  it('follows every modelled path on the real machine', { timeout: 180_000 }, async () => {
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
  });
});
