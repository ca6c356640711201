/**
 * Browser input → remote control payloads (src/console/features/remoteDesktop/input.ts), the throttle of
 * mouse moves (§9 100 ms) and resizes (§9 200 ms) on a fake clock, the input sender's ordering, and the
 * snapshot → view mapping with the stats line.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { remoteDesktopMachine } from '../../../machines/remoteDesktop/remoteDesktop.machine';
import {
  buttonOf,
  createThrottle,
  draggingButton,
  fitAspect,
  keyToControl,
  pointToScreen,
  wheelNotches,
} from '../../../src/console/features/remoteDesktop/input';
import { remoteDesktopToView, statsParts } from '../../../src/console/features/remoteDesktop/selectors';

function fakeTimers() {
  let now = 0;
  const queue: Array<{ at: number; fn: () => void; id: number }> = [];
  let ids = 0;
  return {
    now: () => now,
    setTimeout: (fn: () => void, ms: number) => {
      const id = ++ids;
      queue.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout: (id: unknown) => {
      const i = queue.findIndex((q) => q.id === id);
      if (i >= 0) queue.splice(i, 1);
    },
    advance(ms: number) {
      now += ms;
      for (;;) {
        queue.sort((a, b) => a.at - b.at);
        const next = queue[0];
        if (!next || next.at > now) break;
        queue.shift();
        next.fn();
      }
    },
  };
}

describe('pointer, wheel and keys', () => {
  const box = { left: 100, top: 50, width: 640, height: 360 };
  it('maps a point over the picture to fractions of the remote screen', () => {
    expect(pointToScreen(100, 50, box, { width: 1280, height: 720 })).toEqual({ x: 0, y: 0 });
    expect(pointToScreen(420, 230, box, { width: 1280, height: 720 })).toEqual({ x: 0.5, y: 0.5 });
    expect(pointToScreen(99, 50, box, { width: 1280, height: 720 })).toBeNull();
  });
  it('leaves out the letterbox bars of a picture of another aspect', () => {
    // A 4:3 picture in a 16:9 box: bars of 80 px on each side.
    expect(pointToScreen(100 + 80, 50, box, { width: 640, height: 480 })).toEqual({ x: 0, y: 0 });
    expect(pointToScreen(100 + 40, 100, box, { width: 640, height: 480 })).toBeNull();
  });
  it('fits the largest 16:9 box (§9 1280x720)', () => {
    expect(fitAspect(1600, 720)).toEqual({ width: 1280, height: 720 });
    expect(fitAspect(800, 900)).toEqual({ width: 800, height: 450 });
  });
  it('maps buttons, drags and wheel notches', () => {
    expect([buttonOf(0), buttonOf(1), buttonOf(2), buttonOf(3)]).toEqual(['left', 'middle', 'right', null]);
    expect([draggingButton(1), draggingButton(2), draggingButton(4), draggingButton(0)]).toEqual([
      'left',
      'right',
      'middle',
      null,
    ]);
    expect([wheelNotches(100, 0), wheelNotches(-260, 0), wheelNotches(3, 0), wheelNotches(3, 1), wheelNotches(1e6, 0)]).toEqual([1, -3, 1, 1, 20]); // prettier-ignore
  });
  it('types printable keys as text, sends chords and named keys, keeps Escape and modifiers alone', () => {
    const k = (
      key: string,
      m: Partial<Record<'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey', boolean>> = {},
    ) => keyToControl({ key, ctrlKey: false, altKey: false, shiftKey: false, metaKey: false, ...m });
    expect(k('a')).toEqual({ action: 'text', text: 'a' });
    expect(k('A', { shiftKey: true })).toEqual({ action: 'text', text: 'A' });
    expect(k('c', { ctrlKey: true })).toEqual({
      action: 'key',
      key: 'c',
      modifiers: { ctrl: true, alt: false, shift: false, meta: false },
    });
    expect(k('Enter')).toMatchObject({ action: 'key', key: 'Enter' });
    expect([k('Escape'), k('Shift'), k('Dead'), k('AudioVolumeUp')]).toEqual([null, null, null, null]);
  });
});

describe('throttle (§9 mouse move 100 ms, resize 200 ms)', () => {
  it('runs the first call at once and the latest of a burst when the interval ends', () => {
    const t = fakeTimers();
    const sent: number[] = [];
    const th = createThrottle<number>(100, (v) => sent.push(v), t);
    th.call(1);
    for (let i = 2; i <= 10; i++) {
      t.advance(10);
      th.call(i);
    }
    expect(sent).toEqual([1]);
    t.advance(10);
    expect(sent).toEqual([1, 10]);
    // 1 s of moves every 10 ms: about one per 100 ms, never two within 100 ms.
    const times: number[] = [];
    const th2 = createThrottle<number>(100, () => times.push(t.now()), t);
    for (let i = 0; i < 100; i++) {
      th2.call(i);
      t.advance(10);
    }
    expect(times.length).toBeGreaterThanOrEqual(10);
    expect(times.length).toBeLessThanOrEqual(11);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(100);
  });
  it('flush sends the pending call now; cancel drops it', () => {
    const t = fakeTimers();
    const sent: number[] = [];
    const th = createThrottle<number>(200, (v) => sent.push(v), t);
    th.call(1);
    th.call(2);
    th.flush();
    expect(sent).toEqual([1, 2]);
    t.advance(50);
    th.call(3);
    th.cancel();
    t.advance(500);
    expect(sent).toEqual([1, 2]);
  });
});

describe('snapshot → view', () => {
  it('shows the phase, the windows and the stats line of the actor', () => {
    const actor = createActor(
      remoteDesktopMachine.provide({
        actors: {
          desktopSession: fromCallback(() => () => undefined),
          input: fromCallback(() => () => undefined),
          windowList: fromCallback(() => () => undefined),
        },
      }),
    ).start();
    expect(remoteDesktopToView(actor.getSnapshot()).phase).toBe('closed');
    actor.send({ type: 'desktop.open', deviceId: 'dev-1', label: 'Box A' });
    expect(remoteDesktopToView(actor.getSnapshot())).toMatchObject({
      phase: 'connecting',
      label: 'Box A',
      captured: false,
    });
    actor.send({ type: 'session.started', mediaStream: {} as MediaStream, width: 1280, height: 720 });
    actor.send({ type: 'stats.sample', stats: { width: null, height: null, fps: 19.96, bitrateKbps: 300, rttMs: 0.6, packetsLost: 0, codec: 'VP8' } }); // prettier-ignore
    const view = remoteDesktopToView(actor.getSnapshot());
    expect(view.phase).toBe('live');
    expect(statsParts(view.stats)).toEqual({ fps: '20.0', resolution: '1280×720', rtt: '1' });
    expect(statsParts(null)).toEqual({ fps: '–', resolution: '–', rtt: '–' });
    actor.send({ type: 'stream.ended', error: 'Stream ended.' });
    expect(remoteDesktopToView(actor.getSnapshot())).toMatchObject({
      phase: 'failed',
      error: 'Stream ended.',
      mediaStream: null,
    });
    actor.stop();
  });
});
