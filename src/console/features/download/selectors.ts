/**
 * Pure view of the download page (§2 /download) and its hooks: the download machine's snapshot as what the
 * page shows (release facts, the created device's commands), and the device requirements per kind.
 */
import { useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { downloadMachine } from '../../../../machines/download/download.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { DeviceKind, InstallCommands } from '../../../protocol/download';
import type { AgentRelease } from '../../../protocol/software';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type DownloadSnapshot = SnapshotFrom<typeof downloadMachine>;

export interface DownloadView {
  state: 'idle' | 'loading' | 'failed' | 'ready' | 'creating' | 'created';
  release: AgentRelease | null;
  server: string | null;
  created: { label: string; kind: DeviceKind; deviceId: string; commands: InstallCommands } | null;
  error: string | null;
  invalid: boolean;
  busy: boolean;
}

export function downloadToView(s: DownloadSnapshot): DownloadView {
  const c = s.context;
  return {
    state: s.value as DownloadView['state'],
    release: c.info?.release ?? null,
    server: c.info?.server ?? null,
    created: c.created
      ? {
          label: c.created.device.label,
          kind: c.created.device.kind,
          deviceId: c.created.device.device_id,
          commands: c.created.commands,
        }
      : null,
    error: c.error,
    invalid: c.invalid,
    busy: s.hasTag('busy'),
  };
}

/** i18n keys (download.*) of what each kind of device needs, in order. */
export const REQUIREMENTS: Record<DeviceKind, readonly string[]> = {
  x86: ['reqNode', 'reqTools', 'reqFfmpeg', 'reqDocker', 'reqGpu'],
  jetson: ['reqJetpack', 'reqNode', 'reqTools', 'reqFfmpeg', 'reqDocker', 'reqJtop'],
};

export function useDownloadRef(): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.download);
}

export function useDownloadView(): DownloadView {
  return useSelector(
    useDownloadRef(),
    (s: DownloadSnapshot) => downloadToView(s),
    (a, b) => JSON.stringify(a) === JSON.stringify(b),
  );
}
