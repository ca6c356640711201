/**
 * Decoding YOLO-family detector outputs (issue 10 "decode YOLO-family outputs, non-maximum suppression,
 * threshold"). Pure. Two layouts, as Ultralytics exports them:
 * - **YOLOv8** (also YOLO11, v9): one output `[1, 4 + C, N]` — per candidate cx, cy, w, h (input pixels), then
 *   C class scores (already sigmoid); no objectness. Its transpose `[1, N, 4 + C]` is read too.
 * - **YOLOv5** (also v7): one output `[1, N, 5 + C]` — cx, cy, w, h, objectness, C class scores; a candidate's
 *   score is objectness × class score.
 * Which one a `[1, A, B]` output is, for a model with C class names: the axis of 4 + C values (YOLOv8) or 5 + C
 * (YOLOv5) holds a candidate's values (the shorter one when both fit). With C unknown: A < B is YOLOv8's
 * attribute-major `[1, 4 + C, N]`, otherwise rows of YOLOv5. NMS-free
 * end-to-end heads (YOLOv10 `[1, N, 6]`) and segmentation/pose outputs are not supported (UnsupportedOutputError).
 */

export class UnsupportedOutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedOutputError';
  }
}

/** How an output tensor holds candidates. */
export interface OutputLayout {
  kind: 'yolov8' | 'yolov5';
  /** true: `[1, K, N]` (attribute-major, YOLOv8's export); false: `[1, N, K]` (one row per candidate). */
  attributeMajor: boolean;
  /** Values per candidate (4 + C or 5 + C). */
  attributes: number;
  /** Number of candidates N. */
  candidates: number;
  /** Number of classes C. */
  classes: number;
}

/**
 * The layout of an output of shape `dims` (`[1, A, B]` or `[A, B]`) for a model with `classCount` class names
 * (null: unknown). Throws UnsupportedOutputError for other shapes or a class count that fits neither layout.
 */
export function outputLayout(dims: readonly number[], classCount: number | null): OutputLayout {
  const d = dims.length === 3 && dims[0] === 1 ? dims.slice(1) : dims;
  if (d.length !== 2 || !d.every((n) => Number.isInteger(n) && n > 0)) {
    throw new UnsupportedOutputError(`Expected a YOLO output [1, A, B], got [${dims.join(', ')}]`);
  }
  const [a, b] = d as [number, number];
  const fits = (k: number) => classCount !== null && (k === 4 + classCount || k === 5 + classCount);
  if (classCount !== null && !fits(a) && !fits(b)) {
    throw new UnsupportedOutputError(
      `The output [${dims.join(', ')}] has no axis of ${4 + classCount} (YOLOv8) or ${5 + classCount} (YOLOv5) values for ${classCount} classes`,
    );
  }
  // The axis holding a candidate's values: the one that fits the class count, else the shorter one.
  const attributeMajor = fits(a) && fits(b) ? a < b : classCount !== null ? fits(a) : a < b;
  const attributes = attributeMajor ? a : b;
  const candidates = attributeMajor ? b : a;
  const kind: OutputLayout['kind'] =
    classCount !== null
      ? attributes === 4 + classCount
        ? 'yolov8'
        : 'yolov5'
      : attributeMajor
        ? 'yolov8'
        : 'yolov5';
  const classes = attributes - (kind === 'yolov8' ? 4 : 5);
  if (classes < 1)
    throw new UnsupportedOutputError(`${attributes} values per candidate leave no class scores`);
  return { kind, attributeMajor, attributes, candidates, classes };
}

/** One candidate above the threshold, corners in input pixels. */
export interface Candidate {
  classId: number;
  score: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** Candidates of `data` (the output, row-major over its dims) whose score is at least `threshold`. */
export function decodeYolo(data: ArrayLike<number>, layout: OutputLayout, threshold: number): Candidate[] {
  const { attributes: K, candidates: N, kind, attributeMajor } = layout;
  if (data.length < K * N) throw new RangeError(`decode: ${data.length} values, the layout needs ${K * N}`);
  const at = attributeMajor
    ? (i: number, k: number) => data[k * N + i]!
    : (i: number, k: number) => data[i * K + k]!;
  const first = kind === 'yolov8' ? 4 : 5;
  const out: Candidate[] = [];
  for (let i = 0; i < N; i++) {
    const objectness = kind === 'yolov5' ? at(i, 4) : 1;
    if (objectness < threshold) continue; // a product with a class score ≤ 1 cannot reach it
    let best = first;
    let bestScore = at(i, first);
    for (let k = first + 1; k < K; k++) {
      const s = at(i, k);
      if (s > bestScore) {
        bestScore = s;
        best = k;
      }
    }
    const score = objectness * bestScore;
    if (!(score >= threshold) || score <= 0) continue;
    const cx = at(i, 0);
    const cy = at(i, 1);
    const w = at(i, 2);
    const h = at(i, 3);
    if (!(w > 0 && h > 0)) continue;
    out.push({
      classId: best - first,
      score,
      x1: cx - w / 2,
      y1: cy - h / 2,
      x2: cx + w / 2,
      y2: cy + h / 2,
    });
  }
  return out;
}
