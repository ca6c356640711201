import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, type EventObject, type SnapshotFrom } from 'xstate';
import {
  cameraGridMachine,
  LAYOUT_SAVE_DEBOUNCE_MS,
  LAYOUT_SAVE_RETRY_BASE_MS,
  type CameraCandidate,
  type LoadedLayout,
  type RequestCheckInput,
} from '../../../machines/cameras/cameraGrid.machine';
import { openerMachine } from '../../../machines/cameras/opener.machine';
import { streamMachine } from '../../../machines/cameras/stream.machine';
import type { SavedStream } from '../../../src/protocol/rest';
import { createMachineTestModel, Driver, runPaths } from '../harness';
import type { ResolutionOption } from '../../../src/protocol/commands';
import { cam, done, fail, vga } from './fixtures';

type Snap = SnapshotFrom<typeof cameraGridMachine>;

/**
 * Sample events per state, pruned so the graph stays small: devices come up one after the other (dev-1,
 * then — before any stream — dev-2). The opening flow is the invoked opener's (its own model test,
 * opener.model.test.ts); here the opener's reports stand for it: `opener.admitted` opens a stream (at most
 * two), `opener.deviceWarning` shows the notice. A `stream.open` is handed to the opener (the grid's state
 * does not change).
 */
function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const first = s.context.entries[0]?.streamId;
  const d = s.context.devices;
  switch (type) {
    case 'device.status': {
      if (!d['dev-1']) return [{ type, deviceId: 'dev-1', label: 'Device 1', status: 'open' } as EventObject];
      if (!d['dev-2'] && s.context.entries.length === 0) {
        return [{ type, deviceId: 'dev-2', label: 'Device 2', status: 'open' } as EventObject];
      }
      return [];
    }
    case 'device.cameras':
      return Object.entries(d)
        .filter(([, x]) => x.status === 'open' && x.cameras.length === 0)
        .map(([deviceId]) => ({ type, deviceId, cameras: [cam(deviceId)] }) as EventObject);
    case 'stream.open':
      return s.context.entries.length === 0
        ? [{ type, deviceId: 'dev-1', camera: cam('dev-1') } as EventObject]
        : [];
    case 'opener.admitted': {
      const seq = s.context.admitted + 1;
      return s.context.entries.length < 2
        ? [
            {
              type,
              request: { seq, deviceId: 'dev-1', camera: cam('dev-1'), resolution: null },
            } as EventObject,
            {
              type,
              request: { seq, deviceId: 'dev-1', camera: cam('dev-1'), resolution: vga },
            } as EventObject,
          ]
        : [];
    }
    case 'modal.open':
      return first ? [{ type, streamId: first } as EventObject] : [];
    case 'grid.size':
      return first ? [{ type, streamId: first, size: 'large' } as EventObject] : [];
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
    // An outage (503: loaded again; nothing saved until then) and a refusal (400: starts empty, as before).
    case 'xstate.error.actor.loadLayout':
      return [failWith('loadLayout', 503), failWith('loadLayout', 400)];
    case 'xstate.done.actor.saveLayout':
      return [done('saveLayout', undefined)];
    // An outage (503: tried again) and a refusal (400: not).
    case 'xstate.error.actor.saveLayout':
      return [failWith('saveLayout', 503), failWith('saveLayout', 400)];
    case 'layout.serverBack':
      return [{ type }];
    default:
      return type.startsWith('xstate.error.actor.')
        ? [fail(type.slice('xstate.error.actor.'.length))]
        : undefined;
  }
}

/** A failure of actor `id` as the console's REST transport gives it (an ApiRequestError's HTTP status). */
const failWith = (id: string, status: number) =>
  ({
    type: `xstate.error.actor.${id}`,
    error: Object.assign(new Error(`Request failed (${status}).`), { status }),
  }) as EventObject;

