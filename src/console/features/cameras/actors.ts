/**
 * The cameras feature's side effects: the camera grid's and its opener's REST calls and device commands
 * (layout; quota, usage, stills, kill, resolutions) and each stream's session (its one peer connection, with
 * statistics) and recording (machines/cameras/*.machine.ts; streamSession.ts, streamMedia.ts).
 */
import { fromCallback, fromPromise } from 'xstate';
import {
  cameraGridMachine,
  GRID_TEXTS,
  type LoadedLayout,
} from '../../../../machines/cameras/cameraGrid.machine';
import { openerMachine } from '../../../../machines/cameras/opener.machine';
import { streamMachine } from '../../../../machines/cameras/stream.machine';
import { errorText } from '../../../../machines/notifications/emitted';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';
import { camerasApi } from './api';
import type * as StreamMediaModule from './streamMedia';
import { openStreamSession, type StreamSessionDeps } from './streamSession';

/**
 * Runs `start` with streamMedia.ts (MediaRecorder, getStats summaries), loaded on first use so the /login
 * bundle does not ship it. Returns a clean-up that stops what `start` began (or skips it if not begun yet).
 */
function withStreamMedia(start: (m: typeof StreamMediaModule) => () => void, onLoadError: () => void) {
  let stop: (() => void) | null = null;
  let cancelled = false;
  import('./streamMedia')
    .then((m) => {
      if (!cancelled) stop = start(m);
    })
    .catch(() => {
      if (!cancelled) onLoadError();
    });
  return () => {
    cancelled = true;
    stop?.();
  };
}

/** The camera grid (systemId 'streams'): loads the saved layout on sign-in, closes every stream on sign-out. */
export function camerasActors({ http, peerLink }: Platform): FeatureActor[] {
  const api = camerasApi(http);
  const sessionDeps: StreamSessionDeps = {
    callDevice: peerLink.callDevice.bind(peerLink),
    getIceServers: () => peerLink.iceServers,
    getIceTransportPolicy: () => peerLink.iceTransportPolicy,
    onDeviceEvent: (listener) => peerLink.onDeviceEvent(listener),
    pollStats: (peerConnection, intervalMs, onSample) =>
      withStreamMedia(
        (m) => m.pollStreamStats(peerConnection, intervalMs, onSample),
        () => undefined,
      ),
  };

  const stream = streamMachine.provide({
    actors: {
      // The stream's one peer connection, for as long as the stream is `live`.
      streamSession: fromCallback(({ input, sendBack, receive }) => {
        const session = openStreamSession(sessionDeps, input, sendBack);
        receive((command) => session.command(command));
        return () => session.close();
      }),
      recordStream: fromCallback(({ input }) =>
        // The file is reported to the stream actor itself, also after this actor stopped (stop = save).
        withStreamMedia(
          (m) =>
            m.startRecording(input.mediaStream, input.fileStem, (outcome) =>
              input.owner.send(
                outcome.ok
                  ? { type: 'record.saved', file: outcome.file }
                  : { type: 'record.failed', error: outcome.error },
              ),
            ),
          () => input.owner.send({ type: 'record.failed', error: 'Recording is not available.' }),
        ),
      ),
    },
    actions: {
      revokeRecording: (_, params) => {
        if (params.url) URL.revokeObjectURL(params.url);
      },
    },
  });

  const call = peerLink.callDevice.bind(peerLink);
  const grid = cameraGridMachine.provide({
    actors: {
      stream,
      loadLayout: fromPromise(async ({ signal: abort }): Promise<LoadedLayout> => {
        const [layout, ipCameras] = await Promise.all([
          api.getCameraLayout(abort),
          api.getIpCameras(abort).catch(() => []),
        ]);
        const ids = [...new Set(layout.streams.map((s) => s.deviceId))];
        const devices = ids.length ? await api.getDevicesByIds(ids, abort) : [];
        return { streams: layout.streams, devices, ipCameras };
      }),
      saveLayout: fromPromise(async ({ input, signal: abort }) => api.putCameraLayout(input.streams, abort)),
      // The opening flow's checks (opener.machine.ts): quota and camera use, stills, kill, resolutions.
      opener: openerMachine.provide({
        actors: {
          checkRequest: fromCallback(({ input, sendBack }) => {
            const abort = new AbortController();
            void Promise.allSettled([
              api.checkStreamLimit(input.deviceId, input.numOfCameras, abort.signal),
              call(input.deviceId, 'check-camera-usage', { camera_id: input.cameraId }),
            ]).then(([quota, usage]) => {
              if (abort.signal.aborted) return;
              sendBack({
                type: 'opener.checked',
                checkId: input.checkId,
                requestId: input.requestId,
                quotaAvailable: quota.status === 'fulfilled' && quota.value,
                quotaError:
                  quota.status === 'rejected' ? errorText(quota.reason, GRID_TEXTS.quotaExceeded) : null,
                usage: usage.status === 'fulfilled' ? usage.value : null,
              });
            });
            return () => abort.abort();
          }),
          loadPhotos: fromPromise(async ({ input }) => {
            const photos = await Promise.all(
              input.candidates.map((c) =>
                call(c.deviceId, 'getOneFrameFromPhysicalCamera', { camera_id: c.camera.camera_id })
                  .then((r) => [c.deviceId, r.image] as const)
                  .catch(() => [c.deviceId, null] as const),
              ),
            );
            return Object.fromEntries(photos);
          }),
          forceKill: fromPromise(
            async ({ input }) =>
              (await call(input.deviceId, 'force-kill-stream', { camera_id: input.cameraId })).result,
          ),
          loadResolutions: fromPromise(
            async ({ input }) =>
              (await call(input.deviceId, 'get-supported-resolutions', { camera_id: input.cameraId }))
                .resolutions,
          ),
        },
      }),
    },
  });

  return [
    featureActor({
      systemId: SYSTEM_IDS.streams,
      logic: grid,
      input: ({ browserId }) => ({ idPrefix: browserId }),
      onSignIn: [{ type: 'grid.load' }],
      onSignOut: [{ type: 'streams.reset' }],
    }),
  ];
}
