/**
 * I420 frame → PNG data URL for still pictures of cameras (§2 camera chooser "with photos").
 * A reply on the device link must stay under PeerJS's JSON message limit (MAX_MESSAGE_BYTES), so the picture
 * is encoded at the largest size that fits: full size, then halved (box filter) down to 80 px wide, and as a
 * last resort in greyscale.
 */
import { PNG } from 'pngjs';
import type { I420Frame } from '../backends/types';
import { nonstandard } from '../wrtc';

/** Room for the data URL inside one reply (the reply envelope takes the rest of MAX_MESSAGE_BYTES). */
export const SNAPSHOT_MAX_CHARS = 15_000;

/** Encodes an I420 frame as `data:image/png;base64,…` (RGB, converted by libwebrtc's libyuv). */
export function i420ToPngDataUrl(frame: I420Frame, grey = false): string {
  const { width, height } = frame;
  let png: Buffer;
  if (grey) {
    const out = new PNG({
      width,
      height,
      colorType: 0,
      inputColorType: 0,
      inputHasAlpha: false,
      deflateLevel: 9,
    });
    out.data = Buffer.from(frame.data.buffer, frame.data.byteOffset, width * height);
    png = PNG.sync.write(out, { colorType: 0, inputColorType: 0, inputHasAlpha: false, deflateLevel: 9 });
  } else {
    const rgba = new Uint8ClampedArray(width * height * 4);
    nonstandard.i420ToRgba(frame, { width, height, data: rgba as unknown as Uint8Array });
    const out = new PNG({
      width,
      height,
      colorType: 2,
      inputColorType: 6,
      inputHasAlpha: true,
      deflateLevel: 9,
    });
    out.data = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
    png = PNG.sync.write(out, { colorType: 2, inputColorType: 6, inputHasAlpha: true, deflateLevel: 9 });
  }
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** Halves an I420 frame (2×2 box filter); sizes must stay even. */
export function halveI420(frame: I420Frame): I420Frame {
  const w = frame.width >> 1;
  const h = frame.height >> 1;
  const out: I420Frame = { width: w, height: h, data: new Uint8Array((w * h * 3) / 2) };
  const plane = (src: number, sw: number, sh: number, dst: number) => {
    const dw = sw >> 1;
    const dh = sh >> 1;
    for (let y = 0; y < dh; y++) {
      for (let x = 0; x < dw; x++) {
        const i = src + 2 * y * sw + 2 * x;
        const s =
          (frame.data[i] as number) +
          (frame.data[i + 1] as number) +
          (frame.data[i + sw] as number) +
          (frame.data[i + sw + 1] as number);
        out.data[dst + y * dw + x] = (s + 2) >> 2;
      }
    }
  };
  const ySize = frame.width * frame.height;
  plane(0, frame.width, frame.height, 0);
  plane(ySize, frame.width >> 1, frame.height >> 1, w * h);
  plane(ySize + (ySize >> 2), frame.width >> 1, frame.height >> 1, w * h + ((w * h) >> 2));
  return out;
}

/**
 * The best still picture of `frame` within `maxChars`: the largest colour PNG that fits, halving while the
 * width stays ≥ 80 px and sizes stay even; else a greyscale PNG of the smallest size.
 */
export function snapshotDataUrl(
  frame: I420Frame,
  maxChars = SNAPSHOT_MAX_CHARS,
): { image: string; width: number; height: number } {
  let f = frame;
  for (;;) {
    const image = i420ToPngDataUrl(f);
    if (image.length <= maxChars) return { image, width: f.width, height: f.height };
    const w = f.width >> 1;
    const h = f.height >> 1;
    if (w < 80 || w % 2 || h % 2) break;
    f = halveI420(f);
  }
  return { image: i420ToPngDataUrl(f, true), width: f.width, height: f.height };
}
