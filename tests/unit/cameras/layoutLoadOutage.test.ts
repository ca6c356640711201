/**
 * The camera grid's saved layout loaded through a server or database outage (issue 15 "Faults, with nothing
 * lost"; machines/cameras/cameraGrid.machine.ts, region `layout`, state `notLoaded`): a load the server could
 * not answer is not taken for an empty layout — nothing is saved over the server's layout, the load is made
 * again after a back-off or at once when the server's links come back (the real connectivity machine), and a
 * change made meanwhile is saved, merged with the loaded layout, only after the load succeeded.
 */
import { describe, expect, it } from 'vitest';
import {
  GRID_TEXTS,
  LAYOUT_SAVE_DEBOUNCE_MS,
  LAYOUT_SAVE_RETRY_BASE_MS,
  LAYOUT_SAVE_RETRY_MAX_MS,
} from '../../../machines/cameras/cameraGrid.machine';
import { gridPageOf } from '../../../src/console/features/cameras/selectors';
import type { SavedStream } from '../../../src/protocol/rest';
import { flush, makeCamera } from '../machines/fixtures';
import { dev1, httpError, startGrid } from './gridHarness';

/** The layout on the server: camera 0 big (6×12) at the top right, camera 1 medium below. */
const saved: SavedStream[] = [
  {
    key: `${dev1.device_id}:cam0`,
    deviceId: dev1.device_id,
    cameraId: 'cam0',
    page: 0,
    cell: { i: 'old-1', x: 6, y: 0, w: 6, h: 12 },
  },
  {
    key: `${dev1.device_id}:cam1`,
    deviceId: dev1.device_id,
    cameraId: 'cam1',
    page: 0,
    cell: { i: 'old-2', x: 0, y: 12, w: 4, h: 7 },
  },
];
const layout = { streams: saved, devices: [dev1], ipCameras: [] };
const cams = [0, 1, 2].map((i) => makeCamera(dev1.device_id, i));

/** camera id, x, y, w, h of each stream of a layout. */
const cells = (streams: { cameraId: string; cell: { x: number; y: number; w: number; h: number } }[]) =>
  streams.map((s) => [s.cameraId, s.cell.x, s.cell.y, s.cell.w, s.cell.h]);
const shown = (g: ReturnType<typeof startGrid>) =>
  g.grid.getSnapshot().context.entries.map((e) => ({ cameraId: e.camera.camera_id, cell: e.cell }));

