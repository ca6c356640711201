/**
 * The metrics feature's device calls (§7 get-metrics-info, change-save-metrics-info, get-usages) over the
 * peer link, typed by the command registry. Failures reject with DeviceCommandError { code, message }
 * (platform/): link_closed, timeout, invalid_payload, bad_range, too_many_samples.
 */
import {
  asHistoryChunk,
  assembleHistory,
  type HistoryChunk,
  type HistoryData,
  type SaveSettings,
  type UsagesLike,
} from '../../../../machines/metrics/metricsData';
import type { CallDevice } from '../../platform/peerLink';

/** Time allowed without a word from the device while a history arrives (each chunk restarts it), ms. */
const HISTORY_SILENCE_MS = 15_000;

export function metricsCommands(call: CallDevice) {
  return {
    /**
     * get-metrics-info for `from` … `to` (ms) in ≤ maxPoints buckets: the chunks (progress messages) are
     * collected, checked and put together with the reply's layout.
     */
    async history(deviceId: string, from: number, to: number, maxPoints: number): Promise<HistoryData> {
      const chunks: HistoryChunk[] = [];
      let bad = false;
      const layout = await call(
        deviceId,
        'get-metrics-info',
        { from: Math.round(from), to: Math.round(to), maxPoints },
        {
          timeoutMs: HISTORY_SILENCE_MS,
          onProgress: (data) => {
            const chunk = asHistoryChunk(data);
            if (chunk) chunks.push(chunk);
            else bad = true;
          },
        },
      );
      if (bad) throw new Error('The device answered the history incompletely.');
      return assembleHistory(layout, chunks);
    },
    /** get-usages → the device's usage now (§3 usage data). */
    async usages(deviceId: string): Promise<UsagesLike> {
      return call(deviceId, 'get-usages', {});
    },
    /** change-save-metrics-info → the settings now in force. */
    async saveSettings(deviceId: string, settings: SaveSettings): Promise<SaveSettings> {
      return (await call(deviceId, 'change-save-metrics-info', settings)).settings;
    },
  };
}
