/**
 * One camera cell of the grid (§2 Camera control page): title bar (drag handle: device and camera label),
 * status line (Starting / Connecting / Playing / Paused / Reconnecting / Failed — a polite live region,
 * updated live), the video, and the cell's buttons: size (§9 sizes), statistics overlay, Record/Stop and
 * the recording's download link (§9 VP8 WebM), stream modal, full screen, close. A right-click menu offers
 * "Close Stream" and "Full Screen" (§2). It reports its visibility (document visible and in the viewport;
 * unmounted = hidden) to its stream actor, which pauses hidden streams. Subscribes to its own actor only.
 */
import {
  lazy,
  memo,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type MouseEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { sizeOf } from '../../../../../machines/cameras/gridLayout';
import { CAMERA_LAYOUT_SIZES, type CameraLayoutSize } from '../../../../protocol/constants';
import { parseStreamQuotaMessage } from '../../../../protocol/streamQuota';
import { streamStatusLabel } from '../format';
import {
  useStreamView,
  useStreamsRef,
  type GridEntry,
  type StreamRef,
  type StreamStatus,
} from '../selectors';
import { StatsOverlay } from './StatsOverlay';

/** Records' "Save to device" (features/records), in its own chunk: loaded once a cell has a recording. */
const SaveToDeviceButton = lazy(() =>
  import('../../records/saveToDevice').then((m) => ({ default: m.SaveToDeviceButton })),
);

/** Detections over an application stream (features/inference), in its own chunk. */
const InferenceOverlay = lazy(() =>
  import('../../inference/overlay').then((m) => ({ default: m.InferenceOverlay })),
);

/** The §9 layout sizes offered in each cell's size menu. */
const SIZE_OPTIONS = Object.entries(CAMERA_LAYOUT_SIZES).map(([name, s]) => ({
  value: name,
  label: `${name} ${s.w}×${s.h}`,
}));

export const StreamCell = memo(function StreamCell({ entry }: { entry: GridEntry }) {
  const { t } = useTranslation();
  const streams = useStreamsRef();
  const { streamId, ref: stream } = entry;
  const facts = useStreamView(stream);
  const cellRef = useRef<HTMLElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);

  useVideoSource(videoRef, facts.mediaStream);
  useVisibilityReport(cellRef, stream);

  const close = useCallback(() => streams.send({ type: 'stream.close', streamId }), [streams, streamId]);
  const fullScreen = useCallback(() => {
    setMenuAt(null);
    void cellRef.current?.requestFullscreen?.().catch(() => undefined);
  }, []);
  const onContextMenu = (e: MouseEvent) => {
    e.preventDefault();
    const box = cellRef.current?.getBoundingClientRect();
    setMenuAt({ x: e.clientX - (box?.left ?? 0), y: e.clientY - (box?.top ?? 0) });
  };

  const status = useMemo(() => statusText(t, facts.status, facts.error), [t, facts.status, facts.error]);
  const cameraLabel = entry.camera.label || entry.camera.name || facts.cameraLabel;
  const size = sizeOf(entry.cell);
  const recording = facts.recorder === 'recording';
  // Plain elements styled in cameras.css rather than Mantine components: twelve cells mount and update
  // together while their streams start, and this chrome is the part of that work the page controls
  // (measured: 12 cameras playing ~0.3–0.5 s sooner on the 2-core bench machine).
  return (
    <article
      ref={cellRef}
      className="stream-cell"
      data-testid={`stream-cell-${streamId}`}
      data-state={facts.status}
      data-recording={recording ? 'true' : 'false'}
      onContextMenu={onContextMenu}
      aria-label={`${facts.deviceLabel} — ${cameraLabel}`}
    >
      <div className="stream-cell-head stream-drag-handle">
        <div className="stream-cell-titles">
          <span className="stream-cell-device">{facts.deviceLabel}</span>
          <span className="stream-cell-camera">{cameraLabel}</span>
        </div>
        <div className="stream-cell-actions">
          <select
            className="stream-cell-select"
            aria-label={t('cameras.size')}
            value={size ?? ''}
            onChange={(e) =>
              e.currentTarget.value &&
              streams.send({ type: 'grid.size', streamId, size: e.currentTarget.value as CameraLayoutSize })
            }
            data-testid="stream-size"
          >
            {!size && <option value="">{`${entry.cell.w}×${entry.cell.h}`}</option>}
            {SIZE_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="stream-cell-icon"
            data-variant={facts.statsOn ? 'filled' : undefined}
            onClick={() => stream.send({ type: 'stats.toggle' })}
            aria-label={t('cameras.stats')}
            aria-pressed={facts.statsOn}
            data-testid="stream-stats-toggle"
          >
            <StatsIcon />
          </button>
          <button
            type="button"
            className="stream-cell-icon"
            onClick={() => streams.send({ type: 'modal.open', streamId })}
            aria-label={t('cameras.expand')}
            data-testid="stream-expand"
          >
            <ExpandIcon />
          </button>
          <button
            type="button"
            className="stream-cell-icon"
            onClick={fullScreen}
            aria-label={t('cameras.fullScreen')}
            data-testid="stream-fullscreen"
          >
            <FullScreenIcon />
          </button>
          <button
            type="button"
            className="stream-cell-icon"
            data-color="red"
            onClick={close}
            aria-label={t('cameras.close')}
            data-testid="stream-close"
          >
            <CloseIcon />
          </button>
        </div>
      </div>
      <div className="stream-video-box">
        <video
          ref={videoRef}
          autoPlay
          muted
          playsInline
          className="stream-video"
          data-testid={`stream-video-${streamId}`}
        />
        <Suspense fallback={null}>
          <InferenceOverlay deviceId={entry.deviceId} cameraId={entry.camera.camera_id} videoRef={videoRef} />
        </Suspense>
        {facts.statsOn && <StatsOverlay stats={facts.stats} />}
        {recording && (
          <span className="stream-rec-dot" data-testid="stream-recording-badge">
            ● {t('stream.recording')}
          </span>
        )}
      </div>
      <div className="stream-cell-foot">
        <span
          className="stream-cell-status"
          data-tone={facts.status === 'failed' ? 'red' : facts.status === 'playing' ? 'green' : undefined}
          role="status"
          aria-live="polite"
          data-testid="stream-status"
        >
          {status}
          {facts.resolutionLabel && facts.status === 'playing' ? ` · ${facts.resolutionLabel}` : ''}
        </span>
        <div className="stream-cell-buttons">
          {facts.status === 'failed' && (
            <button
              type="button"
              className="stream-cell-button"
              onClick={() => stream.send({ type: 'stream.retry' })}
              data-testid="stream-retry"
            >
              {t('cameras.retry')}
            </button>
          )}
          {facts.status === 'playing' && (
            <button
              type="button"
              className="stream-cell-button"
              data-color="red"
              data-variant={recording ? 'filled' : undefined}
              disabled={facts.recorder === 'saving'}
              aria-busy={facts.recorder === 'saving'}
              onClick={() => stream.send({ type: recording ? 'record.stop' : 'record.start' })}
              data-testid="stream-record"
            >
              {facts.recorder === 'saving'
                ? t('cameras.saving')
                : recording
                  ? t('cameras.stopRecording')
                  : t('cameras.record')}
            </button>
          )}
          {facts.recording && (
            <>
              <a
                className="stream-cell-button"
                href={facts.recording.url}
                download={facts.recording.fileName}
                data-testid="stream-download"
                data-bytes={facts.recording.bytes}
              >
                {t('cameras.download')}
              </a>
              <Suspense fallback={null}>
                <SaveToDeviceButton
                  deviceId={stream.getSnapshot().context.deviceId}
                  recording={{
                    url: facts.recording.url,
                    fileName: facts.recording.fileName,
                    camera: cameraLabel,
                  }}
                />
              </Suspense>
            </>
          )}
        </div>
      </div>
      {menuAt && (
        <CellMenu
          at={menuAt}
          onClose={() => setMenuAt(null)}
          onCloseStream={close}
          onFullScreen={fullScreen}
        />
      )}
    </article>
  );
});

/** Feeds a video element the actor's MediaStream (srcObject cannot be set through a React prop). */
export function useVideoSource(
  videoRef: React.RefObject<HTMLVideoElement | null>,
  mediaStream: MediaStream | null,
  /** The element itself when it can mount later than the component (e.g. inside a modal). */
  element?: HTMLVideoElement | null,
) {
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    if (video.srcObject !== mediaStream) video.srcObject = mediaStream;
    if (mediaStream) void video.play().catch(() => undefined); // autoplay policy: muted plays
  }, [videoRef, mediaStream, element]);
}

