/**
 * One camera cell of the grid (§2 Camera control page): device label and camera label, a status line
 * (Checking quota / Connecting / Playing / Failed: error — a polite live region), the live video, and the
 * close and full-screen buttons. A right-click menu offers "Close Stream" and "Full Screen" (§2).
 * Subscribes to its own stream actor only.
 */
import { memo, useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { ActionIcon, Button, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { streamStatusLabel } from '../../lib/format';
import { useStreamFacts, useStreamsRef, type StreamRef } from '../../state/hooks';

export const StreamCell = memo(function StreamCell({
  streamId,
  stream,
}: {
  streamId: string;
  stream: StreamRef;
}) {
  const { t } = useTranslation();
  const streams = useStreamsRef();
  const facts = useStreamFacts(stream);
  const cellRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);

  // Feed the video element the actor's MediaStream (srcObject cannot be set through a React prop).
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    if (video.srcObject !== facts.mediaStream) video.srcObject = facts.mediaStream;
    if (facts.mediaStream) void video.play().catch(() => undefined); // autoplay policy: muted plays
  }, [facts.mediaStream]);

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

  const status = statusText(t, facts.state, facts.error);
  return (
    <Paper
      ref={cellRef}
      withBorder
      p="xs"
      className="stream-cell"
      data-testid={`stream-cell-${streamId}`}
      data-state={facts.state}
      onContextMenu={onContextMenu}
      aria-label={`${facts.deviceLabel} — ${facts.cameraLabel}`}
      component="article"
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} truncate>
            {facts.deviceLabel}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {facts.cameraLabel}
          </Text>
        </div>
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            onClick={fullScreen}
            aria-label={t('cameras.fullScreen')}
            data-testid="stream-fullscreen"
          >
            <FullScreenIcon />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            onClick={close}
            aria-label={t('cameras.close')}
            data-testid="stream-close"
          >
            <CloseIcon />
          </ActionIcon>
        </Group>
      </Group>
      <div className="stream-video-box">
        <video
          ref={videoRef}
          autoPlay
          muted
          playsInline
          className="stream-video"
          data-testid={`stream-video-${streamId}`}
        />
      </div>
      <Group justify="space-between" gap="xs" mt={4}>
        <Text
          size="xs"
          role="status"
          aria-live="polite"
          c={facts.state === 'failed' ? 'red' : facts.state === 'playing' ? 'green' : 'dimmed'}
          data-testid="stream-status"
        >
          {status}
        </Text>
        {facts.state === 'failed' && (
          <Button size="compact-xs" variant="light" onClick={() => stream.send({ type: 'stream.retry' })}>
            {t('cameras.retry')}
          </Button>
        )}
      </Group>
      {menuAt && (
        <CellMenu
          at={menuAt}
          onClose={() => setMenuAt(null)}
          onCloseStream={close}
          onFullScreen={fullScreen}
        />
      )}
    </Paper>
  );
});

function statusText(
  t: (k: string, o?: Record<string, unknown>) => string,
  state: Parameters<typeof streamStatusLabel>[0],
  error: string | null,
) {
  if (state === 'failed') return t('stream.failed', { error: error ?? 'unknown error' });
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
    >
      <button ref={first} role="menuitem" type="button" onClick={onCloseStream}>
        Close Stream
      </button>
      <button role="menuitem" type="button" onClick={onFullScreen}>
        Full Screen
      </button>
    </div>
  );
}

/** Four corner brackets (full screen). Inline SVG: no icon font or package needed. */
function FullScreenIcon() {
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
      <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
    </svg>
  );
}

function CloseIcon() {
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
      <path d="M6 6l12 12M18 6L6 18" />
    </svg>
  );
}
