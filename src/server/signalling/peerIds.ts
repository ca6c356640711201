/**
 * Which signalling peer ids are devices' (spec §7 signalling; issue 15 "browser peer ids are bound to their
 * user"): a device registers under its `device_id`, which starts with DEVICE_PEER_PREFIX; a browser can never
 * register such an id (get_browser_token answers 400, the upgrade refuses it). Used by the signalling server, its
 * cluster (device rows outlive their socket) and the signalling routes.
 */

/** Peer ids starting with this prefix belong to devices; a browser can never register one. */
export const DEVICE_PEER_PREFIX = 'dev-';

/** True for a device's peer id (the prefix, any case). */
export function isDevicePeerId(id: string): boolean {
  return id.toLowerCase().startsWith(DEVICE_PEER_PREFIX);
}
