/**
 * The device page's side effects (machines/devicePage/devicePage.machine.ts), loaded after sign-in in the
 * feature's own chunk (ConsoleFeature.loadActors).
 */
import { fromPromise } from 'xstate';
import { devicePageMachine } from '../../../../machines/devicePage/devicePage.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';
import { devicePageApi } from './api';

export function devicePageActors({ http, peerLink }: Platform): FeatureActor[] {
  const api = devicePageApi(http, peerLink);
  return [
    featureActor({
      systemId: SYSTEM_IDS.devicePage,
      logic: devicePageMachine.provide({
        actors: {
          loadDevice: fromPromise(({ input, signal }) => api.loadDevice(input.deviceId, signal)),
          checkPresence: fromPromise(({ input, signal }) => api.isOnline(input.deviceId, signal)),
          generateToken: fromPromise(({ input }) => api.generateToken(input.id)),
          deleteDevice: fromPromise(({ input }) => api.deleteDevice(input.id)),
          checkGpuDriver: fromPromise(({ input }) => api.gpuDriver(input.deviceId)),
        },
      }),
      onSignOut: [{ type: 'page.close' }],
    }),
  ];
}
