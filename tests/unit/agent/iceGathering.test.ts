/** The agent's bounded wait for ICE gathering before it answers (non-trickle), src/agent/streams/manager.ts. */
import { describe, expect, it, vi } from 'vitest';
import { HOST_CANDIDATES_SETTLE_MS, waitForIceGathering } from '../../../src/agent/streams/manager';

/** A peer connection that only gathers: candidates and the state are fired by the test. */
class GatheringPc extends EventTarget {
  iceGatheringState: RTCIceGatheringState = 'gathering';
  candidate(last = false) {
    const e = new Event('icecandidate') as Event & { candidate: unknown };
    e.candidate = last ? null : { candidate: 'candidate:1 1 udp 2122260223 192.0.2.1 50000 typ host' };
    this.dispatchEvent(e);
  }
  complete() {
    this.iceGatheringState = 'complete';
    this.dispatchEvent(new Event('icegatheringstatechange'));
  }
}

async function settledAfter(p: Promise<void>, ms: number): Promise<boolean> {
  let settled = false;
  void p.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe('waitForIceGathering', () => {
  it('with host candidates only, answers HOST_CANDIDATES_SETTLE_MS after the first candidate', async () => {
    vi.useFakeTimers();
    try {
      const pc = new GatheringPc();
      const wait = waitForIceGathering(pc as unknown as RTCPeerConnection, 5_000, true);
      expect(await settledAfter(wait, 1_000)).toBe(false); // no candidate yet
      pc.candidate();
      expect(await settledAfter(wait, HOST_CANDIDATES_SETTLE_MS - 1)).toBe(false);
      expect(await settledAfter(wait, 1)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with ICE servers, waits for gathering to complete (or the bound)', async () => {
    vi.useFakeTimers();
    try {
      const pc = new GatheringPc();
      const wait = waitForIceGathering(pc as unknown as RTCPeerConnection, 5_000);
      pc.candidate();
      expect(await settledAfter(wait, 1_000)).toBe(false);
      pc.complete();
      expect(await settledAfter(wait, 0)).toBe(true);

      const slow = new GatheringPc();
      const bounded = waitForIceGathering(slow as unknown as RTCPeerConnection, 5_000);
      expect(await settledAfter(bounded, 4_999)).toBe(false);
      expect(await settledAfter(bounded, 1)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends at the end-of-candidates event', async () => {
    vi.useFakeTimers();
    try {
      const pc = new GatheringPc();
      const wait = waitForIceGathering(pc as unknown as RTCPeerConnection, 5_000);
      pc.candidate(true);
      expect(await settledAfter(wait, 0)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
