/**
 * Recording and statistics of a playing stream — spec §2 "Recording state and status of a stream update the
 * page", §9 "Recorded video codec vp8", "Frame-rate interval 2000 ms"; issue 3 stats overlay (resolution,
 * frames per second, bitrate, round-trip time, packets lost, codec).
 *
 * - `startRecording(mediaStream, fileStem, onDone)`: a MediaRecorder with mimeType 'video/webm;codecs=vp8'
 *   (RECORDING_MIME_TYPE) on the cell's MediaStream. The returned `stop()` ends it; `onDone` then receives
 *   the file (object URL, bytes, mime type, name) or an error text. The stream machine owns the state; this
 *   only owns the MediaRecorder.
 * - `summariseStats(report, previous)`: the overlay's numbers from one RTCStatsReport (pure; bitrate and fps
 *   from the difference to the previous sample when the browser does not report them).
 */
import {
  RECORDING_MIME_TYPE,
  type RecordingFile,
  type StreamStats,
} from '../../../../machines/cameras/stream.machine';

/** Result of a recording: the file, or why there is none. */
export type RecordingOutcome = { ok: true; file: RecordingFile } | { ok: false; error: string };

/** A file name safe on every OS: the stem, then the local time. */
export function recordingFileName(stem: string, at: Date): string {
  const safe = stem.replace(/[^\w.-]+/g, '_').slice(0, 60) || 'camera';
  const stamp = at.toISOString().replace(/[:.]/g, '-').slice(0, 19);
  return `${safe}-${stamp}.webm`;
}

/**
 * Starts recording `mediaStream`. Returns `stop()` (idempotent). `onDone` is called exactly once.
 * Errors (no MediaRecorder, VP8 WebM not supported, recorder error) arrive through `onDone`.
 */
export function startRecording(
  mediaStream: MediaStream,
  fileStem: string,
  onDone: (outcome: RecordingOutcome) => void,
): () => void {
  let finished = false;
  const finish = (outcome: RecordingOutcome) => {
    if (finished) return;
    finished = true;
    onDone(outcome);
  };
  if (typeof MediaRecorder === 'undefined') {
    finish({ ok: false, error: 'This browser cannot record video.' });
    return () => undefined;
  }
  if (
    typeof MediaRecorder.isTypeSupported === 'function' &&
    !MediaRecorder.isTypeSupported(RECORDING_MIME_TYPE)
  ) {
    finish({ ok: false, error: 'This browser cannot record VP8 video.' });
    return () => undefined;
  }
  let recorder: MediaRecorder;
  try {
    recorder = new MediaRecorder(mediaStream, { mimeType: RECORDING_MIME_TYPE });
  } catch (error) {
    finish({ ok: false, error: error instanceof Error ? error.message : 'Recording failed.' });
    return () => undefined;
  }
  const chunks: Blob[] = [];
  const startedAt = new Date();
  recorder.addEventListener('dataavailable', (e) => {
    if (e.data.size > 0) chunks.push(e.data);
  });
  recorder.addEventListener('stop', () => {
    const blob = new Blob(chunks, { type: RECORDING_MIME_TYPE });
    if (blob.size === 0) {
      finish({ ok: false, error: 'Nothing was recorded.' });
      return;
    }
    finish({
      ok: true,
      file: {
        url: URL.createObjectURL(blob),
        bytes: blob.size,
        mimeType: RECORDING_MIME_TYPE,
        fileName: recordingFileName(fileStem, startedAt),
      },
    });
  });
  recorder.addEventListener('error', () => finish({ ok: false, error: 'Recording failed.' }));
  recorder.start(1_000); // a chunk per second, so a stop loses at most the last second
  return () => {
    if (recorder.state !== 'inactive') recorder.stop();
  };
}

/** The counters kept between two samples. */
export interface StatsMemo {
  atMs: number;
  bytesReceived: number;
  framesDecoded: number;
}

type AnyStat = Record<string, unknown> & { type: string; id: string };
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The overlay's numbers from one getStats() report. `previous` (the memo of the last call) gives bitrate and
 * fps by difference; returns the stats and the memo for the next call.
 */
export function summariseStats(
  report: Iterable<AnyStat> | { values(): Iterable<AnyStat> },
  previous: StatsMemo | null,
): { stats: StreamStats; memo: StatsMemo | null } {
  // An RTCStatsReport is map-like (not a Map): read its values.
  const all: AnyStat[] =
    'values' in report && typeof report.values === 'function'
      ? [...report.values()]
      : [...(report as Iterable<AnyStat>)];
  const byId = new Map(all.map((s) => [s.id, s]));
  const inbound = all.find(
    (s) => s.type === 'inbound-rtp' && (s.kind === 'video' || s.mediaType === 'video'),
  );
  const pair =
    all.find((s) => s.type === 'candidate-pair' && s.nominated === true && s.state === 'succeeded') ??
    all.find((s) => s.type === 'candidate-pair' && s.selected === true);
  const rtt = num(pair?.currentRoundTripTime);
  const codecStat = inbound && typeof inbound.codecId === 'string' ? byId.get(inbound.codecId) : undefined;
  const mime = typeof codecStat?.mimeType === 'string' ? codecStat.mimeType : null;
  const stats: StreamStats = {
    width: num(inbound?.frameWidth),
    height: num(inbound?.frameHeight),
    fps: num(inbound?.framesPerSecond),
    bitrateKbps: null,
    rttMs: rtt === null ? null : Math.round(rtt * 1000),
    packetsLost: num(inbound?.packetsLost),
    codec: mime ? mime.replace(/^video\//i, '') : null,
  };
  if (!inbound) return { stats, memo: null };
  const atMs = num(inbound.timestamp) ?? Date.now();
  const bytesReceived = num(inbound.bytesReceived) ?? 0;
  const framesDecoded = num(inbound.framesDecoded) ?? 0;
  if (previous && atMs > previous.atMs) {
    const seconds = (atMs - previous.atMs) / 1000;
    stats.bitrateKbps = Math.max(
      0,
      Math.round(((bytesReceived - previous.bytesReceived) * 8) / 1000 / seconds),
    );
    if (stats.fps === null) {
      stats.fps = Math.max(0, Math.round(((framesDecoded - previous.framesDecoded) / seconds) * 10) / 10);
    }
  }
  return { stats, memo: { atMs, bytesReceived, framesDecoded } };
}

/**
 * Polls `getPc()`'s stats every `intervalMs` and reports the summary; returns the stop function. A missing
 * peer connection or a failed getStats() skips that round.
 */
export function pollStreamStats(
  getPc: () => RTCPeerConnection | null,
  intervalMs: number,
  onStats: (stats: StreamStats) => void,
): () => void {
  let memo: StatsMemo | null = null;
  let stopped = false;
  const tick = async () => {
    const pc = getPc();
    if (!pc) return;
    try {
      const report = (await pc.getStats()) as unknown as { values(): Iterable<AnyStat> };
      if (stopped) return;
      const out = summariseStats(report, memo);
      memo = out.memo;
      onStats(out.stats);
    } catch {
      // closed between two ticks: the next tick or the machine deals with it
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
