/**
 * Matching detections to video frames by timestamp (issue 10 "detections drawn by the console on a canvas over
 * the video, matched to frames by timestamp (metadata over a data channel, not burnt into pixels)").
 *
 * The device stamps each inferred frame's metadata with `t`, its monotonic clock in ms when the frame went to
 * the video source — the clock libwebrtc stamps the frame with, so the frame's RTP timestamp is
 * `offset + 90 × floor(t)` (mod 2^32, 90 kHz video clock) with one unknown constant `offset` per RTP stream.
 * The browser sees each presented frame's `rtpTimestamp` and `receiveTime` (requestVideoFrameCallback metadata).
 *
 * Finding `offset`: every pair (recent frame, recent metadata) proposes `rtp − 90·floor(t)`; the true offset is
 * proposed by (nearly) every frame, but so are offsets one or more frame intervals off (frames are evenly
 * paced). Those differ in the lag `receiveTime − arrival` between a frame's last packet and its metadata: with
 * the true offset it is the encode-and-send time of the video (metadata leaves as the frame is handed to the
 * encoder), one frame interval less for the next offset, and so on. The offset chosen is the well-supported one
 * whose 90th-percentile lag lies in [LAG_LOW_MS, LAG_LOW_MS + one frame interval). The high percentile, because
 * the noise is one-sided: a frame's receive time is the network thread's, exact, while a metadata message is
 * timed when the main thread gets to it, late when it is busy (a loaded machine), which only lowers the lag;
 * the messages seen promptly carry the true lag (a low percentile locked one frame off under load). Once locked, a frame is drawn only with the metadata whose `t` matches its RTP timestamp within
 * MATCH_TOLERANCE_TICKS; a frame without one is drawn with no boxes (never another frame's). When frames stop
 * matching while metadata flows, the offset is found again (a new RTP stream).
 */

/** One metadata entry as the matcher keeps it: device time `t`, browser arrival time (ms, performance.now). */
export interface MetaSample<T> {
  t: number;
  arrival: number;
  value: T;
}

/** One presented frame: its RTP timestamp and when its last packet arrived (ms, performance.now clock). */
export interface FrameSample {
  rtp: number;
  receiveTime: number;
}

/** ±1.5 ms of the 90 kHz clock: t is floored to ms by libwebrtc, and read a few µs apart. */
export const MATCH_TOLERANCE_TICKS = 135;
/** Lowest 90th-percentile lag accepted, ms (even the promptly seen metadata may be seen a little late). */
export const LAG_LOW_MS = -12;
/** Frames kept for finding the offset, and metadata kept, ms. */
const FRAMES_KEPT = 60;
const META_KEPT_MS = 3000;
/** Frames needed before an offset is chosen. */
export const FRAMES_TO_LOCK = 12;
/** Unmatched frames in a row (with metadata flowing) that make the matcher look for the offset again. */
const UNMATCHED_TO_RELOCK = 15;

const U32 = 2 ** 32;
const wrap = (n: number) => ((n % U32) + U32) % U32;
/** Signed distance of two 32-bit timestamps. */
export const tickDistance = (a: number, b: number) => {
  const d = wrap(a - b);
  return d >= U32 / 2 ? d - U32 : d;
};

export interface MatchStats {
  matched: number;
  unmatched: number;
  locks: number;
}

export class FrameMatcher<T> {
  private meta: MetaSample<T>[] = [];
  private frames: FrameSample[] = [];
  private offset: number | null = null;
  private unmatchedRun = 0;
  readonly stats: MatchStats = { matched: 0, unmatched: 0, locks: 0 };

  /** `intervalMs`: the stream's frame interval (1000 / fps). */
  constructor(private intervalMs = 1000 / 30) {}

  /** The current offset, or null while unknown. */
  get locked(): number | null {
    return this.offset;
  }

  setInterval(ms: number): void {
    if (ms > 0 && Number.isFinite(ms)) this.intervalMs = ms;
  }

  /** Adds a metadata entry (arrival: performance.now() when it arrived). */
  addMeta(t: number, arrival: number, value: T): void {
    this.meta.push({ t, arrival, value });
    const oldest = arrival - META_KEPT_MS;
    let drop = 0;
    while (drop < this.meta.length && this.meta[drop]!.arrival < oldest) drop++;
    if (drop) this.meta.splice(0, drop);
  }

  /**
   * The metadata of a presented frame, or null (no offset yet, or no metadata for this frame). Call once per
   * presented frame.
   */
  match(frame: FrameSample): T | null {
    this.frames.push(frame);
    if (this.frames.length > FRAMES_KEPT) this.frames.shift();
    if (this.offset === null && this.frames.length >= FRAMES_TO_LOCK) this.lock();
    if (this.offset === null) return null;
    const found = this.find(frame.rtp, this.offset);
    if (found) {
      this.unmatchedRun = 0;
      this.stats.matched++;
      return found.value;
    }
    this.stats.unmatched++;
    if (++this.unmatchedRun >= UNMATCHED_TO_RELOCK && this.meta.length > 0) {
      this.offset = null;
      this.unmatchedRun = 0;
      this.lock();
    }
    return null;
  }

  private find(rtp: number, offset: number): MetaSample<T> | null {
    let best: MetaSample<T> | null = null;
    let bestD = MATCH_TOLERANCE_TICKS + 1;
    for (const m of this.meta) {
      const d = Math.abs(tickDistance(rtp, offset + 90 * Math.floor(m.t)));
      if (d < bestD) {
        bestD = d;
        best = m;
      }
    }
    return best;
  }

  /** Chooses the offset (see the module comment); leaves it null when no candidate is well supported. */
  private lock(): void {
    const groups = new Map<number, { offset: number; frames: Set<number>; lags: number[] }>();
    const bucket = 180; // 2 ms
    this.frames.forEach((f, i) => {
      for (const m of this.meta) {
        if (Math.abs(f.receiveTime - m.arrival) > 1000) continue;
        const off = wrap(f.rtp - 90 * Math.floor(m.t));
        const key = Math.round(off / bucket);
        let g = groups.get(key) ?? groups.get(key - 1) ?? groups.get(key + 1);
        if (!g) {
          g = { offset: off, frames: new Set(), lags: [] };
          groups.set(key, g);
        }
        if (!g.frames.has(i)) {
          g.frames.add(i);
          g.lags.push(f.receiveTime - m.arrival);
        }
      }
    });
    const need = Math.max(FRAMES_TO_LOCK / 2, this.frames.length * 0.5);
    const candidates = [...groups.values()].filter((g) => g.frames.size >= need);
    if (candidates.length === 0) return;
    const p90 = (g: { lags: number[] }) => {
      const s = [...g.lags].sort((a, b) => a - b);
      return s[Math.floor(s.length * 0.9)]!;
    };
    const high = LAG_LOW_MS + this.intervalMs;
    const inWindow = candidates.filter((g) => p90(g) >= LAG_LOW_MS && p90(g) < high);
    const pick = (inWindow.length ? inWindow : candidates).reduce((a, b) =>
      Math.abs(p90(a) - (LAG_LOW_MS + high) / 2) <= Math.abs(p90(b) - (LAG_LOW_MS + high) / 2) ? a : b,
    );
    this.offset = pick.offset;
    this.stats.locks++;
  }
}
