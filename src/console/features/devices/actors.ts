/**
 * The devices feature's side effects: the devices table's REST call, and each device connection's link,
 * presence poll, ping and device commands (machines/devices/*.machine.ts; platform/peerLink.ts).
 */
import { fromCallback, fromPromise } from 'xstate';
import {
  deviceConnectionMachine,
  PRESENCE_POLL_MS,
  type DeviceInfo,
  type HealthSample,
} from '../../../../machines/devices/deviceConnection.machine';
import { devicePoolMachine } from '../../../../machines/devices/devicePool.machine';
import { devicesTableMachine } from '../../../../machines/devices/devicesTable.machine';
import { DEVICE_PING_TIMEOUT_MS, X86_CHIPSET_ID } from '../../../protocol/constants';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';
import { devicesApi } from './api';

/**
 * The device pool (one connection actor per device; closes every link on sign-out) and the devices table
 * (loads on sign-in, clears on sign-out).
 */
export function devicesActors({ http, peerLink }: Platform): FeatureActor[] {
  const api = devicesApi(http);

  const devicesTable = devicesTableMachine.provide({
    actors: {
      loadDevices: fromPromise(async ({ input, signal: abort }) => api.getDevices(input, abort)),
    },
  });

  const deviceConnection = deviceConnectionMachine.provide({
    actors: {
      openLink: fromPromise(async ({ input, signal: abort }) => {
        const began = performance.now();
        try {
          return { openedAt: await peerLink.openDevice(input.deviceId, abort) };
        } catch (err) {
          // In the browser console (and with a failing e2e test's output): why a device link did not open.
          if (!abort.aborted)
            console.warn(
              `device link ${input.deviceId}: open failed after ${Math.round(performance.now() - began)} ms: ` +
                (err instanceof Error ? err.message : String(err)),
            );
          throw err;
        }
      }),
      watchLink: fromCallback(({ input, sendBack }) => {
        const off = peerLink.onDeviceClosed(input.deviceId, (reason) =>
          sendBack({ type: 'device.link.closed', reason }),
        );
        return () => {
          off();
          peerLink.closeDevice(input.deviceId);
        };
      }),
      watchPresence: fromCallback(({ input, sendBack }) => {
        // §9 presence: polled fast only while reconnecting, one request at a time.
        const controller = new AbortController();
        let busy = false;
        const timer = setInterval(() => {
          if (busy) return;
          busy = true;
          api
            .checkDeviceExists(input.deviceId, controller.signal)
            .then((exists) => sendBack({ type: 'device.presence', exists }))
            .catch(() => undefined)
            .finally(() => {
              busy = false;
            });
        }, PRESENCE_POLL_MS);
        return () => {
          clearInterval(timer);
          controller.abort();
        };
      }),
      pingDevice: fromPromise(async ({ input }) => {
        const started = performance.now();
        // The machine decides the 5 s time-out; the call's own bound is only a backstop.
        await peerLink.callDevice(input.deviceId, 'ping', {}, { timeoutMs: DEVICE_PING_TIMEOUT_MS + 1_000 });
        return { rttMs: performance.now() - started };
      }),
      checkDeviceExists: fromPromise(async ({ input, signal: abort }) =>
        api.checkDeviceExists(input.deviceId, abort),
      ),
      loadDeviceInfo: fromPromise(async ({ input }): Promise<DeviceInfo> => {
        const call = peerLink.callDevice.bind(peerLink);
        const isX86 = input.chipsetId === X86_CHIPSET_ID;
        const [version, cameraList, x86Info, jtop] = await Promise.all([
          call(input.deviceId, 'get-client-version', {}),
          call(input.deviceId, 'camera-list', {}),
          isX86
            ? call(input.deviceId, 'x86-device-information', {}).catch(() => null)
            : Promise.resolve(null),
          isX86 ? Promise.resolve(null) : call(input.deviceId, 'jtop-health', {}).catch(() => null),
        ]);
        return { clientVersion: version.version, cameras: cameraList.cameras, x86Info, jtop };
      }),
      sampleHealth: fromPromise(async ({ input }): Promise<HealthSample> => {
        const [health, usage] = await Promise.all([
          peerLink.callDevice(input.deviceId, 'check-health', {}),
          peerLink.callDevice(input.deviceId, 'get-usages', {}),
        ]);
        return { health, usage };
      }),
    },
    actions: {
      closeLink: (_, params) => peerLink.closeDevice(params.deviceId),
    },
  });

  return [
    featureActor({
      systemId: SYSTEM_IDS.devicePool,
      logic: devicePoolMachine.provide({ actors: { deviceConnection } }),
      input: ({ peerConnectionLimit }) => ({ limit: peerConnectionLimit }),
      onSignOut: [{ type: 'pool.reset' }],
    }),
    featureActor({
      systemId: SYSTEM_IDS.devicesTable,
      logic: devicesTable,
      onSignIn: [{ type: 'table.refresh' }],
      onSignOut: [{ type: 'table.reset' }],
    }),
  ];
}
