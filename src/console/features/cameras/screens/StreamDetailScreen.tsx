/**
 * /stream-detail/:cameraID/:data and /raw-stream-detail/:cameraID/:data (§2): one stream, full width.
 * `data` = base64url JSON { deviceId, cameraId } (streamRoute.ts). Shows the grid's stream of that camera
 * when it is open (reporting itself as a viewer, so it keeps playing); otherwise offers to open it through the
 * camera grid (the opening flow and its dialogs apply). The raw variant shows only the video.
 * For an application stream (§3 Stream application flag) the page draws the detections over the video and
 * lists the camera's jobs; "Run an application" starts one from here, a stream page start (§4 step 7: a
 * failed peer connection records the job as failed and returns to /control-panel/cameras). Both parts are
 * the inference feature's, loaded in their own chunks.
 */
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useParams } from 'react-router-dom';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/react';
import { useStreamView, useStreamsRef, useStreamsSelector, type StreamRef } from '../selectors';
import type { RouteEntry } from '../../../routes/table';
import { OpenerDialogs } from './OpenerDialogs';
import { useVideoSource } from './StreamCell';
import { parseStreamRoute } from '../streamRoute';
import './cameras.css';

/** Detections over an application stream (features/inference), in its own chunk. */
const InferenceOverlay = lazy(() =>
  import('../../inference/overlay').then((m) => ({ default: m.InferenceOverlay })),
);
/** The camera's jobs and "Run an application" (features/inference). */
const StreamApplications = lazy(() => import('../../inference/screens/StreamApplications'));

export default function StreamDetailScreen({ entry }: { entry: RouteEntry }) {
  const raw = entry.screen === 'rawStreamDetail';
  const { t } = useTranslation();
  const params = useParams();
  const grid = useStreamsRef();
  const route = parseStreamRoute(params.cameraID, params.data);
  const stream = useStreamsSelector(
    (s) =>
      s.context.entries.find((e) => e.deviceId === route?.deviceId && e.camera.camera_id === route?.cameraId)
        ?.ref,
  );
  const camera = useStreamsSelector((s) =>
    route
      ? s.context.devices[route.deviceId]?.cameras.find((c) => c.camera_id === route.cameraId)
      : undefined,
  );
  if (!route) {
    return (
      <Text role="alert" data-testid="stream-detail-invalid">
        {t('streamModal.notFound')}
      </Text>
    );
  }
  if (stream) return <Detail stream={stream} raw={raw} />;
  return (
    <Stack data-testid="stream-detail-missing">
      <Text>{t('streamModal.notFound')}</Text>
      <Group>
        <Button
          disabled={!camera}
          onClick={() => camera && grid.send({ type: 'stream.open', deviceId: route.deviceId, camera })}
          data-testid="stream-detail-open"
        >
          {t('streamModal.openIt')}
        </Button>
      </Group>
      <OpenerDialogs />
    </Stack>
  );
}

function Detail({ stream, raw }: { stream: StreamRef; raw: boolean }) {
  const { t } = useTranslation();
  const facts = useStreamView(stream);
  const videoRef = useRef<HTMLVideoElement>(null);
  useVideoSource(videoRef, facts.mediaStream);
  useViewer(stream);
  const ids = useSelector(
    stream,
    (s) => ({ deviceId: s.context.deviceId, cameraId: s.context.camera.camera_id }),
    (a, b) => a.deviceId === b.deviceId && a.cameraId === b.cameraId,
  );
  const video = (
    <video
      ref={videoRef}
      autoPlay
      muted
      playsInline
      className={raw ? 'stream-detail-video raw' : 'stream-detail-video'}
      data-testid="stream-detail-video"
    />
  );
  if (raw) return video;
  return (
    <Stack gap="sm">
      <Title order={1}>{facts.deviceLabel}</Title>
      <Paper withBorder p="xs">
        <div className="stream-detail-wrap">
          {video}
          <Suspense fallback={null}>
            <InferenceOverlay deviceId={ids.deviceId} cameraId={ids.cameraId} videoRef={videoRef} />
          </Suspense>
        </div>
        <Text size="sm" role="status" aria-live="polite" data-testid="stream-detail-status">
          {facts.cameraLabel} · {t(`stream.${facts.status}`, { error: facts.error ?? '' })}
          {facts.resolutionLabel ? ` · ${facts.resolutionLabel}` : ''}
        </Text>
      </Paper>
      <Suspense fallback={null}>
        <StreamApplications deviceId={ids.deviceId} cameraId={ids.cameraId} />
      </Suspense>
    </Stack>
  );
}

/** The detail page counts as the stream's modal viewer while it is shown (the grid cell is not mounted). */
function useViewer(stream: StreamRef) {
  useEffect(() => {
    stream.send({ type: 'stream.view', viewer: 'modal', visible: true });
    return () => stream.send({ type: 'stream.view', viewer: 'modal', visible: false });
  }, [stream]);
}
