/**
 * The camera grid (machines/cameras/cameraGrid.machine.ts): checks made ahead for queued cameras, streams
 * recovering (reconnects, held and resumed cells, release on sign-out) and the stream modal.
 */
import { describe, expect, it } from 'vitest';
import { HIDE_GRACE_MS, HOLD_MAX_MS, STREAM_RETRY_BASE_MS } from '../../../machines/cameras/stream.machine';
import { flush, makeCamera } from '../machines/fixtures';
import { dev1, dev2, opener, openerContext, openerRef, startGrid } from './gridHarness';

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
    const { grid, clock, device, open, log, stateOf, end } = startGrid();
    device(dev1, 'open', [cam]);
    open(cam);
    await flush();
    const id = grid.getSnapshot().context.entries[0]!.streamId;
    end(id, 'The device closed the stream.');
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
    expect(stateOf(0)).toBe('{"live":"held"}');
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
    expect(stateOf(0)).toBe('"released"');
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
