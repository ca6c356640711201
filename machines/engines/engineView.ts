/**
 * Pure helpers of the engines feature (spec §9 device score; §5 GPU driver check; issue 10 "Choosing a device"):
 * which device the §9 score chooses, and what an image download's progress means. No XState, no I/O; the
 * console's engines page and other features (inference) import them.
 */
import { deviceScore, type UsagesLike } from '../metrics/metricsData';

export { deviceScore, type UsagesLike };

/** §9 "Chipset id 0 is x86". */
export const X86_CHIPSET_ID = '0';

/** §5 "GPU Driver check is just for x86 devices." */
export const GPU_DRIVER_X86_ONLY = 'GPU Driver check is just for x86 devices.';

/** A device and its §9 score (null: no usage read yet, or the device did not answer). */
export interface DeviceScore {
  deviceId: string;
  score: number | null;
}

/**
 * §9 scores of the devices from their live usage (get-usages), in the given order: 100 − (0.5 × GPU memory % +
 * 0.3 × GPU utilisation + 0.2 × CPU %), busiest GPU (metrics' deviceScore).
 */
export function scoresOf(
  deviceIds: readonly string[],
  usages: Readonly<Record<string, UsagesLike | null | undefined>>,
): DeviceScore[] {
  return deviceIds.map((deviceId) => {
    const u = usages[deviceId];
    return { deviceId, score: u ? deviceScore(u) : null };
  });
}

/**
 * §9 "the lowest score is chosen": the device with the lowest score among those with one; on a tie the first in
 * the given order; null when no device has a score.
 */
export function chooseDevice(scores: readonly DeviceScore[]): string | null {
  let best: DeviceScore | null = null;
  for (const s of scores) {
    if (s.score === null) continue;
    if (!best || s.score < best.score!) best = s;
  }
  return best?.deviceId ?? null;
}

/** The next download percent: a progress value never moves the bar back; out-of-range values are clamped. */
export function nextPercent(previous: number | null, reported: number): number {
  const p = Math.min(100, Math.max(0, Number.isFinite(reported) ? reported : 0));
  return previous === null ? p : Math.max(previous, p);
}
