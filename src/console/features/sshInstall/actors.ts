/**
 * The SSH install feature's side effects (machines/sshInstall/*.machine.ts) over its REST calls (api.ts):
 * connect (creating the device record first when the install has none yet), one streamed step, disconnect and
 * forget a host key. Loaded in its own chunk after sign-in (ConsoleFeature.loadActors).
 */
import { fromCallback, fromPromise } from 'xstate';
import {
  sshInstallMachine,
  type SshConnectOutput,
  type SshCredentials,
  type SshInstallEvent,
  type SshInstallTarget,
} from '../../../../machines/sshInstall/sshInstall.machine';
import { sshInstallsMachine } from '../../../../machines/sshInstall/sshInstalls.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { SshProcess } from '../../../protocol/sshInstall';
import type { Platform } from '../feature';
import { sshInstallApi, SshCallError } from './api';

interface AuthLike {
  getSnapshot(): { context: { token: string | null } };
}

export function sshInstallActors({ http }: Platform): FeatureActor[] {
  let auth: AuthLike | null = null;
  const api = sshInstallApi({ http, getToken: () => auth?.getSnapshot().context.token ?? null });

  const install = sshInstallMachine.provide({
    actors: {
      connect: fromPromise<SshConnectOutput, { target: SshInstallTarget; credentials: SshCredentials }>(
        async ({ input, system }) => {
          auth ??= system.get(SYSTEM_IDS.auth) as AuthLike | null;
          const deviceId = input.target.deviceId || (await api.createDevice(input.target.device));
          const answer = await api
            .connect({ ...input.target, deviceId }, input.credentials)
            .catch((e: unknown) => {
              // The record exists now: a retry reuses it (the error carries its id).
              throw Object.assign(e instanceof Error ? e : new SshCallError(String(e), 'network', 0), {
                deviceId,
              });
            });
          return { ...answer, device_id: deviceId };
        },
      ),
      runStep: fromCallback<
        SshInstallEvent,
        { sessionId: string; endpoint: SshProcess; payload: Record<string, unknown> }
      >(({ input, sendBack, system }) => {
        auth ??= system.get(SYSTEM_IDS.auth) as AuthLike | null;
        const abort = new AbortController();
        api
          .runStep(
            input.sessionId,
            input.endpoint,
            input.payload,
            (lines) => sendBack({ type: 'step.output', lines }),
            abort.signal,
          )
          .then(
            (result) => !abort.signal.aborted && sendBack({ type: 'step.result', result }),
            (e: unknown) => {
              if (abort.signal.aborted) return;
              const err = e instanceof SshCallError ? e : new SshCallError(String(e), 'network', 0);
              sendBack({
                type: 'step.error',
                error: { code: err.code, message: err.message, status: err.status },
              });
            },
          );
        return () => abort.abort();
      }),
      disconnect: fromPromise<void, { sessionId: string | null }>(({ input }) =>
        api.disconnect(input.sessionId),
      ),
      forgetHostKey: fromPromise<void, { hostname: string; port: number }>(({ input }) =>
        api.forgetHostKey(input.hostname, input.port),
      ),
    },
  });

  return [
    featureActor({
      systemId: SYSTEM_IDS.sshInstall,
      logic: sshInstallsMachine.provide({ actors: { sshInstall: install } }),
      onSignOut: [{ type: 'sshInstalls.reset' }],
    }),
  ];
}
