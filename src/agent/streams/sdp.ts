/**
 * SDP edits the agent makes to a browser's offer before answering it. wrtc's RTCRtpSender.setParameters
 * rejects every call (InvalidStateError in @roamhq/wrtc 0.10), so the send limits are set through the offer:
 * libwebrtc caps what it sends at the `b=AS` (kbit/s) of the remote description's media section.
 */
import type { ResolutionOption } from '../../protocol';

/** Bits per pixel per frame of the send cap: 0.13 gives 1.2 Mbit/s at 640×480@30. */
const CAP_BITS_PER_PIXEL = 0.13;

/**
 * The per-stream send cap for a resolution, kbit/s: width × height × fps × 0.13 bit, within 200–4 000
 * (640×480@30 → 1 198, 1280×720@30 → 3 594, 320×240@30 → 300). Without a cap libwebrtc's bandwidth
 * probing on loopback made streams stall for whole seconds under CPU load (tests/bench/agentStreams.ts).
 */
export function maxVideoKbps(r: ResolutionOption): number {
  const kbps = Math.round((r.width * r.height * r.fps * CAP_BITS_PER_PIXEL) / 1000);
  return Math.min(4_000, Math.max(200, kbps));
}

/**
 * The offer with `b=AS:<maxKbps>` on every video section (replacing any b=AS / b=TIAS the browser put
 * there), so the agent sends at most `maxKbps` kbit/s per stream. Other sections are untouched; line endings
 * are kept. `maxKbps` must be a positive integer.
 */
export function capVideoBitrate(sdp: string, maxKbps: number): string {
  if (!Number.isInteger(maxKbps) || maxKbps <= 0) throw new Error(`maxKbps must be a positive integer`);
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const lines = sdp.split(/\r?\n/);
  const out: string[] = [];
  let inVideo = false;
  let pendingBandwidth = false;
  for (const line of lines) {
    if (line.startsWith('m=')) {
      inVideo = line.startsWith('m=video');
      pendingBandwidth = inVideo;
    }
    if (inVideo && (line.startsWith('b=AS:') || line.startsWith('b=TIAS:'))) continue;
    out.push(line);
    // RFC 4566 order: m=, i=, c=, b=; put b= right after the section's c= line.
    if (pendingBandwidth && line.startsWith('c=')) {
      out.push(`b=AS:${maxKbps}`);
      pendingBandwidth = false;
    }
  }
  return out.join(eol);
}

/**
 * Why an offer cannot be answered, checked before any peer connection is made for it; null when it may be.
 * libwebrtc refuses an offer without a video section, ICE credentials or a DTLS fingerprint anyway, but only
 * after a peer connection (threads, sockets) was made and a track taken for it; a link sending such offers by
 * the dozen (the fuzz "link churn") then kept the agent busy long enough for its answers to meet the link's
 * close (see src/agent/wrtc.ts: a send racing a closing data channel crashes wrtc).
 */
export function offerProblem(sdp: string): string | null {
  const lines = sdp.split(/\r?\n/);
  if (!lines.some((l) => l.startsWith('m=video'))) return 'The offer has no video section';
  const has = (prefix: string) => lines.some((l) => l.startsWith(prefix));
  if (!has('a=ice-ufrag:') || !has('a=ice-pwd:')) return 'The offer has no ICE credentials';
  if (!has('a=fingerprint:')) return 'The offer has no DTLS fingerprint';
  return null;
}
