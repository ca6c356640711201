/**
 * Handlers of the map feature's routes (src/protocol/map.ts; issue 16 §2 /map: devices on a map, a location set
 * per device, tiles from a configurable URL). Every query is scoped to the caller's devices.
 *
 * Tiles: `MAP_TILE_URL` (a Leaflet template with {z}, {x} and {y}, optionally {s}; http(s) or a path on this
 * server), `MAP_TILE_ATTRIBUTION` (plain text) and `MAP_MAX_ZOOM` (1–24) are read from the environment when the
 * server starts; without them (or with an invalid template, which is logged and ignored) the map uses
 * OpenStreetMap's public tile server and its attribution.
 *
 * Scale: markers are the caller's located devices (in a box when given), by label, at most MAP_MARKERS_MAX with
 * the matching total; the side list is paged (offset paging, by lower(label), device_id).
 */
import { and, asc, count, eq, gte, ilike, isNotNull, isNull, lte, or, type SQL } from 'drizzle-orm';
import {
  DEFAULT_MAP_ATTRIBUTION,
  DEFAULT_MAP_MAX_ZOOM,
  DEFAULT_MAP_TILE_URL,
  MAP_MARKERS_MAX,
  MAP_TEXTS,
  type MapConfig,
  type MapDevice,
  type mapRoutes,
} from '../../protocol/map';
import { userOf } from '../auth/guard';
import { deviceNamed, likeContains } from '../db/scope';
import { devices } from '../db/schema';
import { badRequest, notFound } from '../errors';
import type { HandlersOf } from './register';

/** Why a MAP_TILE_URL is refused, or null when it is a usable Leaflet template. */
export function tileUrlProblem(url: string): string | null {
  if (url.length > 2000) return 'longer than 2000 characters';
  if (!/^(https?:\/\/|\/)/.test(url)) return 'must start with http://, https:// or /';
  for (const part of ['{z}', '{x}', '{y}']) if (!url.includes(part)) return `lacks ${part}`;
  return null;
}

/**
 * The map configuration from environment variables (MAP_TILE_URL, MAP_TILE_ATTRIBUTION, MAP_MAX_ZOOM).
 * `warn` hears about an ignored value. An operator's own tile server gets no default attribution (OpenStreetMap's
 * would be wrong); MAP_TILE_ATTRIBUTION gives one.
 */
export function mapConfigFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  warn: (message: string) => void = () => undefined,
): MapConfig {
  const url = env.MAP_TILE_URL?.trim();
  let tileUrl = DEFAULT_MAP_TILE_URL;
  let custom = false;
  if (url) {
    const problem = tileUrlProblem(url);
    if (problem) warn(`MAP_TILE_URL ignored: ${problem}`);
    else {
      tileUrl = url;
      custom = true;
    }
  }
  const zoomText = env.MAP_MAX_ZOOM?.trim();
  const zoom = zoomText ? Number(zoomText) : DEFAULT_MAP_MAX_ZOOM;
  const maxZoom = Number.isInteger(zoom) && zoom >= 1 && zoom <= 24 ? zoom : DEFAULT_MAP_MAX_ZOOM;
  if (zoom !== maxZoom) warn('MAP_MAX_ZOOM ignored: must be a whole number from 1 to 24');
  const attribution =
    env.MAP_TILE_ATTRIBUTION?.trim().slice(0, 500) || (custom ? '' : DEFAULT_MAP_ATTRIBUTION);
  return { tile_url: tileUrl, attribution, max_zoom: maxZoom };
}

const columns = {
  id: devices.id,
  deviceId: devices.deviceId,
  label: devices.label,
  latitude: devices.latitude,
  longitude: devices.longitude,
};
type Row = { id: string; deviceId: string; label: string; latitude: number | null; longitude: number | null };

/** The longitude condition of a box; west > east crosses the antimeridian. */
function longitudeIn(west: number, east: number): SQL {
  return west <= east
    ? (and(gte(devices.longitude, west), lte(devices.longitude, east)) as SQL)
    : (or(gte(devices.longitude, west), lte(devices.longitude, east)) as SQL);
}

export const mapHandlers: HandlersOf<typeof mapRoutes> = (ctx) => {
  const config = mapConfigFromEnv(process.env, (m) => console.warn(m));
  const toMapDevice = (r: Row): MapDevice => ({
    id: r.id,
    device_id: r.deviceId,
    label: r.label,
    latitude: r.latitude,
    longitude: r.longitude,
    is_active: ctx.presence.isOnline(r.deviceId),
  });
  const setLocation = async (
    ownerId: string,
    id: string,
    latitude: number | null,
    longitude: number | null,
  ) => {
    const [row] = await ctx.db
      .update(devices)
      .set({ latitude, longitude })
      .where(and(eq(devices.ownerId, ownerId), deviceNamed(id)))
      .returning(columns);
    if (!row) throw notFound('Device');
    return toMapDevice(row);
  };

  return {
    'map.config': async () => config,

    'map.markers': async ({ query: q }, request) => {
      const box = [q.south, q.west, q.north, q.east];
      const given = box.filter((v) => v !== undefined).length;
      if (given !== 0 && given !== 4) throw badRequest(`querystring: ${MAP_TEXTS.boxIncomplete}`);
      const where: SQL[] = [
        eq(devices.ownerId, userOf(request).id),
        isNotNull(devices.latitude),
        isNotNull(devices.longitude),
      ];
      if (q.south !== undefined && q.north !== undefined && q.west !== undefined && q.east !== undefined) {
        if (q.south > q.north) throw badRequest(`querystring: ${MAP_TEXTS.boxInverted}`);
        where.push(
          gte(devices.latitude, q.south),
          lte(devices.latitude, q.north),
          longitudeIn(q.west, q.east),
        );
      }
      const [rows, [total]] = await Promise.all([
        ctx.db
          .select(columns)
          .from(devices)
          .where(and(...where))
          .orderBy(asc(devices.labelKey), asc(devices.deviceId))
          .limit(MAP_MARKERS_MAX),
        ctx.db
          .select({ n: count() })
          .from(devices)
          .where(and(...where)),
      ]);
      return { markers: rows.map(toMapDevice), total: total?.n ?? 0, limit: MAP_MARKERS_MAX };
    },

    'map.devices': async ({ query: q }, request) => {
      const where: SQL[] = [eq(devices.ownerId, userOf(request).id)];
      if (q.located === 'yes') where.push(isNotNull(devices.latitude), isNotNull(devices.longitude));
      if (q.located === 'no') where.push(or(isNull(devices.latitude), isNull(devices.longitude)) as SQL);
      if (q.search) {
        const pattern = likeContains(q.search);
        where.push(or(ilike(devices.label, pattern), ilike(devices.deviceId, pattern)) as SQL);
      }
      const [rows, [total]] = await Promise.all([
        ctx.db
          .select(columns)
          .from(devices)
          .where(and(...where))
          .orderBy(asc(devices.labelKey), asc(devices.deviceId))
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
        ctx.db
          .select({ n: count() })
          .from(devices)
          .where(and(...where)),
      ]);
      return { devices: rows.map(toMapDevice), total: total?.n ?? 0 };
    },

    'map.setLocation': async ({ params, body }, request) =>
      setLocation(userOf(request).id, params.id, body.latitude, body.longitude),

    'map.clearLocation': async ({ params }, request) =>
      setLocation(userOf(request).id, params.id, null, null),
  };
};
