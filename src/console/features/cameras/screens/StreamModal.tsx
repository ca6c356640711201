/**
 * The stream modal of the root shell (§2 "Stream modal"): the device label and the live video, with
 * picture-in-picture, the stream's page (/stream-detail: the stream full width, its jobs, "Run an
 * application"), details (application streams only), minimize, full screen and close. Minimize hides
 * the modal but keeps the stream going (the grid's `modal` region: minimized), first showing the info dialog
 * "Minimized - Stream is still going on. You can use the camera page to monitor and manage" with "Camera
 * Page" and "I understood"; a small floating button brings the stream back. Renders the camera grid
 * actor's `modal` state; opened from a grid cell (`modal.open`).
 */
import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ActionIcon, Affix, Button, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/react';
import { useStartedJobs } from '../../inference/selectors';
import { GRID_TEXTS } from '../../../../../machines/cameras/cameraGrid.machine';
import { useModalView, useStreamView, useStreamsRef, useStreamsSelector, type StreamRef } from '../selectors';
import { CloseIcon, FullScreenIcon, useVideoSource } from './StreamCell';
import { streamDetailPath } from '../streamRoute';
import './cameras.css';

const sameIds = (a: { deviceId: string; cameraId: string }, b: { deviceId: string; cameraId: string }) =>
  a.deviceId === b.deviceId && a.cameraId === b.cameraId;

/** Detections over an application stream (features/inference), in its own chunk. */
const InferenceOverlay = lazy(() =>
  import('../../inference/overlay').then((m) => ({ default: m.InferenceOverlay })),
);

export default function StreamModal() {
  const { streamId, mode } = useModalView();
  const ref = useStreamsSelector((s) => s.context.entries.find((e) => e.streamId === streamId)?.ref);
  if (!ref || mode === 'closed') return null;
  return mode === 'open' ? <OpenModal stream={ref} /> : <Minimized stream={ref} notice={mode === 'notice'} />;
}

