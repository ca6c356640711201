/**
 * The camera grid's layout saved through a server or database outage (issue 15 "Faults, with nothing lost";
 * machines/cameras/cameraGrid.machine.ts, region `layout`): a save the server could not take is kept and saved
 * again — after a back-off, or at once when the server's links come back (the real connectivity machine) —
 * with the newest layout, once; a layout the server refused is not tried again.
 */
import { describe, expect, it } from 'vitest';
import {
  GRID_TEXTS,
  LAYOUT_SAVE_DEBOUNCE_MS,
  LAYOUT_SAVE_RETRY_BASE_MS,
  LAYOUT_SAVE_RETRY_MAX_MS,
  layoutSaveRetryDelay,
} from '../../../machines/cameras/cameraGrid.machine';
import { flush, makeCamera } from '../machines/fixtures';
import { dev1, httpError, startGrid } from './gridHarness';

/** A grid with the saved layout loaded and one stream open on dev-1, nothing saved yet. */
async function gridWithStream(saveError: (attempt: number) => unknown) {
  const cam = makeCamera(dev1.device_id);
  const g = startGrid({ saveError });
  g.grid.send({ type: 'grid.load' });
  await flush();
  g.device(dev1, 'open', [cam]);
  g.open(cam);
  await flush(10);
  const streamId = g.grid.getSnapshot().context.entries[0]!.streamId;
  return { ...g, streamId };
}

/** Lets the debounce run out and the save settle. */
async function afterDebounce(clock: { increment(ms: number): void }) {
  clock.increment(LAYOUT_SAVE_DEBOUNCE_MS);
  await flush();
}

const sizes = (saved: { cell: { w: number; h: number } }[]) => saved.map((s) => [s.cell.w, s.cell.h]);

describe('camera grid: a layout saved during an outage', () => {
  it('keeps a layout the server could not take (503) and saves the newest one after the back-off, once', async () => {
    const { grid, clock, log, notices, streamId } = await gridWithStream((n) =>
      n <= 2 ? httpError(503, 'Database_unavailable') : undefined,
    );
    await afterDebounce(clock);
    expect(log.saved).toHaveLength(1);
    expect(log.stored).toEqual([]);
    expect(grid.getSnapshot().hasTag('unsaved')).toBe(true);
    expect(notices).toEqual([expect.objectContaining({ message: GRID_TEXTS.saveRetrying })]);

    // Changed while unsaved: the next try takes it; no save of its own.
    grid.send({ type: 'grid.size', streamId, size: 'big' });
    clock.increment(LAYOUT_SAVE_RETRY_BASE_MS - 1);
    await flush();
    expect(log.saved).toHaveLength(1);
    clock.increment(1);
    await flush();
    expect(log.saved).toHaveLength(2);
    expect(sizes(log.saved[1]!)).toEqual([[6, 12]]);
    // Failed again: one notice for the whole outage; the wait doubles.
    expect(notices).toHaveLength(1);
    clock.increment(2 * LAYOUT_SAVE_RETRY_BASE_MS - 1);
    await flush();
    expect(log.saved).toHaveLength(2);
    clock.increment(1);
    await flush();

    expect(log.stored).toEqual([log.saved[2]]);
    expect(sizes(log.stored[0]!)).toEqual([[6, 12]]);
    expect(grid.getSnapshot().hasTag('unsaved')).toBe(false);
    expect(notices.map((n) => [n.variant, n.message, n.i18n?.message?.key])).toEqual([
      ['warning', GRID_TEXTS.saveRetrying, 'cameras.layoutSaveRetrying'],
      ['success', GRID_TEXTS.saved, 'cameras.layoutSaved'],
    ]);
    // Nothing more to save.
    clock.increment(LAYOUT_SAVE_RETRY_MAX_MS * 4);
    await flush();
    expect(log.saved).toHaveLength(3);
  });

  it('saves an unsaved layout at once when the server’s links come back', async () => {
    const { grid, clock, log, server } = await gridWithStream((n) =>
      n === 1 ? httpError(0, 'network') : undefined,
    );
    server(true);
    server(false);
    await afterDebounce(clock);
    expect(log.saved).toHaveLength(1);
    expect(grid.getSnapshot().hasTag('unsaved')).toBe(true);
    server(true);
    await flush();
    // No clock advanced: the server's return alone made the try.
    expect(log.saved).toHaveLength(2);
    expect(log.stored).toEqual([log.saved[1]]);
    expect(grid.getSnapshot().hasTag('unsaved')).toBe(false);
  });

  it('tries an unsaved layout at most every LAYOUT_SAVE_RETRY_MAX_MS through a long outage', async () => {
    const { clock, log, notices } = await gridWithStream(() => httpError(502));
    await afterDebounce(clock);
    for (let n = 1; n <= 8; n++) {
      clock.increment(layoutSaveRetryDelay(n));
      await flush();
    }
    expect(log.saved).toHaveLength(9);
    expect(layoutSaveRetryDelay(8)).toBe(LAYOUT_SAVE_RETRY_MAX_MS);
    expect(notices).toHaveLength(1);
    expect(log.stored).toEqual([]);
  });

  it('does not try again a layout the server refused (400), says so, and saves the next change', async () => {
    const { grid, clock, log, notices, streamId } = await gridWithStream((n) =>
      n === 1 ? httpError(400, 'invalid_input') : undefined,
    );
    await afterDebounce(clock);
    clock.increment(LAYOUT_SAVE_RETRY_MAX_MS * 2);
    await flush();
    expect(log.saved).toHaveLength(1);
    expect(notices.map((n) => n.i18n?.message?.key)).toEqual(['cameras.layoutSaveFailed']);
    grid.send({ type: 'grid.size', streamId, size: 'large' });
    await afterDebounce(clock);
    expect(log.stored).toEqual([log.saved[1]]);
  });

  it('drops an unsaved layout and its tries on sign-out', async () => {
    const { grid, clock, log, server } = await gridWithStream(() => httpError(503));
    await afterDebounce(clock);
    grid.send({ type: 'streams.reset' });
    server(false);
    server(true);
    clock.increment(LAYOUT_SAVE_RETRY_MAX_MS * 2);
    await flush();
    expect(log.saved).toHaveLength(1);
  });
});