describe('camera grid: the saved layout loaded during an outage', () => {
  it('saves nothing while the layout could not be loaded (503), loads it when the server is back, then saves the merge', async () => {
    const g = startGrid({
      layout,
      loadError: (n) => (n === 1 ? httpError(503, 'Database_unavailable') : undefined),
    });
    const { grid, clock, log, notices, server } = g;
    server(true);
    server(false);
    grid.send({ type: 'grid.load' });
    await flush();
    expect(log.loads).toBe(1);
    expect(grid.getSnapshot().hasTag('notLoaded')).toBe(true);
    expect(gridPageOf(grid.getSnapshot()).notLoaded).toBe(true);
    expect(notices.map((n) => [n.variant, n.message, n.i18n?.message?.key])).toEqual([
      ['warning', GRID_TEXTS.loadRetrying, 'cameras.layoutLoadRetrying'],
    ]);

    // Meanwhile the user opens cameras 0 (also in the saved layout) and 2: nothing is saved over the server's.
    g.device(dev1, 'open', cams);
    g.open(cams[0]!);
    await flush(10);
    g.open(cams[2]!);
    await flush(10);
    expect(shown(g).map((s) => s.cameraId)).toEqual(['cam0', 'cam2']);
    clock.increment(LAYOUT_SAVE_DEBOUNCE_MS * 5);
    await flush();
    expect(log.saved).toEqual([]);

    // The server's links are back: loaded at once (no clock advanced), shown, and only now saved.
    server(true);
    await flush(10);
    expect(log.loads).toBe(2);
    expect(gridPageOf(grid.getSnapshot()).notLoaded).toBe(false);
    expect(notices.map((n) => n.i18n?.message?.key)).toEqual([
      'cameras.layoutLoadRetrying',
      'cameras.layoutLoaded',
    ]);
    // The user's camera 0 (medium) wins over the saved big one; camera 1 comes back at its place; the
    // user's streams are placed where the saved ones leave room.
    expect(cells(shown(g))).toEqual([
      ['cam1', 0, 12, 4, 7],
      ['cam0', 0, 0, 4, 7],
      ['cam2', 4, 0, 4, 7],
    ]);
    expect(log.saved).toEqual([]);
    clock.increment(LAYOUT_SAVE_DEBOUNCE_MS);
    await flush();
    expect(log.stored).toHaveLength(1);
    expect(cells(log.stored[0]!)).toEqual(cells(shown(g)));
  });

  it('loads again after the back-off and, with nothing changed meanwhile, shows the saved layout and saves nothing', async () => {
    const { grid, clock, log, notices } = startGrid({
      layout,
      loadError: (n) => (n === 1 ? httpError(0, 'network') : n === 2 ? httpError(502) : undefined),
    });
    grid.send({ type: 'grid.load' });
    await flush();
    expect(grid.getSnapshot().context.entries).toEqual([]);
    clock.increment(LAYOUT_SAVE_RETRY_BASE_MS - 1);
    await flush();
    expect(log.loads).toBe(1);
    clock.increment(1);
    await flush();
    expect(log.loads).toBe(2);
    // Failed again: one notice for the whole outage; the wait doubles.
    clock.increment(2 * LAYOUT_SAVE_RETRY_BASE_MS - 1);
    await flush();
    expect(log.loads).toBe(2);
    clock.increment(1);
    await flush(10);
    expect(log.loads).toBe(3);
    expect(
      cells(grid.getSnapshot().context.entries.map((e) => ({ cameraId: e.camera.camera_id, cell: e.cell }))),
    ).toEqual(cells(saved));
    expect(notices.map((n) => n.message)).toEqual([GRID_TEXTS.loadRetrying, GRID_TEXTS.loaded]);
    clock.increment(LAYOUT_SAVE_RETRY_MAX_MS * 4);
    await flush();
    expect(log.loads).toBe(3);
    expect(log.saved).toEqual([]);
  });

  it('starts empty on a refused load (403), as before: not loaded again, the next change is saved', async () => {
    const g = startGrid({ layout, loadError: (n) => (n === 1 ? httpError(403, 'forbidden') : undefined) });
    g.grid.send({ type: 'grid.load' });
    await flush();
    expect(g.grid.getSnapshot().hasTag('notLoaded')).toBe(false);
    expect(g.notices).toEqual([]);
    g.device(dev1, 'open', cams);
    g.open(cams[2]!);
    await flush(10);
    g.clock.increment(LAYOUT_SAVE_RETRY_MAX_MS * 2);
    await flush();
    expect(g.log.loads).toBe(1);
    expect(g.log.stored.map((s) => s.map((x) => x.cameraId))).toEqual([['cam2']]);
  });

  it('says so when a load refused (403) after an outage ends the retries: the user was told it would load', async () => {
    const { grid, clock, log, notices } = startGrid({
      layout,
      loadError: (n) => (n === 1 ? httpError(503, 'Database_unavailable') : httpError(403, 'forbidden')),
    });
    grid.send({ type: 'grid.load' });
    await flush();
    clock.increment(LAYOUT_SAVE_RETRY_BASE_MS);
    await flush(10);
    expect(log.loads).toBe(2);
    expect(gridPageOf(grid.getSnapshot()).notLoaded).toBe(false);
    expect(notices.map((n) => [n.variant, n.message, n.i18n?.message?.key])).toEqual([
      ['warning', GRID_TEXTS.loadRetrying, 'cameras.layoutLoadRetrying'],
      ['warning', GRID_TEXTS.loadFailed, 'cameras.layoutLoadFailed'],
    ]);
    clock.increment(LAYOUT_SAVE_RETRY_MAX_MS * 2);
    await flush();
    expect(log.loads).toBe(2);
  });

  it('drops the loads still to make on sign-out', async () => {
    const { grid, clock, log, server } = startGrid({ layout, loadError: () => httpError(503) });
    grid.send({ type: 'grid.load' });
    await flush();
    grid.send({ type: 'streams.reset' });
    server(false);
    server(true);
    clock.increment(LAYOUT_SAVE_RETRY_MAX_MS * 2);
    await flush();
    expect(log.loads).toBe(1);
    expect(gridPageOf(grid.getSnapshot()).notLoaded).toBe(false);
  });
});
