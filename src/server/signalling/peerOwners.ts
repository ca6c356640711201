/**
 * Who owns each registered signalling peer id (issue 15 "browser peer ids are bound to their user"): a browser
 * peer's user or a device's owner, from the token it registered with. Filled by the signalling server
 * (./peerServer.ts) while a browser peer is registered (devices stay known); read by get_browser_token and
 * device-grant, which refuse another user's peer id (409 Peer_id_taken), and by the upgrade, which refuses a
 * second user's socket for an id that is registered. Shared by every server instance (issue 15 "Scale-out"):
 * the table signalling_peers, mirrored in memory by ./cluster.ts; before the cluster has started (and in tests
 * that mount no signalling) a per-context map stands in.
 */
import type { ServerContext } from '../context';
import type { SignallingCluster } from './cluster';

const clusters = new WeakMap<ServerContext, SignallingCluster>();
const local = new WeakMap<ServerContext, Map<string, string>>();

/** Makes `cluster` the owner registry of `ctx` (called by the signalling server at start). */
export function attachCluster(ctx: ServerContext, cluster: SignallingCluster): void {
  clusters.set(ctx, cluster);
}

/** The cluster of `ctx`'s signalling server, if started. */
export function clusterOf(ctx: ServerContext): SignallingCluster | undefined {
  return clusters.get(ctx);
}

function localOf(ctx: ServerContext): Map<string, string> {
  let map = local.get(ctx);
  if (!map) {
    map = new Map();
    local.set(ctx, map);
  }
  return map;
}

/** The user `peerId` belongs to, on any instance; undefined when unknown. */
export function ownerOf(ctx: ServerContext, peerId: string): string | undefined {
  return clusters.get(ctx)?.ownerOf(peerId) ?? localOf(ctx).get(peerId);
}

/** `peerId`, owned by `owner`, registered on this instance. */
export function setOwner(ctx: ServerContext, peerId: string, owner: string): void {
  const cluster = clusters.get(ctx);
  if (cluster) cluster.register(peerId, owner);
  else localOf(ctx).set(peerId, owner);
}

/** `peerId` left this instance; `keep` (devices) keeps its owner known. */
export function releaseOwner(ctx: ServerContext, peerId: string, keep: boolean): void {
  const cluster = clusters.get(ctx);
  if (cluster) cluster.unregister(peerId, keep);
  else if (!keep) localOf(ctx).delete(peerId);
}

/** True when `peerId` is registered now by a user other than `userId`. */
export function ownedByAnother(ctx: ServerContext, peerId: string, userId: string): boolean {
  const owner = ownerOf(ctx, peerId);
  return owner !== undefined && owner !== userId;
}