function OpenModal({ stream }: { stream: StreamRef }) {
  const { t } = useTranslation();
  const grid = useStreamsRef();
  const facts = useStreamView(stream);
  const videoRef = useRef<HTMLVideoElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [details, setDetails] = useState(false);
  // The modal's body mounts after its opening transition, so the <video> appears after this component's
  // first effects: track the element in state, so the source is attached whenever it arrives.
  const [videoEl, setVideoEl] = useState<HTMLVideoElement | null>(null);
  const attachVideo = useCallback((el: HTMLVideoElement | null) => {
    videoRef.current = el;
    setVideoEl(el);
  }, []);
  useVideoSource(videoRef, facts.mediaStream, videoEl);
  // §3 Stream application flag: set by the grid, or a started inference job on this camera (features/inference).
  const ids = useSelector(
    stream,
    (s) => ({ deviceId: s.context.deviceId, cameraId: s.context.camera.camera_id }),
    sameIds,
  );
  const jobs = useStartedJobs(ids.deviceId, ids.cameraId);
  const application = facts.application || jobs.length > 0;
  const close = () => grid.send({ type: 'modal.close' });
  const navigate = useNavigate();
  return (
    <Modal
      opened
      onClose={close}
      size="xl"
      title={facts.deviceLabel}
      data-testid="stream-modal"
      withCloseButton={false}
    >
      <div ref={boxRef} className="stream-modal-box">
        <Group justify="space-between" mb="xs">
          <Text size="sm" c="dimmed" data-testid="stream-modal-label">
            {facts.deviceLabel} — {facts.cameraLabel}
          </Text>
          <Group gap={4}>
            <Button
              size="compact-xs"
              variant="light"
              onClick={() => void videoRef.current?.requestPictureInPicture?.().catch(() => undefined)}
              data-testid="stream-modal-pip"
            >
              {t('streamModal.pip')}
            </Button>
            <Button
              size="compact-xs"
              variant="light"
              onClick={() => {
                close();
                navigate(streamDetailPath(ids));
              }}
              data-testid="stream-modal-page"
            >
              {t('streamModal.detailPage')}
            </Button>
            {application && (
              <Button
                size="compact-xs"
                variant="light"
                aria-pressed={details}
                onClick={() => setDetails((d) => !d)}
                data-testid="stream-modal-details"
              >
                {t('streamModal.details')}
              </Button>
            )}
            <Button
              size="compact-xs"
              variant="light"
              onClick={() => grid.send({ type: 'modal.minimize' })}
              data-testid="stream-modal-minimize"
            >
              {t('streamModal.minimize')}
            </Button>
            <Tooltip label={t('streamModal.fullScreen')}>
              <ActionIcon
                variant="subtle"
                aria-label={t('streamModal.fullScreen')}
                onClick={() => void boxRef.current?.requestFullscreen?.().catch(() => undefined)}
                data-testid="stream-modal-fullscreen"
              >
                <FullScreenIcon />
              </ActionIcon>
            </Tooltip>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('streamModal.close')}
              onClick={close}
              data-testid="stream-modal-close"
            >
              <CloseIcon />
            </ActionIcon>
          </Group>
        </Group>
        <div className="stream-modal-video-wrap">
          <video
            ref={attachVideo}
            autoPlay
            muted
            playsInline
            className="stream-modal-video"
            data-testid="stream-modal-video"
          />
          <Suspense fallback={null}>
            <InferenceOverlay deviceId={ids.deviceId} cameraId={ids.cameraId} videoRef={videoRef} />
          </Suspense>
        </div>
        <Text size="xs" role="status" aria-live="polite" data-testid="stream-modal-status">
          {t(`stream.${facts.status}`, { error: facts.error ?? '' })}
          {facts.resolutionLabel ? ` · ${facts.resolutionLabel}` : ''}
        </Text>
        {details && application && (
          <Text size="xs" c="dimmed" data-testid="stream-modal-details-text">
            {jobs.map((j) => `${j.name} · ${j.application}`).join(', ')}
            {jobs.length ? ' · ' : ''}
            {facts.resolutionLabel ?? '–'}
          </Text>
        )}
      </div>
    </Modal>
  );
}

/** Minimised: the §2 info dialog first, then a floating button that brings the stream back. */
function Minimized({ stream, notice }: { stream: StreamRef; notice: boolean }) {
  const { t } = useTranslation();
  const grid = useStreamsRef();
  const navigate = useNavigate();
  const facts = useStreamView(stream);
  const ack = () => grid.send({ type: 'modal.ack' });
  return (
    <>
      {notice && (
        <Modal
          opened
          onClose={ack}
          title={t('streamModal.minimizedTitle')}
          data-testid="stream-minimized-dialog"
        >
          <Stack>
            <Text data-testid="stream-minimized-text">{GRID_TEXTS.minimized}</Text>
            <Group justify="flex-end">
              <Button
                variant="default"
                onClick={() => {
                  ack();
                  navigate('/control-panel/cameras');
                }}
                data-testid="stream-minimized-camera-page"
              >
                {t('streamModal.cameraPage')}
              </Button>
              <Button onClick={ack} data-testid="stream-minimized-understood">
                {t('streamModal.understood')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
      <Affix position={{ bottom: 16, left: 16 }}>
        <Group gap={4}>
          <Button
            size="xs"
            onClick={() => grid.send({ type: 'modal.restore' })}
            data-testid="stream-modal-restore"
          >
            {t('streamModal.restore')}: {facts.deviceLabel}
          </Button>
          <ActionIcon
            color="red"
            variant="filled"
            aria-label={t('streamModal.close')}
            onClick={() => grid.send({ type: 'modal.close' })}
            data-testid="stream-modal-minimized-close"
          >
            <CloseIcon />
          </ActionIcon>
        </Group>
      </Affix>
    </>
  );
}