/**
 * Reports `stream.view { viewer: 'cell', visible }` to the stream actor: visible while the document is
 * visible and the cell intersects the viewport; hidden when unmounted (another page, another route).
 */
function useVisibilityReport(cellRef: React.RefObject<HTMLElement | null>, stream: StreamRef) {
  useEffect(() => {
    const el = cellRef.current;
    let inView = true;
    let last: boolean | null = null;
    const report = () => {
      const visible = inView && document.visibilityState !== 'hidden';
      if (visible === last) return;
      last = visible;
      stream.send({ type: 'stream.view', viewer: 'cell', visible });
    };
    const observer =
      el && typeof IntersectionObserver !== 'undefined'
        ? new IntersectionObserver((records) => {
            inView = records.some((r) => r.isIntersecting);
            report();
          })
        : null;
    if (el) observer?.observe(el);
    document.addEventListener('visibilitychange', report);
    report();
    return () => {
      observer?.disconnect();
      document.removeEventListener('visibilitychange', report);
      stream.send({ type: 'stream.view', viewer: 'cell', visible: false });
    };
  }, [cellRef, stream]);
}

function statusText(
  t: (k: string, o?: Record<string, unknown>) => string,
  state: StreamStatus,
  error: string | null,
) {
  if (state === 'failed') {
    // The device refused the stream past its quota (issue 15): said in the interface language.
    const max = parseStreamQuotaMessage(error);
    if (max !== null) return t('stream.quotaReached', { max });
    return t('stream.failed', { error: error ?? 'unknown error' });
  }
  if (state === 'reconnecting') return t('stream.reconnecting');
  return t(`stream.${state}`, { defaultValue: streamStatusLabel(state, error) });
}

