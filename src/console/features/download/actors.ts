/**
 * The download feature's actor: the download machine (systemId 'download': GET download/info, POST
 * download/devices).
 */
import { fromPromise } from 'xstate';
import { downloadMachine } from '../../../../machines/download/download.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { DeviceKind } from '../../../protocol/download';
import type { Platform } from '../feature';

export function downloadActors({ http }: Platform): FeatureActor[] {
  return [
    featureActor({
      systemId: SYSTEM_IDS.download,
      logic: downloadMachine.provide({
        actors: {
          loadInfo: fromPromise(({ signal }) => http.call('download.info', { signal })),
          createDevice: fromPromise(
            ({ input, signal }: { input: { label: string; kind: DeviceKind }; signal: AbortSignal }) =>
              http.call('download.createDevice', { body: input, signal }),
          ),
        },
      }),
      onSignOut: [{ type: 'download.reset' }],
    }),
  ];
}