/** Region states plus the context the guards and notices read (devices, streams count, dirty, failures). */
const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    Object.entries(s.context.devices)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([id, d]) => [id, d.status, d.cameras.length]),
    Math.min(s.context.entries.length, 2),
    s.context.dirty,
    Math.min(s.context.saveFailures, 1),
    Math.min(s.context.loadFailures, 1),
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
            // A session that never answers: streams stay connecting.
            streamSession: fromCallback(() => () => undefined),
          },
        }),
        loadLayout: driver.promise<LoadedLayout, void>('loadLayout'),
        saveLayout: driver.promise<void, { streams: SavedStream[] }>('saveLayout'),
        watchServer: driver.callback<EventObject, unknown>('watchServer'),
        opener: openerMachine.provide({
          actors: {
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
      },
    }),
    { input: { idPrefix: 'web-m' }, clock: driver.clock },
  ).start();
}

describe('cameraGrid (model-based paths)', () => {
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  // The opening flow's dialogs: opener.model.test.ts.
  it('reaches the save states and the modal states, and opens what the opener admits', () => {
    const values = paths.map((p) => JSON.stringify(p.state.value));
    for (const layout of ['"loading"', '"notLoaded"', '"pending"', '"saving"', '"unsaved"']) {
      expect(values.some((v) => v.includes(layout))).toBe(true);
    }
    expect(values.some((v) => v.includes('"minimized":"notice"'))).toBe(true);
    expect(paths.some((p) => p.state.context.entries.length > 0)).toBe(true);
  });

  // Issue 15 "Faults, with nothing lost": a load the server could not answer is not the saved layout.
  it('sends no save on any path after a load failed for an outage until a load succeeded', () => {
    const outage = (e: { type: string; error?: unknown }) =>
      e.type === 'xstate.error.actor.loadLayout' && (e.error as { status?: number }).status === 503;
    let afterOutage = 0;
    for (const p of paths) {
      let waiting = false;
      for (const step of p.steps) {
        if (outage(step.event)) waiting = true;
        if (step.event.type === 'xstate.done.actor.loadLayout') waiting = false;
        if (!waiting) continue;
        afterOutage++;
        expect(step.state.hasTag('notLoaded') || step.state.hasTag('loading'), p.description).toBe(true);
        expect(step.state.children.saveLayout, p.description).toBeUndefined();
      }
    }
    expect(afterOutage).toBeGreaterThan(0);
  });

  it('load fails → a stream opens, no save → the server is back → loaded → the change is saved', async () => {
    const driver = new Driver();
    const grid = start(driver);
    const loaded: LoadedLayout = { streams: [], devices: [], ipCameras: [] };
    const step = (event: EventObject) => driver.exec(grid, event);
    await step({ type: 'grid.load' });
    await step(failWith('loadLayout', 503));
    expect(grid.getSnapshot().hasTag('notLoaded')).toBe(true);
    await step({
      type: 'device.status',
      deviceId: 'dev-1',
      label: 'Device 1',
      status: 'open',
    } as EventObject);
    await step({
      type: 'opener.admitted',
      request: { seq: 1, deviceId: 'dev-1', camera: cam('dev-1'), resolution: null },
    } as EventObject);
    // Past the save debounce, before the load's back-off: the server's return makes the load.
    driver.clock.increment(LAYOUT_SAVE_RETRY_BASE_MS - 1);
    expect(grid.getSnapshot().children.saveLayout).toBeUndefined();
    expect(grid.getSnapshot().context.dirty).toBe(true);
    driver.sendBack('watchServer', '', { type: 'layout.serverBack' });
    await step(done('loadLayout', loaded));
    expect(grid.getSnapshot().matches({ layout: { ready: 'pending' } })).toBe(true);
    expect(grid.getSnapshot().context.loadFailures).toBe(0);
    expect(grid.getSnapshot().context.entries).toHaveLength(1);
    driver.clock.increment(LAYOUT_SAVE_DEBOUNCE_MS);
    expect(grid.getSnapshot().children.saveLayout).toBeDefined();
    grid.stop();
  });

  // ~3,300 paths, ~40,000 steps: allow for a machine shared with other work.
  it('follows every modelled path on the real machine', { timeout: 180_000 }, async () => {
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
  });
});
