/**
 * Non-maximum suppression (issue 10 "non-maximum suppression"): greedy, per class, highest score first, as
 * Ultralytics' `non_max_suppression` does by default (IoU 0.45, at most 300 detections, at most 30 000
 * candidates considered). Pure.
 */
import type { Candidate } from './decode';

/** Default IoU above which a lower-scored box of the same class is dropped. */
export const NMS_IOU = 0.45;
/** Default maximum number of detections kept per frame. */
export const NMS_MAX_DETECTIONS = 300;
/** Candidates considered at most (the highest scored). */
export const NMS_MAX_CANDIDATES = 30_000;

type Corners = Pick<Candidate, 'x1' | 'y1' | 'x2' | 'y2'>;

/** Intersection over union of two boxes given by corners; 0 when either is empty. */
export function iou(a: Corners, b: Corners): number {
  const iw = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
  const ih = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
  if (iw <= 0 || ih <= 0) return 0;
  const inter = iw * ih;
  const union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter;
  return union > 0 ? inter / union : 0;
}

export interface NmsOptions {
  /** Drop a box whose IoU with a kept box of the same class is above this (default NMS_IOU). */
  iouThreshold?: number;
  /** Keep at most this many (default NMS_MAX_DETECTIONS). */
  maxDetections?: number;
  /** Suppress across classes too (default false: per class). */
  classAgnostic?: boolean;
}

/**
 * The candidates NMS keeps, highest score first. Equal scores keep their input order (stable), so the result
 * is deterministic.
 */
export function nonMaxSuppression(candidates: readonly Candidate[], options: NmsOptions = {}): Candidate[] {
  const threshold = options.iouThreshold ?? NMS_IOU;
  const max = options.maxDetections ?? NMS_MAX_DETECTIONS;
  const order = candidates
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.score - a.c.score || a.i - b.i)
    .slice(0, NMS_MAX_CANDIDATES)
    .map((e) => e.c);
  const kept: Candidate[] = [];
  for (const c of order) {
    if (kept.length >= max) break;
    let suppressed = false;
    for (const k of kept) {
      if ((options.classAgnostic || k.classId === c.classId) && iou(k, c) > threshold) {
        suppressed = true;
        break;
      }
    }
    if (!suppressed) kept.push(c);
  }
  return kept;
}
