/**
 * Detections over an application stream's video (issue 10; §3 Stream application flag): a canvas laid over
 * the <video> of a grid cell or the stream modal, drawn once per presented frame (requestVideoFrameCallback)
 * with the detections whose metadata matches that frame's RTP timestamp (frameMatch.ts) — never another
 * frame's; a frame without matching metadata is drawn empty. Labels and scores can be switched off. Rendered
 * by the cameras feature for every cell; shows nothing unless the cell's device and camera run a started job.
 *
 * For tests and benches the canvas carries `data-drawn` (the last drawn frame: its capture wall time, device
 * time and boxes in 0..1) and `data-matched` / `data-unmatched`, and keeps `inferenceLog` (the last 600 drawn
 * frames with metadata arrival and draw times, performance.now ms).
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { InferenceMetadata } from '../../../protocol/inference';
import { overlayDeps } from './overlayDeps';
import { FrameMatcher } from './frameMatch';
import './i18n';
import { useStartedJobs } from './selectors';
import './inference.css';

/** One drawn frame as the log keeps it. */
export interface DrawnFrame {
  /** The presented frame's RTP timestamp. */
  rtp: number;
  wall: number;
  t: number;
  arrival: number;
  drawnAt: number;
  /** x, y, w, h in 0..1 of the frame, class name, track id. */
  boxes: [number, number, number, number, string, number][];
}

const COLORS = ['#ff3b30', '#34c759', '#0a84ff', '#ffd60a', '#bf5af2', '#64d2ff'];

type VideoWithCallback = HTMLVideoElement & {
  requestVideoFrameCallback?: (
    cb: (now: number, meta: { rtpTimestamp?: number; receiveTime?: number; presentedFrames: number }) => void,
  ) => number;
  cancelVideoFrameCallback?: (id: number) => void;
};

/** The rectangle the video's picture fills inside its element (object-fit: contain), CSS pixels. */
export function contentRect(
  elementW: number,
  elementH: number,
  videoW: number,
  videoH: number,
): { x: number; y: number; w: number; h: number } {
  if (!videoW || !videoH || !elementW || !elementH) return { x: 0, y: 0, w: elementW, h: elementH };
  const scale = Math.min(elementW / videoW, elementH / videoH);
  const w = videoW * scale;
  const h = videoH * scale;
  return { x: (elementW - w) / 2, y: (elementH - h) / 2, w, h };
}

export function InferenceOverlay({
  deviceId,
  cameraId,
  videoRef,
}: {
  deviceId: string;
  cameraId: string;
  videoRef: RefObject<HTMLVideoElement | null>;
}) {
  const jobs = useStartedJobs(deviceId, cameraId);
  const job = jobs[0];
  if (!job || !overlayDeps()) return null;
  return (
    <JobOverlay key={job.id} jobId={job.id} jobName={job.name} deviceId={deviceId} videoRef={videoRef} />
  );
}

