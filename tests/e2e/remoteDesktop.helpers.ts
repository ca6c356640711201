/**
 * Helpers of the remote desktop end-to-end test: pixels of the desktop's <video> (drawn into a canvas in the
 * page), clicks at remote-screen pixels, and a throwaway X display (Xvfb) with a small X program (xcalc from
 * Debian's x11-apps: a click on a button and typed digits change its display).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Mean luma (0–255) of a region of the video's current picture, in remote-screen pixels (1280×720). */
export function meanLuma(video: Locator, r: Region): Promise<number> {
  return video.evaluate((v: HTMLVideoElement, r) => {
    const c = document.createElement('canvas');
    c.width = r.width;
    c.height = r.height;
    const g = c.getContext('2d', { willReadFrequently: true })!;
    const sx = v.videoWidth / 1280;
    const sy = v.videoHeight / 720;
    g.drawImage(v, r.x * sx, r.y * sy, r.width * sx, r.height * sy, 0, 0, r.width, r.height);
    const d = g.getImageData(0, 0, r.width, r.height).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 4) sum += 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
    return sum / (d.length / 4);
  }, r);
}

/** Luma (0–255) of each pixel of a region of the video's current picture, in remote-screen pixels (1280×720). */
export function lumaOf(video: Locator, r: Region): Promise<number[]> {
  return video.evaluate((v: HTMLVideoElement, r) => {
    const c = document.createElement('canvas');
    c.width = r.width;
    c.height = r.height;
    const g = c.getContext('2d', { willReadFrequently: true })!;
    g.drawImage(v, r.x * (v.videoWidth / 1280), r.y * (v.videoHeight / 720), r.width * (v.videoWidth / 1280), r.height * (v.videoHeight / 720), 0, 0, r.width, r.height); // prettier-ignore
    const d = g.getImageData(0, 0, r.width, r.height).data;
    const out: number[] = [];
    for (let i = 0; i < d.length; i += 4) out.push(0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!);
    return out;
  }, r);
}

/**
 * How many pixels differ by more than `delta` luma levels between two grabs of one region: a glyph changing
 * in a small text field moves the region's mean by less than one level but changes dozens of pixels.
 */
export function changedPixels(a: readonly number[], b: readonly number[], delta = 48): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - (b[i] ?? a[i]!)) > delta) n++;
  return n;
}

/**
 * The region's pixels once the picture has settled (two grabs 300 ms apart differ in at most 2 pixels): the
 * encoder sharpens a still picture over its first frames, which must not pass for a change made by input.
 */
export async function settledLuma(video: Locator, r: Region): Promise<number[]> {
  let last = await lumaOf(video, r);
  await expect
    .poll(
      async () => {
        await video.page().waitForTimeout(300);
        const next = await lumaOf(video, r);
        const n = changedPixels(last, next, 24);
        last = next;
        return n;
      },
      { timeout: 20_000 },
    )
    .toBeLessThanOrEqual(2);
  return last;
}

/** Waits until the video shows a decoded 1280×720 picture. */
export async function waitForPicture(video: Locator) {
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => `${v.videoWidth}x${v.videoHeight}`), {
      timeout: 30_000,
    })
    .toBe('1280x720');
}

/** Clicks the remote screen at remote pixel (x, y) of the 1280×720 picture. */
export async function clickRemote(page: Page, video: Locator, x: number, y: number) {
  const box = (await video.boundingBox())!;
  await page.mouse.click(box.x + (x / 1280) * box.width, box.y + (y / 720) * box.height);
}

/** A running Xvfb display with an X program on it. */
export interface XDisplay {
  display: string;
  stop(): void;
}

/** Starts Xvfb on a free display number (1280×720×24) and `program` on it; resolves once the display is up. */
export async function startXDisplay(program: string[]): Promise<XDisplay> {
  let n = 90 + Math.floor(Math.random() * 100);
  while (existsSync(`/tmp/.X${n}-lock`)) n++;
  const display = `:${n}`;
  const children: ChildProcess[] = [];
  const xvfb = spawn('Xvfb', [display, '-screen', '0', '1280x720x24', '-nolisten', 'tcp'], {
    stdio: 'ignore',
  });
  children.push(xvfb);
  // SIGTERM: Xvfb then removes its /tmp/.X<n>-lock and socket (SIGKILL leaves them behind for ever).
  const stop = () => {
    for (const c of children.reverse()) if (c.exitCode === null) c.kill('SIGTERM');
  };
  await expect.poll(() => existsSync(`/tmp/.X11-unix/X${n}`), { timeout: 10_000 }).toBe(true);
  const [cmd, ...args] = program;
  children.push(spawn(cmd!, args, { stdio: 'ignore', env: { ...process.env, DISPLAY: display } }));
  return { display, stop };
}