/** The §2 right-click menu: "Close Stream" and "Full Screen". Escape or a click elsewhere closes it. */
function CellMenu({
  at,
  onClose,
  onCloseStream,
  onFullScreen,
}: {
  at: { x: number; y: number };
  onClose: () => void;
  onCloseStream: () => void;
  onFullScreen: () => void;
}) {
  const { t } = useTranslation();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    first.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    const onDown = () => onClose();
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onDown);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onDown);
    };
  }, [onClose]);
  return (
    <div
      className="cell-menu"
      role="menu"
      style={{ left: at.x, top: at.y }}
      onPointerDown={(e) => e.stopPropagation()}
      onMouseDown={(e) => e.stopPropagation()}
      data-testid="stream-context-menu"
    >
      <button
        ref={first}
        role="menuitem"
        type="button"
        onClick={onCloseStream}
        data-testid="stream-menu-close"
      >
        {t('cameras.menuCloseStream')}
      </button>
      <button role="menuitem" type="button" onClick={onFullScreen} data-testid="stream-menu-fullscreen">
        {t('cameras.menuFullScreen')}
      </button>
    </div>
  );
}

function Icon({ d }: { d: string }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden
    >
      <path d={d} />
    </svg>
  );
}
/** Four corner brackets (full screen). Inline SVG: no icon font or package needed. */
export const FullScreenIcon = () => <Icon d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />;
export const CloseIcon = () => <Icon d="M6 6l12 12M18 6L6 18" />;
const StatsIcon = () => <Icon d="M4 20V10M10 20V4M16 20v-7M22 20H2" />;
const ExpandIcon = () => <Icon d="M14 4h6v6M20 4l-7 7M10 20H4v-6M4 20l7-7" />;
