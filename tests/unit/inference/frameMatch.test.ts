/**
 * Matching detections to frames by RTP timestamp (src/console/features/inference/frameMatch.ts): the offset is
 * found among the candidates one frame interval apart by the lag between a frame's arrival and its
 * metadata's, even when frames are perfectly evenly paced; a frame is drawn only with its own metadata; a new
 * RTP stream (another offset) is found again.
 */
import { describe, expect, it } from 'vitest';
import { FrameMatcher } from '../../../src/console/features/inference/frameMatch';

/** Frames every 33 or 34 ms (evenly paced), device clock t; RTP = offset + 90·floor(t). */
function simulate(opts: {
  offset: number;
  videoLagMs: number;
  count: number;
  drop?: (i: number) => boolean;
  start?: number;
  /** How late the browser's busy main thread sees metadata i, ms (the frame's receive time is not delayed). */
  mainThreadDelay?: (i: number) => number;
}) {
  const m = new FrameMatcher<number>();
  let hits = 0;
  let wrong = 0;
  const t0 = opts.start ?? 1_000_000.25;
  for (let i = 0; i < opts.count; i++) {
    const t = t0 + i * (1000 / 30);
    const arrival = 5_000 + (t - t0) + 1; // metadata: 1 ms after the frame went to the encoder
    if (!opts.drop?.(i)) m.addMeta(t, arrival + (opts.mainThreadDelay?.(i) ?? 0), i);
    const rtp = (opts.offset + 90 * Math.floor(t)) >>> 0;
    const got = m.match({ rtp, receiveTime: arrival + opts.videoLagMs + (i % 3) });
    if (got === i) hits++;
    else if (got !== null) wrong++;
  }
  return { hits, wrong, m };
}

describe('FrameMatcher', () => {
  it('locks on the true offset and never draws another frame’s boxes (evenly paced frames)', () => {
    for (const lag of [3, 10, 18]) {
      const { hits, wrong } = simulate({ offset: 123_456_789, videoLagMs: lag, count: 120 });
      expect(wrong, `lag ${lag}`).toBe(0);
      expect(hits, `lag ${lag}`).toBeGreaterThan(100);
    }
  });

  it('locks on the true offset when a busy main thread sees most metadata late (a loaded machine)', () => {
    // Four messages in five are seen 25–54 ms late; the frames' receive times are the network thread's, exact.
    const { hits, wrong } = simulate({
      offset: 987_654_321,
      videoLagMs: 6,
      count: 120,
      mainThreadDelay: (i) => (i % 5 === 0 ? 0 : 25 + ((i * 7) % 30)),
    });
    expect(wrong).toBe(0);
    expect(hits).toBeGreaterThan(80);
  });

  it('handles the 32-bit wrap of RTP timestamps', () => {
    const { hits, wrong } = simulate({ offset: 2 ** 32 - 90 * 1_000_100, videoLagMs: 8, count: 90 });
    expect(wrong).toBe(0);
    expect(hits).toBeGreaterThan(70);
  });

  it('draws nothing for a frame whose metadata was lost', () => {
    const { hits, wrong, m } = simulate({ offset: 42, videoLagMs: 8, count: 90, drop: (i) => i % 10 === 5 });
    expect(wrong).toBe(0);
    expect(hits).toBeGreaterThan(60);
    expect(m.stats.unmatched).toBeGreaterThan(5);
  });
});
