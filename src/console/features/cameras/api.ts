/**
 * The cameras feature's REST calls (spec §7 usage/check_stream_limit, camera-layout, ip-cameras, and the
 * devices a saved layout needs from get_devices/).
 */
import type { Device, IpCamera, SavedStream } from '../../../protocol/rest';
import type { Http } from '../../platform/http';

export function camerasApi(http: Http) {
  return {
    /** GET usage/check_stream_limit?deviceId&numOfCameras → is_quota_available. */
    async checkStreamLimit(deviceId: string, numOfCameras: number, signal?: AbortSignal): Promise<boolean> {
      const answer = await http.call('usage.checkStreamLimit', { query: { deviceId, numOfCameras }, signal });
      return answer.is_quota_available;
    },

    /**
     * GET camera-layout → the signed-in user's saved camera page (streams with page and cell), or an empty
     * layout. Answer parsed with rest.ts CameraLayoutResponse.
     */
    getCameraLayout(signal?: AbortSignal): Promise<{ streams: SavedStream[]; updated_at: string | null }> {
      return http.call('layout.get', { signal });
    },

    /** PUT camera-layout { streams } → the stored layout (at most 12 streams per page, rest.ts CameraLayout). */
    async putCameraLayout(streams: SavedStream[], signal?: AbortSignal): Promise<void> {
      await http.call('layout.put', { body: { streams }, signal });
    },

    /** GET ip-cameras → data.data (§7; IP cameras listed from the server, each with the device reaching it). */
    async getIpCameras(signal?: AbortSignal): Promise<IpCamera[]> {
      const answer = await http.call('cameras.ipCameras', { query: {}, signal });
      return answer.data.data;
    },

    /**
     * The devices with these device_ids that the user still owns: GET get_devices/ page by page (100 per
     * page) until all are found or the list ends. Ids not found are left out.
     */
    async getDevicesByIds(deviceIds: readonly string[], signal?: AbortSignal): Promise<Device[]> {
      const wanted = new Set(deviceIds);
      const found: Device[] = [];
      for (let page = 1; wanted.size > 0 && page <= 50; page++) {
        const answer = await http.call('devices.list', {
          query: { per_page: 100, page, order_by: 'created_at', order_as: 'asc' },
          signal,
        });
        for (const d of answer.res) {
          if (wanted.delete(d.device_id)) found.push(d);
        }
        if (answer.res.length < 100) break;
      }
      return found;
    },
  };
}

export type CamerasApi = ReturnType<typeof camerasApi>;
