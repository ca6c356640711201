/**
 * The remote desktop feature's side effects (machines/remoteDesktop/), loaded after sign-in
 * (ConsoleFeature.loadActors):
 * - `desktopSession`: the cameras' own stream session (cameras/streamSession.ts openStreamSession) for
 *   camera_id 'remote-desktop' — one recvonly peer connection negotiated with send-sdp over the device link —
 *   with stats every FRAME_RATE_INTERVAL_MS (§9, cameras/streamMedia.ts pollStreamStats).
 * - `input`: the §7 input commands; mouse moves and drags throttled to MOUSE_MOVE_THROTTLE_MS (§9), a pending
 *   move sent before any press, release, wheel or key so the order is kept.
 * - `windowList`: get-open-windows now and every OPEN_WINDOWS_REFRESH_MS (§3 openWindows).
 * - `closeWindow`: close-remote-window.
 */
import { fromCallback, fromPromise } from 'xstate';
import {
  remoteDesktopMachine,
  type DesktopInputEvent,
  type RemoteDesktopEvent,
} from '../../../../machines/remoteDesktop/remoteDesktop.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { FRAME_RATE_INTERVAL_MS } from '../../../protocol/constants';
import {
  MOUSE_MOVE_THROTTLE_MS,
  OPEN_WINDOWS_REFRESH_MS,
  REMOTE_DESKTOP_CAMERA_ID,
} from '../../../protocol/remoteDesktop';
import type { Platform } from '../feature';
import { openStreamSession, type StreamSessionDeps } from '../cameras/streamSession';
import { remoteDesktopCommands, type RemoteDesktopCommands } from './api';
import { createThrottle } from './input';

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The input sender over `commands` (see the header). */
export function inputActor(commands: RemoteDesktopCommands, throttleMs = MOUSE_MOVE_THROTTLE_MS) {
  return fromCallback<DesktopInputEvent, { deviceId: string }>(({ input, receive, sendBack }) => {
    let live = true;
    const send = (event: DesktopInputEvent) => {
      commands.send(input.deviceId, event).catch((err: unknown) => {
        if (live) sendBack({ type: 'input.failed', message: messageOf(err) } as never);
      });
    };
    const moves = createThrottle<DesktopInputEvent>(throttleMs, send);
    receive((event) => {
      const isMove = event.type === 'input.drag' || (event.type === 'input.mouse' && event.payload.action === 'move');
      if (isMove) return moves.call(event);
      moves.flush();
      send(event);
    }); // prettier-ignore
    return () => {
      live = false;
      moves.flush();
    };
  });
}

/** The window list poller over `commands`. */
export function windowListActor(commands: RemoteDesktopCommands, everyMs = OPEN_WINDOWS_REFRESH_MS) {
  return fromCallback<RemoteDesktopEvent, { deviceId: string }>(({ input, sendBack }) => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () => {
      commands.windows(input.deviceId).then(
        (reply) => live && sendBack({ type: 'windows.loaded', reply }),
        (err: unknown) => live && sendBack({ type: 'windows.failed', message: messageOf(err) }),
      ).finally(() => {
        if (live) timer = setTimeout(poll, everyMs);
      }); // prettier-ignore
    };
    poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  });
}

export function remoteDesktopActors({ peerLink }: Platform): FeatureActor[] {
  const commands = remoteDesktopCommands(peerLink.callDevice.bind(peerLink));
  const sessionDeps: StreamSessionDeps = {
    callDevice: peerLink.callDevice.bind(peerLink),
    getIceServers: () => peerLink.iceServers,
    getIceTransportPolicy: () => peerLink.iceTransportPolicy,
    onDeviceEvent: (listener) => peerLink.onDeviceEvent(listener),
    pollStats: (pc, intervalMs, onSample) => {
      let stop: (() => void) | null = null;
      let cancelled = false;
      void import('../cameras/streamMedia').then((m) => {
        if (!cancelled) stop = m.pollStreamStats(pc, intervalMs, onSample);
      });
      return () => {
        cancelled = true;
        stop?.();
      };
    },
  };
  const logic = remoteDesktopMachine.provide({
    actors: {
      desktopSession: fromCallback<RemoteDesktopEvent, { deviceId: string; callId: string }>(({ input, sendBack }) => {
        const session = openStreamSession(
          sessionDeps,
          {
            streamId: input.callId,
            deviceId: input.deviceId,
            camera: { id: REMOTE_DESKTOP_CAMERA_ID, camera_id: REMOTE_DESKTOP_CAMERA_ID, uniqueCameraId: REMOTE_DESKTOP_CAMERA_ID, unique_id: REMOTE_DESKTOP_CAMERA_ID, name: 'Remote desktop', label: 'Remote desktop', device_id: input.deviceId, camera_type: 'local' },
            resolution: null,
          },
          (report) => {
            if (report.type === 'session.started') {
              sendBack({ type: 'session.started', mediaStream: report.mediaStream, width: report.resolution?.width ?? 1280, height: report.resolution?.height ?? 720 });
              session.command({ type: 'session.stats', intervalMs: FRAME_RATE_INTERVAL_MS });
            } else if (report.type === 'session.failed') sendBack({ type: 'session.failed', error: messageOf(report.error) });
            else if (report.type === 'stream.ended') sendBack({ type: 'stream.ended', error: report.error });
            else if (report.type === 'stats.sample') sendBack({ type: 'stats.sample', stats: report.stats });
          },
        );
        return () => session.close();
      }), // prettier-ignore
      input: inputActor(commands),
      windowList: windowListActor(commands),
      closeWindow: fromPromise(({ input }) => commands.closeWindow(input.deviceId, input.windowId)),
    },
  });
  return [
    featureActor({ systemId: SYSTEM_IDS.remoteDesktop, logic, onSignOut: [{ type: 'desktop.close' }] }),
  ];
}
