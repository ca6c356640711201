/**
 * The ipCameras feature's implementations (issue 16 §2 IP cameras): the manager (machines/ipCameras/
 * ipCameras.machine.ts) reads GET ip-cameras/manage and the caller's devices, removes with DELETE
 * ip-cameras/:id (§7 remove-ip-camera); its form saves with POST / PUT ip-cameras and tests with the device's
 * ip-camera-still over the peer link (the device must be connected: the camera page connects them).
 */
import { fromPromise } from 'xstate';
import {
  ipCameraFormMachine,
  type IpCameraStill,
  type SaveCameraInput,
  type TestStillInput,
} from '../../../../machines/ipCameras/ipCameraForm.machine';
import { ipCamerasMachine, type ReachingDevice } from '../../../../machines/ipCameras/ipCameras.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { ManagedIpCamera } from '../../../protocol/ipCameras';
import type { Platform } from '../feature';

/** Most devices offered as the reaching device (the server's page limit). */
export const REACHING_DEVICES_MAX = 100;
/** Time allowed for a still (the device allows 10 s for the camera), ms. */
const STILL_CALL_MS = 20_000;

export function ipCamerasActors({ http, peerLink }: Platform): FeatureActor[] {
  const form = ipCameraFormMachine.provide({
    actors: {
      testStill: fromPromise<IpCameraStill, TestStillInput>(({ input }) =>
        peerLink.callDevice(
          input.deviceId,
          'ip-camera-still',
          { url: input.url, username: input.username, password: input.password },
          { timeoutMs: STILL_CALL_MS },
        ),
      ),
      saveCamera: fromPromise<ManagedIpCamera, SaveCameraInput>(async ({ input, signal }) => {
        const answer =
          input.cameraId === null
            ? await http.call('ipCameras.create', { body: input.body, signal })
            : await http.call('ipCameras.update', {
                params: { id: input.cameraId },
                body: input.body,
                signal,
              });
        return answer.camera;
      }),
    },
  });
  return [
    featureActor({
      systemId: SYSTEM_IDS.ipCameras,
      logic: ipCamerasMachine.provide({
        actors: {
          ipCameraForm: form,
          loadCameras: fromPromise<{ cameras: ManagedIpCamera[]; devices: ReachingDevice[] }>(
            async ({ signal }) => {
              const [cams, devs] = await Promise.all([
                http.call('ipCameras.manage', { signal }),
                http.call('devices.list', { query: { per_page: REACHING_DEVICES_MAX }, signal }),
              ]);
              return {
                cameras: cams.cameras,
                devices: devs.res.map((d) => ({ deviceId: d.device_id, label: d.label })),
              };
            },
          ),
          removeCamera: fromPromise<void, { id: string }>(async ({ input, signal }) => {
            await http.call('ipCameras.remove', { params: { id: input.id }, signal });
          }),
        },
      }),
      onSignOut: [{ type: 'ipc.reset' }],
    }),
  ];
}
