/**
 * The signalling feature's REST calls (spec §7 get_browser_token, device-grant): what the peer link
 * (platform/peerLink.ts) asks the server before it opens signalling and each device's data channel.
 */
import type { z } from 'zod';
import type { BrowserTokenResponse, DeviceGrantResponse, IceServersResponse } from '../../../protocol/rest';
import type { Http } from '../../platform/http';

export function signallingApi(http: Http) {
  return {
    /** POST get_browser_token { browser_id } → signalling token and ICE servers. */
    getBrowserToken(browserId: string): Promise<z.infer<typeof BrowserTokenResponse>> {
      return http.call('signalling.browserToken', { body: { browser_id: browserId } });
    },

    /** GET ice-servers → new ICE servers (fresh TURN credentials), policy, expires_at (issue 15). */
    iceServers(): Promise<IceServersResponse> {
      return http.call('signalling.iceServers', { query: {} });
    },

    /** POST device-grant { device_id, browser_id } → a 60 s grant for the device link's hello. */
    deviceGrant(
      deviceId: string,
      browserId: string,
      signal?: AbortSignal,
    ): Promise<z.infer<typeof DeviceGrantResponse>> {
      return http.call('signalling.deviceGrant', {
        body: { device_id: deviceId, browser_id: browserId },
        signal,
      });
    },
  };
}

export type SignallingApi = ReturnType<typeof signallingApi>;
