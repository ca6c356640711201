/**
 * The device page's calls (spec §7 get_devices/ searched by id, GET peerjs/peerjs/{device_id}, POST
 * generate_token, DELETE device; device command get-gpu-driver-version).
 */
import type { Device } from '../../../protocol/devices';
import type { Http } from '../../platform/http';
import type { PeerLink } from '../../platform/peerLink';

export function devicePageApi(http: Http, peerLink: PeerLink) {
  return {
    /** The user's device with this device_id (the list is searched by id; the exact match), else null. */
    async loadDevice(deviceId: string, signal?: AbortSignal): Promise<Device | null> {
      const page = await http.call('devices.list', {
        query: { search: deviceId, per_page: 100, page: 1 },
        signal,
      });
      return page.res.find((d) => d.device_id === deviceId) ?? null;
    },

    /** GET peerjs/peerjs/{device_id} → isOnline. */
    async isOnline(deviceId: string, signal?: AbortSignal): Promise<boolean> {
      const answer = await http.call('signalling.isOnline', { params: { device_id: deviceId }, signal });
      return answer.isOnline;
    },

    /** POST generate_token { id } → the new device token ('' when the answer holds none). */
    async generateToken(id: string): Promise<string> {
      const answer = await http.call('devices.generateToken', { body: { id } });
      return answer.result?.access_token ?? '';
    },

    /** DELETE device { ids: [id] }. */
    async deleteDevice(id: string): Promise<void> {
      await http.call('devices.delete', { body: { ids: [id] } });
    },

    /** get-gpu-driver-version (the device must be connected). */
    gpuDriver(deviceId: string) {
      return peerLink.callDevice(deviceId, 'get-gpu-driver-version', {});
    },
  };
}
