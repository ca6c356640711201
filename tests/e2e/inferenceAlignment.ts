/**
 * What an application stream's overlay drew, checked against the video frame it was drawn on (issue 10
 * "drawn boxes vs truth", used by tests/e2e/inference.spec.ts and tests/bench/inference.ts).
 *
 * In the page, for each presented frame of the cell's <video> (requestVideoFrameCallback, registered after
 * the overlay's, so the overlay has drawn this frame already): when the overlay drew boxes for this very frame
 * (its `data-drawn` names the frame's RTP timestamp), the frame's pixels are read (drawImage) and, per drawn
 * box, the pixels of that object's colour (the synthetic scene's, known from its seed) are found in a window
 * around the box; their bounding box is the object's true place in the frame the user saw. The IoU of the
 * drawn box with it is the alignment: boxes of another frame, or misplaced, score low.
 */
import type { Page } from '@playwright/test';
import { createScene, hashSeed } from '../../src/agent/backends/sim/scene';

/** BT.601 limited-range Y, U, V bytes → RGB 0–255. */
export function yuvToRgb([y, u, v]: readonly [number, number, number]): [number, number, number] {
  const c = y - 16;
  const d = u - 128;
  const e = v - 128;
  const clamp = (n: number) => Math.max(0, Math.min(255, Math.round(n)));
  return [
    clamp(1.164 * c + 1.596 * e),
    clamp(1.164 * c - 0.392 * d - 0.813 * e),
    clamp(1.164 * c + 2.017 * d),
  ];
}

/** The RGB colour of each object of a sim camera's scene, by track id − 1 (SimCamera: uniqueId seeds it). */
export function sceneColors(deviceId: string, cameraIndex: number): [number, number, number][] {
  const scene = createScene(hashSeed(`sim-${deviceId}-cam-${cameraIndex}`));
  return scene.objects.map((o) => yuvToRgb(o.yuv));
}

export interface AlignmentSample {
  /** IoU of a drawn box with the object's pixels in the presented frame. */
  iou: number;
  /** performance.now() when the overlay drew it minus when its metadata arrived, ms. */
  latencyMs: number;
}

/**
 * Samples `frames` presented frames of the video in `cellSelector` that the overlay drew boxes on; returns one
 * sample per drawn box. Rejects after `timeoutMs`.
 */
export async function alignmentSamples(
  page: Page,
  cellSelector: string,
  colors: [number, number, number][],
  frames: number,
  timeoutMs = 20_000,
): Promise<{ samples: AlignmentSample[]; presented: number; drawnFrames: number }> {
  return page.evaluate(
    ({ cellSelector, colors, frames, timeoutMs }) =>
      new Promise((resolve, reject) => {
        const cell = document.querySelector(cellSelector);
        const video = cell?.querySelector('video') as HTMLVideoElement | null;
        const canvas = cell?.querySelector('[data-testid="inference-canvas"]') as
          (HTMLCanvasElement & { inferenceLog?: { rtp: number; arrival: number; drawnAt: number }[] }) | null;
        if (!video || !canvas) return reject(new Error('no video or overlay in the cell'));
        const off = document.createElement('canvas');
        const ctx = off.getContext('2d', { willReadFrequently: true })!;
        const samples: { iou: number; latencyMs: number }[] = [];
        let presented = 0;
        let drawnFrames = 0;
        const timer = setTimeout(() => reject(new Error(`only ${drawnFrames} drawn frames`)), timeoutMs);
        const step = (_now: number, meta: { rtpTimestamp?: number }) => {
          presented++;
          const drawn = canvas.dataset.drawn
            ? (JSON.parse(canvas.dataset.drawn) as {
                rtp: number;
                arrival: number;
                drawnAt: number;
                boxes: [number, number, number, number, string, number][];
              })
            : null;
          if (drawn && drawn.rtp === meta.rtpTimestamp && drawn.boxes.length > 0) {
            drawnFrames++;
            const W = video.videoWidth;
            const H = video.videoHeight;
            off.width = W;
            off.height = H;
            ctx.drawImage(video, 0, 0, W, H);
            const img = ctx.getImageData(0, 0, W, H).data;
            for (const [bx, by, bw, bh, , track] of drawn.boxes) {
              const color = colors[track - 1];
              if (!color) continue;
              const px = { x: bx * W, y: by * H, w: bw * W, h: bh * H };
              const x0 = Math.max(0, Math.floor(px.x - px.w * 0.5));
              const y0 = Math.max(0, Math.floor(px.y - px.h * 0.5));
              const x1 = Math.min(W, Math.ceil(px.x + px.w * 1.5));
              const y1 = Math.min(H, Math.ceil(px.y + px.h * 1.5));
              let minX = Infinity;
              let minY = Infinity;
              let maxX = -1;
              let maxY = -1;
              for (let y = y0; y < y1; y++) {
                for (let x = x0; x < x1; x++) {
                  const i = (y * W + x) * 4;
                  const d =
                    Math.abs(img[i]! - color[0]) +
                    Math.abs(img[i + 1]! - color[1]) +
                    Math.abs(img[i + 2]! - color[2]);
                  if (d < 70) {
                    if (x < minX) minX = x;
                    if (y < minY) minY = y;
                    if (x > maxX) maxX = x;
                    if (y > maxY) maxY = y;
                  }
                }
              }
              let iou = 0;
              if (maxX >= 0) {
                const t = { x: minX, y: minY, w: maxX - minX + 1, h: maxY - minY + 1 };
                const ix = Math.max(0, Math.min(px.x + px.w, t.x + t.w) - Math.max(px.x, t.x));
                const iy = Math.max(0, Math.min(px.y + px.h, t.y + t.h) - Math.max(px.y, t.y));
                const inter = ix * iy;
                iou = inter / (px.w * px.h + t.w * t.h - inter);
              }
              samples.push({ iou, latencyMs: drawn.drawnAt - drawn.arrival });
            }
          }
          if (drawnFrames >= frames) {
            clearTimeout(timer);
            resolve({ samples, presented, drawnFrames });
          } else video.requestVideoFrameCallback(step);
        };
        video.requestVideoFrameCallback(step);
      }),
    { cellSelector, colors, frames, timeoutMs },
  );
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
