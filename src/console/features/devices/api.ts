/**
 * The devices feature's REST calls (spec §7 get_devices/, check/peerjs/{device_id}).
 */
import type { GetDevicesQuery, GetDevicesResponse } from '../../../protocol/rest';
import type { Http } from '../../platform/http';

export function devicesApi(http: Http) {
  return {
    /** GET get_devices/ — one page of the devices table (§7, §9 defaults). */
    getDevices(query: GetDevicesQuery, signal?: AbortSignal): Promise<GetDevicesResponse> {
      return http.call('devices.list', { query, signal });
    },

    /** GET check/peerjs/{device_id} → exist (is the device registered with signalling?). */
    async checkDeviceExists(deviceId: string, signal?: AbortSignal): Promise<boolean> {
      const answer = await http.call('signalling.exist', { params: { device_id: deviceId }, signal });
      return answer.exist;
    },
  };
}

export type DevicesApi = ReturnType<typeof devicesApi>;
