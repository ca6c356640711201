/**
 * Remote desktop input on the device (§7 mouse-control, mouse-drag, scroll-mouse, keyboard-control,
 * close-remote-window; §3 openWindows): the request contracts, the xdotool argument mapping of the `host`
 * backend, and the simulated desktop's reaction to clicks and typing (its drawn pixels).
 */
import { describe, expect, it } from 'vitest';
import { deviceCommands } from '../../../src/protocol';
import { KeyboardControl, MouseControl } from '../../../src/protocol/remoteDesktop';
import { createSimDesktop } from '../../../src/agent/remoteDesktop/simDesktop';
import { lampButton, lampRect } from '../../../src/agent/remoteDesktop/simModel';
import { keyboardArgs, mouseArgs, scrollArgs, toPixels } from '../../../src/agent/remoteDesktop/x11Input';
import { parseGeometry, x11grabArgs } from '../../../src/agent/remoteDesktop/x11Desktop';

const screen = { width: 1920, height: 1080 };
const noMods = { ctrl: false, alt: false, shift: false, meta: false };

describe('remote desktop contracts', () => {
  it('registers the five §7 remote control commands and get-open-windows', () => {
    for (const p of [
      'mouse-control',
      'mouse-drag',
      'scroll-mouse',
      'keyboard-control',
      'close-remote-window',
      'get-open-windows',
    ]) {
      expect(Object.keys(deviceCommands)).toContain(p);
    }
  });
  it('refuses positions outside the screen and unknown keys', () => {
    expect(MouseControl.safeParse({ action: 'click', x: 1.2, y: 0.5 }).success).toBe(false);
    expect(MouseControl.safeParse({ action: 'click', x: 0.2, y: 0.5 }).success).toBe(true);
    expect(KeyboardControl.safeParse({ action: 'key', key: 'Hyper' }).success).toBe(false);
    expect(KeyboardControl.safeParse({ action: 'key', key: 'é' }).success).toBe(true);
    expect(KeyboardControl.safeParse({ action: 'text', text: 'a\u0007b' }).success).toBe(false);
  });
});

describe('xdotool mapping (host backend)', () => {
  it('maps fractions to the display pixels, clamped', () => {
    expect(toPixels({ x: 0, y: 0 }, screen)).toEqual({ x: 0, y: 0 });
    expect(toPixels({ x: 1, y: 1 }, screen)).toEqual({ x: 1919, y: 1079 });
    expect(toPixels({ x: 0.5, y: 0.5 }, screen)).toEqual({ x: 960, y: 540 });
  });
  it('moves before pressing, releasing or clicking the right X button', () => {
    expect(mouseArgs({ action: 'click', button: 'left', x: 0.5, y: 0.5 }, screen)).toEqual([
      'mousemove',
      '960',
      '540',
      'click',
      '1',
    ]);
    expect(mouseArgs({ action: 'down', button: 'right', x: 0, y: 0 }, screen)).toEqual([
      'mousemove',
      '0',
      '0',
      'mousedown',
      '3',
    ]);
    expect(mouseArgs({ action: 'up', button: 'middle', x: 0, y: 0 }, screen)).toEqual([
      'mousemove',
      '0',
      '0',
      'mouseup',
      '2',
    ]);
    expect(mouseArgs({ action: 'move', button: 'left', x: 0, y: 1 }, screen)).toEqual([
      'mousemove',
      '0',
      '1079',
    ]);
  });
  it('scrolls with wheel buttons 4/5 (vertical) and 6/7 (horizontal)', () => {
    expect(scrollArgs({ x: 0, y: 0, dx: 0, dy: 3 }, screen)).toEqual([
      'mousemove',
      '0',
      '0',
      'click',
      '--repeat',
      '3',
      '5',
    ]);
    expect(scrollArgs({ x: 0, y: 0, dx: -2, dy: -1 }, screen)).toEqual([
      'mousemove',
      '0',
      '0',
      'click',
      '--repeat',
      '1',
      '4',
      'click',
      '--repeat',
      '2',
      '6',
    ]);
  });
  it('types printable characters and sends chords and named keys as keysyms', () => {
    expect(keyboardArgs({ action: 'text', text: '-rf' })).toEqual(['type', '--delay', '0', '--', '-rf']);
    expect(keyboardArgs({ action: 'key', key: 'A', modifiers: { ...noMods, shift: true } })).toEqual([
      'type',
      '--delay',
      '0',
      '--',
      'A',
    ]);
    expect(keyboardArgs({ action: 'key', key: 'c', modifiers: { ...noMods, ctrl: true } })).toEqual([
      'key',
      '--',
      'ctrl+c',
    ]);
    expect(keyboardArgs({ action: 'key', key: 'Enter', modifiers: noMods })).toEqual(['key', '--', 'Return']);
    expect(keyboardArgs({ action: 'key', key: 'PageDown', modifiers: { ...noMods, shift: true } })).toEqual([
      'key',
      '--',
      'shift+Next',
    ]);
  });
  it('grabs the whole display scaled to 1280×720 I420', () => {
    const args = x11grabArgs(':99', screen, 20);
    expect(args.join(' ')).toContain('-f x11grab');
    expect(args.join(' ')).toContain('-video_size 1920x1080 -i :99+0,0');
    expect(args.join(' ')).toContain('-pix_fmt yuv420p -s 1280x720 pipe:1');
  });
  it('parses xdotool window geometry', () => {
    expect(parseGeometry('Window 2097175\n  Position: 100,100 (screen: 0)\n  Geometry: 300x400\n')).toEqual({
      x: 100,
      y: 100,
      width: 300,
      height: 400,
    });
    expect(parseGeometry('garbage')).toBeNull();
  });
});

