import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  openerMachine,
  type CameraCandidate,
  type RequestCheckInput,
  type RequestCheckOutcome,
} from '../../../machines/cameras/opener.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';
import type { ResolutionOption } from '../../../src/protocol/commands';
import { cam, done, fail, vga } from './fixtures';

type Snap = SnapshotFrom<typeof openerMachine>;

/**
 * Sample events per state, pruned so the graph stays small: devices come up one after the other (dev-1,
 * then — before any admission — dev-2 with the same physical camera, which makes the chooser reachable), a
 * camera is requested only while the opener is idle with nothing queued (queueing and checks made ahead
 * have unit tests), and the grid takes each admission (`opener.streams`) before the next request.
 */
function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const d = s.context.devices;
  const idle = s.matches('idle');
  switch (type) {
    case 'device.status': {
      if (!d['dev-1']) return [{ type, deviceId: 'dev-1', label: 'Device 1', status: 'open' } as EventObject];
      if (!d['dev-2'] && s.context.admitted === 0 && idle) {
        return [{ type, deviceId: 'dev-2', label: 'Device 2', status: 'open' } as EventObject];
      }
      return [];
    }
    case 'device.cameras':
      return Object.entries(d)
        .filter(([, x]) => x.status === 'open' && x.cameras.length === 0)
        .map(([deviceId]) => ({ type, deviceId, cameras: [cam(deviceId)] }) as EventObject);
    case 'opener.request': {
      const request = { deviceId: 'dev-1', camera: cam('dev-1'), resolution: null };
      return idle && s.context.queue.length === 0 && s.context.unacked.length === 0 && s.context.admitted < 2
        ? [
            { type, request: { ...request, chooseResolution: false } } as EventObject,
            { type, request: { ...request, chooseResolution: true } } as EventObject,
          ]
        : [];
    }
    case 'opener.streams': {
      // The grid took the admissions: its streams per device now count them.
      const last = s.context.unacked.at(-1);
      return last
        ? [{ type, streams: { [last.deviceId]: s.context.admitted }, admitted: last.seq } as EventObject]
        : [];
    }
    case 'opener.pick':
      return [{ type, deviceId: 'dev-2' } as EventObject];
    case 'opener.resolution':
      return [{ type, resolution: vga } as EventObject, { type, resolution: null } as EventObject];
    case 'streams.reset':
      return idle ? [{ type }] : [];
    case 'opener.checked': {
      // The answer of the current request's check (checks ahead need queued requests: unit tests).
      const request = s.context.request;
      const check = request && s.context.checks[request.id];
      if (!check || check.outcome) return [];
      const answer = (outcome: RequestCheckOutcome) =>
        ({ type, checkId: check.checkId, requestId: request.id, ...outcome }) as EventObject;
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
    default:
      return type.startsWith('xstate.error.actor.')
        ? [fail(type.slice('xstate.error.actor.'.length))]
        : undefined;
  }
}

/** The state plus the context the guards and the counts read. */
const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    Object.entries(s.context.devices)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([id, d]) => [id, d.status, d.cameras.length]),
    s.context.streams,
    s.context.admitted,
    s.context.unacked.length,
    s.context.queue.length,
    !!s.context.request?.chooseResolution,
  ]);

const model = createMachineTestModel(openerMachine, { events: eventsFor, key, input: {} });

function start(driver: Driver) {
  return createActor(
    openerMachine.provide({
      actors: {
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
    { input: {}, clock: driver.clock },
  ).start();
}

describe('opener (model-based paths)', () => {
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches every dialog of the opening flow and admits cameras', () => {
    const values = new Set(paths.map((p) => p.state.value));
    const dialogs = [
      'choosingCamera',
      'checking',
      'refused',
      'conflict',
      'killing',
      'killed',
      'loadingResolutions',
      'choosingResolution',
    ];
    expect(dialogs.filter((o) => !values.has(o as never))).toEqual([]);
    expect(paths.some((p) => p.state.context.admitted >= 2)).toBe(true);
    expect(paths.some((p) => p.state.context.unacked.length === 0 && p.state.context.admitted > 0)).toBe(
      true,
    );
  });

  it('follows every modelled path on the real machine', { timeout: 180_000 }, async () => {
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
  });
});
