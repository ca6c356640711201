/**
 * Remote desktop (issue 14, BENCH_ONLY=remote_desktop): input → changed pixels on screen. On a sim device's
 * desktop (real WebRTC track, real device link), Notes has the focus; each round dispatches one key on the
 * remote screen and waits, frame by frame (requestVideoFrameCallback), until the Notes field's pixels in the
 * <video> change. Target: p50 ≤ 100 ms on loopback.
 */
import type { Browser } from '@playwright/test';
import { connectDevice, navigate, signIn } from './page';
import { stats, type Stats } from './stats';

const ROUNDS = 24;

export interface RemoteDesktopBench {
  input_to_pixels_ms: Stats;
  rounds: number;
  met: { input_to_pixels_p50_le_100ms: boolean };
}

export async function benchRemoteDesktop(
  browser: Browser,
  url: string,
  who: { email: string; password: string },
  deviceId: string,
): Promise<RemoteDesktopBench> {
  const context = await browser.newContext();
  await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  const page = await context.newPage();
  try {
    await signIn(page, url, who);
    await connectDevice(page, deviceId);
    await navigate(page, `/control-panel/devices?device=${deviceId}&tab=desktop`);
    await page.getByTestId('remote-desktop-open').click();
    const video = page.getByTestId('remote-desktop-video');
    await page.waitForFunction(() => (document.querySelector('[data-testid="remote-desktop-video"]') as HTMLVideoElement | null)?.videoWidth === 1280, undefined, { timeout: 30_000 }); // prettier-ignore
    // Focus Notes (a click into its field), so typed keys land there.
    const box = (await video.boundingBox())!;
    await page.mouse.click(box.x + (300 / 1280) * box.width, box.y + (300 / 720) * box.height);
    await page.waitForTimeout(500);
    const samples: number[] = await page.evaluate(async (rounds) => {
      const v = document.querySelector('[data-testid="remote-desktop-video"]') as HTMLVideoElement;
      const screen = document.querySelector('[data-testid="remote-desktop-screen"]') as HTMLElement;
      screen.focus();
      const c = document.createElement('canvas');
      c.width = 640;
      c.height = 40;
      const g = c.getContext('2d', { willReadFrequently: true })!;
      // The Notes field's first text line (remote pixels 96..736 × 112..152 of 1280×720).
      const grab = () => {
        g.drawImage(v, 96, 112, 640, 40, 0, 0, 640, 40);
        return g.getImageData(0, 0, 640, 40).data;
      };
      /** More than `min` pixels whose red channel moved by over 40 levels (a new 'W' at scale 3 changes ~150). */
      const differs = (a: Uint8ClampedArray, b: Uint8ClampedArray, min = 20) => {
        let n = 0;
        for (let i = 0; i < a.length; i += 4) if (Math.abs(a[i]! - b[i]!) > 40) n++;
        return n > min;
      };
      const out: number[] = [];
      const nextFrame = () => new Promise<void>((resolve) => v.requestVideoFrameCallback(() => resolve()));
      /** The region once two decoded frames in a row match: the encoder sharpens a new glyph over a few frames
       *  after a change, and that refinement must not pass for the next round's change. */
      const settled = async () => {
        let last = grab();
        for (let i = 0; i < 60; i++) {
          await nextFrame();
          const next = grab();
          if (!differs(last, next, 8)) return next;
          last = next;
        }
        return last;
      };
      for (let r = 0; r < rounds; r++) {
        const before = await settled();
        const t0 = performance.now();
        screen.dispatchEvent(new KeyboardEvent('keydown', { key: 'W', bubbles: true, cancelable: true }));
        const t1 = await new Promise<number>((resolve) => {
          const step = () =>
            v.requestVideoFrameCallback(() => {
              if (differs(before, grab())) resolve(performance.now());
              else if (performance.now() - t0 > 5_000) resolve(NaN);
              else step();
            });
          step();
        });
        out.push(t1 - t0);
        await new Promise((res) => setTimeout(res, 150));
      }
      return out;
    }, ROUNDS);
    const ok = samples.filter((s) => Number.isFinite(s));
    const s = stats(ok);
    return { input_to_pixels_ms: s, rounds: ok.length, met: { input_to_pixels_p50_le_100ms: s.p50 <= 100 } };
  } finally {
    await context.close();
  }
}
