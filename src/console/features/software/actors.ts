/**
 * The software feature's side effects (machines/software/*.machine.ts): the checks and the client update's
 * device commands, and the device's presence read from the devices feature (the power feature's
 * watchDeviceOnline: its connection in the device pool is open or not). Loaded in its own chunk after
 * sign-in (ConsoleFeature.loadActors).
 */
import { fromCallback, fromPromise } from 'xstate';
import { errorText } from '../../../../machines/notifications/emitted';
import {
  clientUpdateMachine,
  UPDATE_FLOW_TEXTS,
  type ClientUpdateEvent,
  type UpdateProgress,
} from '../../../../machines/software/clientUpdate.machine';
import {
  softwareMachine,
  type CheckTaskInput,
  type SoftwareEvent,
} from '../../../../machines/software/software.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';
import { watchDeviceOnline } from '../power/actors';
import { softwareCommands } from './api';

/** A progress message's UpdateStatus, or null when it is not one. */
export function progressOf(data: unknown): UpdateProgress | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  if (typeof d.state !== 'string' || typeof d.bytes_done !== 'number' || typeof d.bytes_total !== 'number')
    return null;
  return {
    state: d.state,
    version: typeof d.version === 'string' ? d.version : null,
    bytes_done: d.bytes_done,
    bytes_total: d.bytes_total,
  };
}

const codeOf = (error: unknown): string =>
  typeof error === 'object' && error && 'code' in error && typeof error.code === 'string'
    ? error.code
    : 'other';

export function softwareActors({ peerLink }: Platform): FeatureActor[] {
  const commands = softwareCommands(peerLink.callDevice.bind(peerLink));

  const clientUpdate = clientUpdateMachine.provide({
    actors: {
      runUpdate: fromCallback<ClientUpdateEvent, { deviceId: string; version: string | null }>(
        ({ input, sendBack }) => {
          const abort = new AbortController();
          commands
            .update(
              input.deviceId,
              input.version,
              (data) => {
                const p = progressOf(data);
                if (p && !abort.signal.aborted) sendBack({ type: 'update.progress', ...p });
              },
              abort.signal,
            )
            .then(
              (reply) =>
                !abort.signal.aborted && sendBack({ type: 'update.installed', version: reply.version }),
              (error: unknown) =>
                !abort.signal.aborted &&
                sendBack({
                  type: 'update.failed',
                  code: codeOf(error),
                  message: errorText(error, UPDATE_FLOW_TEXTS.other),
                }),
            );
          return () => abort.abort();
        },
      ),
      sendRestart: fromPromise(async ({ input }) => commands.restart(input.deviceId)),
      watchPresence: fromCallback<ClientUpdateEvent, { deviceId: string }>(({ input, sendBack, system }) =>
        watchDeviceOnline(system, input.deviceId, (online) => sendBack({ type: 'update.presence', online })),
      ),
      readVersion: fromPromise(async ({ input }) => commands.versionCheck(input.deviceId)),
    },
  });

  const software = softwareMachine.provide({
    actors: {
      clientUpdate,
      checkTask: fromCallback<SoftwareEvent, CheckTaskInput>(({ input, sendBack }) => {
        let live = true;
        commands.check(input.deviceId, input.op).then(
          (result) => live && sendBack({ type: 'software.result', ...input, result }),
          (error: unknown) =>
            live && sendBack({ type: 'software.failed', ...input, error: errorText(error, 'Failed') }),
        );
        return () => {
          live = false;
        };
      }),
    },
  });

  return [
    featureActor({
      systemId: SYSTEM_IDS.software,
      logic: software,
      onSignOut: [{ type: 'software.reset' }],
    }),
  ];
}
