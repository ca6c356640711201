/**
 * Quick search (src/protocol/search.ts; spec §5): GET search?q → the caller's devices (label or device_id
 * contains q), cameras of their devices (name contains q) and IP cameras (label contains q), at most
 * QUICK_SEARCH_LIMIT of each, by name. Every provider is scoped to the caller; a feature that can be searched
 * for adds its provider to SEARCH_PROVIDERS.
 */
import { and, asc, eq, ilike, or, type SQL } from 'drizzle-orm';
import { QUICK_SEARCH_LIMIT, type searchRoutes } from '../../protocol/search';
import { userOf } from '../auth/guard';
import { likeContains } from '../db/scope';
import { devices, ipCameras, physicalCameras } from '../db/schema';
import { searchGroups } from './groups';
import type { HandlersOf } from './register';
import type { SearchProvider } from './searchProvider';

const deviceLink = (deviceId: string) => `/control-panel/devices?device=${encodeURIComponent(deviceId)}`;

const searchDevices: SearchProvider = async (db, ownerId, pattern, limit) => {
  const rows = await db
    .select({ deviceId: devices.deviceId, label: devices.label })
    .from(devices)
    .where(
      and(
        eq(devices.ownerId, ownerId),
        or(ilike(devices.label, pattern), ilike(devices.deviceId, pattern)) as SQL,
      ),
    )
    .orderBy(asc(devices.label))
    .limit(limit);
  return rows.map((r) => ({
    kind: 'device' as const,
    id: r.deviceId,
    label: r.label,
    detail: r.deviceId,
    link: deviceLink(r.deviceId),
  }));
};

const searchCameras: SearchProvider = async (db, ownerId, pattern, limit) => {
  const rows = await db
    .select({
      id: physicalCameras.id,
      name: physicalCameras.name,
      label: devices.label,
      deviceId: devices.deviceId,
    })
    .from(physicalCameras)
    .innerJoin(devices, eq(devices.id, physicalCameras.deviceRowId))
    .where(and(eq(devices.ownerId, ownerId), ilike(physicalCameras.name, pattern)))
    .orderBy(asc(physicalCameras.name), asc(devices.label))
    .limit(limit);
  return rows.map((r) => ({
    kind: 'camera' as const,
    id: r.id,
    label: r.name,
    detail: r.label,
    link: '/control-panel/cameras',
  }));
};

const searchIpCameras: SearchProvider = async (db, ownerId, pattern, limit) => {
  const rows = await db
    .select({ id: ipCameras.id, label: ipCameras.label, via: devices.label })
    .from(ipCameras)
    .leftJoin(devices, eq(devices.id, ipCameras.deviceRowId))
    .where(and(eq(ipCameras.ownerId, ownerId), ilike(ipCameras.label, pattern)))
    .orderBy(asc(ipCameras.label))
    .limit(limit);
  return rows.map((r) => ({
    kind: 'ipCamera' as const,
    id: r.id,
    label: r.label,
    detail: r.via,
    link: '/control-panel/cameras',
  }));
};

/** What quick search looks through, in the order its hits are listed. */
export const SEARCH_PROVIDERS: readonly SearchProvider[] = [
  searchDevices,
  searchCameras,
  searchIpCameras,
  searchGroups,
];

export const searchHandlers: HandlersOf<typeof searchRoutes> = (ctx) => ({
  'search.quick': async ({ query }, request) => {
    const owner = userOf(request).id;
    const pattern = likeContains(query.q);
    const found = await Promise.all(
      SEARCH_PROVIDERS.map((p) => p(ctx.db, owner, pattern, QUICK_SEARCH_LIMIT)),
    );
    return { hits: found.flat() };
  },
});
