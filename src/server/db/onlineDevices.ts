/**
 * A user's devices online now (spec §7 get-online-devices; get_devices active_devices_count and its is_active
 * order), read once per presence change instead of once per request (issue 15 "Load": the join of the owner's
 * devices with 1,000 online peer ids cost PostgreSQL ~1.5 ms per statement, in every device list, search and
 * online call).
 *
 * The presence list (Presence.onlineIds) is one frozen array until a peer connects or leaves, here or on another
 * instance, or 1 s passes; the answer for an owner is remembered for that array object only, so it is never older
 * than the presence it was read with. A device row added, renamed or grouped meanwhile does not change the answer
 * (it is about which rows are online, by row id and peer id); a row deleted while online also closes its socket,
 * which changes the presence list.
 *
 * With `ownerOfPeer` (the signalling server's peer owners: a device's owner is its device token's subject, which
 * the upgrade checked against the device row), only the peer ids of this owner, or of no known owner, are sent
 * to PostgreSQL: a user's read costs their own devices, not the whole fleet's online list.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from './index';
import { devices } from './schema';
import { isAnyOf } from './scope';

/** The owner's devices online now, both lists in ascending order. */
export interface OwnerOnline {
  /** Row ids (devices.id, uuid). */
  ids: readonly string[];
  /** Peer ids (devices.device_id). */
  deviceIds: readonly string[];
}

/** Owners remembered per presence list (the oldest dropped beyond it). */
const OWNERS_PER_LIST_MAX = 1000;

const byList = new WeakMap<readonly string[], Map<string, Promise<OwnerOnline>>>();

/** Who a signalling peer id belongs to (src/server/signalling/peerOwners.ts ownerOf); undefined when unknown. */
export type PeerOwnerLookup = (peerId: string) => string | undefined;

/**
 * The devices of `ownerId` whose peer id is in `online` (a Presence.onlineIds() answer). A failed read is not
 * remembered.
 * @throws the database error of the read.
 */
export function ownerOnline(
  db: Db,
  ownerId: string,
  online: readonly string[],
  ownerOfPeer?: PeerOwnerLookup,
): Promise<OwnerOnline> {
  if (!Object.isFrozen(online)) return readOwnerOnline(db, ownerId, online, ownerOfPeer);
  let owners = byList.get(online);
  if (!owners) byList.set(online, (owners = new Map()));
  const known = owners.get(ownerId);
  if (known) return known;
  const read = readOwnerOnline(db, ownerId, online, ownerOfPeer);
  owners.set(ownerId, read);
  if (owners.size > OWNERS_PER_LIST_MAX) owners.delete(owners.keys().next().value!);
  read.catch(() => {
    if (owners.get(ownerId) === read) owners.delete(ownerId);
  });
  return read;
}

async function readOwnerOnline(
  db: Db,
  ownerId: string,
  all: readonly string[],
  ownerOfPeer?: PeerOwnerLookup,
): Promise<OwnerOnline> {
  const online = ownerOfPeer
    ? all.filter((id) => {
        const owner = ownerOfPeer(id);
        return owner === undefined || owner === ownerId;
      })
    : all;
  if (online.length === 0) return { ids: [], deviceIds: [] };
  const rows = await db
    .select({ id: devices.id, deviceId: devices.deviceId })
    .from(devices)
    .where(and(eq(devices.ownerId, ownerId), isAnyOf(devices.deviceId, online)))
    .orderBy(asc(devices.id));
  return {
    ids: Object.freeze(rows.map((r) => r.id)),
    deviceIds: Object.freeze(rows.map((r) => r.deviceId).sort()),
  };
}