function JobOverlay({
  jobId,
  jobName,
  deviceId,
  videoRef,
}: {
  jobId: string;
  jobName: string;
  deviceId: string;
  videoRef: RefObject<HTMLVideoElement | null>;
}) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [labels, setLabels] = useState(true);
  const [scores, setScores] = useState(true);
  const show = useRef({ labels: true, scores: true });
  show.current = { labels, scores };
  const [status, setStatus] = useState<{ error: string | null; count: number; ms: number | null }>({
    error: null,
    count: -1,
    ms: null,
  });

  useEffect(() => {
    const deps = overlayDeps();
    if (!deps) return;
    const matcher = new FrameMatcher<{ meta: InferenceMetadata; arrival: number }>();
    const log: DrawnFrame[] = [];
    let lastStatus = 0;
    const close = openMetadataChannelLazy(
      deps,
      { deviceId, jobId, callId: `meta-${jobId.slice(0, 8)}-${Math.random().toString(36).slice(2, 8)}` },
      (meta, arrival) => matcher.addMeta(meta.t, arrival, { meta, arrival }),
      (error) => setStatus((s) => ({ ...s, error })),
    );
    let frameCb = 0;
    let stopped = false;
    let watched: VideoWithCallback | null = null;
    const onFrame: Parameters<NonNullable<VideoWithCallback['requestVideoFrameCallback']>>[0] = (
      _now,
      info,
    ) => {
      if (stopped) return;
      const video = videoRef.current as VideoWithCallback | null;
      const canvas = canvasRef.current;
      if (video && canvas && info.rtpTimestamp !== undefined) {
        const hit = matcher.match({
          rtp: info.rtpTimestamp,
          receiveTime: info.receiveTime ?? performance.now(),
        });
        const drawnAt = performance.now();
        draw(canvas, video, hit?.meta ?? null, show.current);
        canvas.dataset.matched = String(matcher.stats.matched);
        canvas.dataset.unmatched = String(matcher.stats.unmatched);
        if (hit) {
          const entry: DrawnFrame = {
            rtp: info.rtpTimestamp,
            wall: hit.meta.wall,
            t: hit.meta.t,
            arrival: hit.arrival,
            drawnAt,
            boxes: hit.meta.detections.map((d) => [...d.box, d.class_name, d.track_id]),
          };
          log.push(entry);
          if (log.length > 600) log.shift();
          canvas.dataset.drawn = JSON.stringify(entry);
          (canvas as HTMLCanvasElement & { inferenceLog?: DrawnFrame[] }).inferenceLog = log;
          if (drawnAt - lastStatus > 500) {
            lastStatus = drawnAt;
            setStatus({ error: null, count: hit.meta.detections.length, ms: hit.meta.inference_ms });
          }
        }
      }
      if (video?.requestVideoFrameCallback) frameCb = video.requestVideoFrameCallback(onFrame);
    };
    // The <video> may mount after this effect (the modal's opening transition): wait for it.
    const waitVideo = setInterval(() => {
      const video = videoRef.current as VideoWithCallback | null;
      if (!video?.requestVideoFrameCallback) return;
      clearInterval(waitVideo);
      watched = video;
      frameCb = video.requestVideoFrameCallback(onFrame);
    }, 50);
    return () => {
      stopped = true;
      clearInterval(waitVideo);
      watched?.cancelVideoFrameCallback?.(frameCb);
      close();
    };
  }, [deviceId, jobId, videoRef]);

  return (
    <div className="inference-overlay" data-testid="inference-overlay" data-job={jobId}>
      <canvas
        ref={canvasRef}
        className="inference-canvas"
        role="img"
        aria-label={t('inference.overlay.boxes', { name: jobName })}
        data-testid="inference-canvas"
      />
      <div className="inference-tools">
        <button
          type="button"
          className="inference-toggle"
          aria-pressed={labels}
          onClick={() => setLabels((v) => !v)}
          data-testid="inference-labels"
        >
          {t('inference.overlay.labels')}
        </button>
        <button
          type="button"
          className="inference-toggle"
          aria-pressed={scores}
          onClick={() => setScores((v) => !v)}
          data-testid="inference-scores"
        >
          {t('inference.overlay.scores')}
        </button>
        <span className="inference-status" role="status" data-testid="inference-status">
          {status.error
            ? t('inference.overlay.unavailable', { error: status.error })
            : status.count < 0
              ? t('inference.overlay.waiting')
              : t('inference.overlay.stats', { count: status.count, ms: status.ms ?? '–' })}
        </span>
      </div>
    </div>
  );
}

/** channels.ts is loaded with the overlay; kept behind a function so the import stays in this chunk. */
function openMetadataChannelLazy(...args: Parameters<typeof import('./channels').openMetadataChannel>) {
  let close: (() => void) | null = null;
  let cancelled = false;
  void import('./channels').then((m) => {
    if (!cancelled) close = m.openMetadataChannel(...args);
  });
  return () => {
    cancelled = true;
    close?.();
  };
}

function draw(
  canvas: HTMLCanvasElement,
  video: HTMLVideoElement,
  meta: InferenceMetadata | null,
  show: { labels: boolean; scores: boolean },
): void {
  const dpr = window.devicePixelRatio || 1;
  const w = video.clientWidth;
  const h = video.clientHeight;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
    canvas.style.width = `${w}px`;
    canvas.style.height = `${h}px`;
  }
  canvas.style.left = `${video.offsetLeft}px`;
  canvas.style.top = `${video.offsetTop}px`;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  if (!meta) return;
  const r = contentRect(w, h, video.videoWidth, video.videoHeight);
  ctx.lineWidth = 2;
  ctx.font = '12px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  for (const d of meta.detections) {
    const color = COLORS[(d.track_id || d.class_id) % COLORS.length]!;
    const x = r.x + d.box[0] * r.w;
    const y = r.y + d.box[1] * r.h;
    ctx.strokeStyle = color;
    ctx.strokeRect(x, y, d.box[2] * r.w, d.box[3] * r.h);
    const text = [show.labels ? d.class_name : '', show.scores ? d.score.toFixed(2) : '']
      .filter(Boolean)
      .join(' ');
    if (!text) continue;
    const tw = ctx.measureText(text).width + 6;
    ctx.fillStyle = color;
    ctx.fillRect(x, Math.max(0, y - 16), tw, 16);
    ctx.fillStyle = '#000';
    ctx.fillText(text, x + 3, Math.max(0, y - 16) + 2);
  }
}
