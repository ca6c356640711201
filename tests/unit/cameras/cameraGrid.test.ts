/**
 * The camera grid (machines/cameras/cameraGrid.machine.ts): pages, layout persistence and the opening flow.
 * Checks ahead, recovering streams and the stream modal: cameraGridStreams.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { GRID_TEXTS, LAYOUT_SAVE_DEBOUNCE_MS } from '../../../machines/cameras/cameraGrid.machine';
import { HIDE_GRACE_MS } from '../../../machines/cameras/stream.machine';
import type { SavedStream } from '../../../src/protocol/rest';
import { flush, makeCamera } from '../machines/fixtures';
import { dev1, dev2, opener, openerContext, openerRef, startGrid, vga } from './gridHarness';

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
    expect(stateOf(0)).toBe('{"live":"held"}');
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
