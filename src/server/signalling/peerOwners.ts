/**
 * Who owns each registered signalling peer id (issue 15 "browser peer ids are bound to their user"): a browser
 * peer's user or a device's owner, from the token it registered with. Filled by the signalling server
 * (./peerServer.ts) while a browser peer is registered (devices stay known); read by get_browser_token and
 * device-grant, which refuse another user's peer id (409 Peer_id_taken), and by the upgrade, which refuses a
 * second user's socket for an id that is registered. One map per server context (one instance: see README).
 */
import type { ServerContext } from '../context';

const owners = new WeakMap<ServerContext, Map<string, string>>();

/** Peer id → user id, for `ctx`'s signalling server. */
export function peerOwnersOf(ctx: ServerContext): Map<string, string> {
  let map = owners.get(ctx);
  if (!map) {
    map = new Map();
    owners.set(ctx, map);
  }
  return map;
}

/** True when `peerId` is registered now by a user other than `userId`. */
export function ownedByAnother(ctx: ServerContext, peerId: string, userId: string): boolean {
  const owner = peerOwnersOf(ctx).get(peerId);
  return owner !== undefined && owner !== userId;
}