/** Mean luma of a rectangle of a 1280×720 I420 frame. */
function meanLuma(data: Uint8Array, r: { x: number; y: number; width: number; height: number }): number {
  let sum = 0;
  for (let y = r.y; y < r.y + r.height; y++)
    for (let x = r.x; x < r.x + r.width; x++) sum += data[y * 1280 + x] as number;
  return sum / (r.width * r.height);
}

describe('the simulated desktop', () => {
  it('toggles the lamp when its button is clicked, and the picture shows it', async () => {
    const d = createSimDesktop();
    const lamp = d.state.windows.find((w) => w.kind === 'lamp')!;
    const before = meanLuma((await d.camera.grabFrame(d.camera.defaultResolution)).data, lampRect(lamp));
    const b = lampButton(lamp);
    await d.mouse({ action: 'click', button: 'left', x: (b.x + 10) / 1279, y: (b.y + 10) / 719 });
    expect(d.state.lampOn).toBe(true);
    const after = meanLuma((await d.camera.grabFrame(d.camera.defaultResolution)).data, lampRect(lamp));
    expect(after - before).toBeGreaterThan(50);
    expect((await d.windows()).windows.at(-1)).toMatchObject({ title: 'Lamp', focused: true });
  });

  it('shows typed text in Notes when Notes has the focus, and only then', async () => {
    const d = createSimDesktop();
    const notes = d.state.windows.find((w) => w.kind === 'notes')!;
    const field = { x: notes.x + 20, y: notes.y + 40, width: 300, height: 30 };
    const before = meanLuma((await d.camera.grabFrame(d.camera.defaultResolution)).data, field);
    await d.keyboard({ action: 'text', text: 'HELLO EDGE' });
    expect(d.state.notes).toBe('HELLO EDGE');
    const after = meanLuma((await d.camera.grabFrame(d.camera.defaultResolution)).data, field);
    expect(before - after).toBeGreaterThan(10); // dark glyphs on the white field
    await d.keyboard({ action: 'key', key: 'Backspace', modifiers: noMods });
    expect(d.state.notes).toBe('HELLO EDG');
    // Focus the desktop background: keys go nowhere.
    await d.mouse({ action: 'click', button: 'left', x: 0.01, y: 0.99 });
    await d.keyboard({ action: 'text', text: 'X' });
    expect(d.state.notes).toBe('HELLO EDG');
  });

  it('moves a window dragged by its title bar and closes one by its close box or by id', async () => {
    const d = createSimDesktop();
    const notes = d.state.windows.find((w) => w.kind === 'notes')!;
    const at = (x: number, y: number) => ({ x: x / 1279, y: y / 719 });
    expect(notes).toMatchObject({ x: 80, y: 70 });
    await d.mouse({ action: 'down', button: 'left', ...at(180, 80) });
    await d.drag({ button: 'left', ...at(230, 130) });
    await d.mouse({ action: 'up', button: 'left', ...at(230, 130) });
    expect(notes).toMatchObject({ x: 130, y: 120 });
    expect(await d.closeWindow('w3')).toBe(true);
    expect(await d.closeWindow('w3')).toBe(false);
    await d.mouse({ action: 'click', button: 'left', ...at(notes.x + notes.width - 12, notes.y + 12) });
    expect((await d.windows()).windows.map((w) => w.title)).toEqual(['Lamp']);
  });

  it('sends a changed picture at once after input while a capture runs', async () => {
    const d = createSimDesktop();
    const frames: number[] = [];
    const h = d.camera.startCapture(d.camera.defaultResolution, () => frames.push(Date.now()));
    const n = frames.length;
    await d.keyboard({ action: 'text', text: 'A' });
    expect(frames.length).toBe(n + 1);
    h.stop();
  });
});
