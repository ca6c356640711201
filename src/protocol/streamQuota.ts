/** The device's own stream quota (issue 15), zod-free so the console's stream cells read it without zod. */

/**
 * A send-sdp refused because the device already sends as many streams as its quota allows (issue 15: the device
 * enforces its own quota, the server's `max_streams`, README "Stream quota"). Its message is
 * `streamQuotaMessage(max)`; the console shows it in the interface language (`parseStreamQuotaMessage`).
 */
export const STREAM_QUOTA_ERROR = 'stream_quota_exceeded';
/** The device's words for STREAM_QUOTA_ERROR: its quota in streams. */
export const streamQuotaMessage = (max: number): string =>
  `Stream quota reached: this device sends at most ${max} streams at once. Close a stream first.`;
/** The quota named by a streamQuotaMessage, or null for any other text. */
export function parseStreamQuotaMessage(text: string | null | undefined): number | null {
  const m = /^Stream quota reached: this device sends at most (\d+) streams at once\./.exec(text ?? '');
  return m ? Number(m[1]) : null;
}
