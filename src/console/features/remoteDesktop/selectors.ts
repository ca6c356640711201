/**
 * What the remote desktop screens show, read from the remoteDesktop actor (systemId 'remoteDesktop'): the
 * pure `remoteDesktopToView(snapshot)` (tags and `matches`, never raw state names in the views) and its
 * hooks. No protocol values imported (zod stays out of the screens' chunk).
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { OpenWindow } from '../../../protocol/remoteDesktop';
import type { remoteDesktopMachine } from '../../../../machines/remoteDesktop/remoteDesktop.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type RemoteDesktopRef = ActorRefFrom<typeof remoteDesktopMachine>;
export type RemoteDesktopSnapshot = SnapshotFrom<typeof remoteDesktopMachine>;

/** Where the desktop stands. */
export type DesktopPhase = 'closed' | 'connecting' | 'live' | 'failed';

export interface RemoteDesktopView {
  phase: DesktopPhase;
  deviceId: string | null;
  label: string;
  error: string | null;
  mediaStream: MediaStream | null;
  /** Keys go to the device (the view holds the keyboard). */
  captured: boolean;
  fullScreen: boolean;
  windows: OpenWindow[];
  windowsError: string | null;
  closingId: string | null;
  backend: 'x11' | 'sim' | null;
  inputError: string | null;
  /** §9 stats (every 2000 ms): frames per second, picture size, round-trip time; null until a sample. */
  stats: { fps: number | null; width: number | null; height: number | null; rttMs: number | null } | null;
}

/** The view of a snapshot (pure). */
export function remoteDesktopToView(s: RemoteDesktopSnapshot): RemoteDesktopView {
  const c = s.context;
  const open = s.hasTag('open');
  const phase: DesktopPhase = !open
    ? 'closed'
    : s.hasTag('live')
      ? 'live'
      : s.hasTag('error')
        ? 'failed'
        : 'connecting';
  return {
    phase,
    deviceId: c.deviceId,
    label: c.label,
    error: phase === 'failed' ? c.error : null,
    mediaStream: phase === 'live' ? c.mediaStream : null,
    captured: s.hasTag('captured'),
    fullScreen: c.fullScreen,
    windows: c.windows,
    windowsError: c.windowsError,
    closingId: c.closingId,
    backend: c.backend,
    inputError: c.inputError,
    stats: c.stats
      ? { fps: c.stats.fps, width: c.stats.width ?? c.size?.width ?? null, height: c.stats.height ?? c.size?.height ?? null, rttMs: c.stats.rttMs }
      : null,
  }; // prettier-ignore
}

/** The stats line's parts, formatted (fps one decimal, RTT whole ms; '–' when unknown). */
export function statsParts(stats: RemoteDesktopView['stats']): {
  fps: string;
  resolution: string;
  rtt: string;
} {
  const dash = '–';
  return {
    fps: stats?.fps == null ? dash : stats.fps.toFixed(1),
    resolution: stats?.width && stats.height ? `${stats.width}×${stats.height}` : dash,
    rtt: stats?.rttMs == null ? dash : String(Math.round(stats.rttMs)),
  };
}

export const useRemoteDesktopRef = (): RemoteDesktopRef =>
  actorOf<RemoteDesktopRef>(useSystem(), SYSTEM_IDS.remoteDesktop);

export function useRemoteDesktopView(): RemoteDesktopView {
  return useSelector(useRemoteDesktopRef(), remoteDesktopToView, shallowEqual);
}

/** Whether the remoteDesktop actors run (loaded after sign-in). */
export function useRemoteDesktopLoaded(): boolean {
  return useSelector(useSystem(), (s) => s.context.loaded.includes('remoteDesktop'));
}
