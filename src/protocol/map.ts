/**
 * The map feature's contract (issue 16 §2 /map: devices on a map, a location set per device, tiles from a
 * configurable URL). The spec names no paths or shapes for it: every route and field here is ours, documented
 * field by field with units. Coordinates are WGS 84 degrees (latitude −90..90, longitude −180..180), stored in
 * devices.latitude / devices.longitude (null = not placed yet).
 *
 *   GET    map/config                    → MapConfig (tile URL template, attribution, max zoom)
 *   GET    map/markers ?south&west&north&east → { markers, total, limit } located devices (in the box), capped
 *   GET    map/devices ?search&located&page&per_page → { devices, total } the side list, paged
 *   PUT    map/devices/:id/location      { latitude, longitude } → MapDevice; 404 when not the caller's
 *   DELETE map/devices/:id/location      → MapDevice (location cleared); 404 when not the caller's
 *
 * A fleet may hold 100,000 devices: markers are capped at MAP_MARKERS_MAX (sorted by label; `total` says how many
 * matched, so the console can say "showing 1,000 of 12,345" and ask for a smaller box), and the list is paged.
 */
import { z } from 'zod';
import { defineRoutes, Id } from './route';

/** Most markers one answer carries (the console asks for the visible box when there are more). */
export const MAP_MARKERS_MAX = 1000;
/** Longest page of the side list. */
export const MAP_LIST_PER_PAGE_MAX = 50;
/** Default page size of the side list. */
export const MAP_LIST_PER_PAGE_DEFAULT = 20;
/** The tile URL served when MAP_TILE_URL is not set: OpenStreetMap's public tile server. */
export const DEFAULT_MAP_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
/** The attribution shown with the default tiles (plain text; OpenStreetMap's licence asks for it). */
export const DEFAULT_MAP_ATTRIBUTION = '© OpenStreetMap contributors';
/** Highest zoom level of the default tiles. */
export const DEFAULT_MAP_MAX_ZOOM = 19;

/** Refusal texts (400 Validation_error messages, after the field's path). */
export const MAP_TEXTS = {
  latitudeRange: 'Latitude must be a number between -90 and 90.',
  longitudeRange: 'Longitude must be a number between -180 and 180.',
  boxIncomplete: 'Give all of south, west, north and east, or none of them.',
  boxInverted: 'south must not be greater than north.',
} as const;

const range = (min: number, max: number, error: string, coerce: boolean) =>
  (coerce ? z.coerce.number({ error }) : z.number({ error })).min(min, { error }).max(max, { error });
/** A latitude in degrees, −90..90. */
export const Latitude = range(-90, 90, MAP_TEXTS.latitudeRange, false);
/** A longitude in degrees, −180..180. */
export const Longitude = range(-180, 180, MAP_TEXTS.longitudeRange, false);

/** GET map/config: how the console draws the base map. */
export const MapConfig = z.object({
  /** Leaflet tile URL template with {z}/{x}/{y} (and optionally {s}); from MAP_TILE_URL, else OpenStreetMap. */
  tile_url: z.string(),
  /** Plain text shown in the map's corner (MAP_TILE_ATTRIBUTION, else OpenStreetMap's). */
  attribution: z.string(),
  /** Highest zoom the tiles exist for (MAP_MAX_ZOOM, else 19). */
  max_zoom: z.number().int(),
});
export type MapConfig = z.infer<typeof MapConfig>;

/** A device as the map shows it. */
export const MapDevice = z.object({
  /** Row id. */
  id: z.string(),
  /** Peer id; the device page is /control-panel/devices?device={device_id}. */
  device_id: z.string(),
  label: z.string(),
  /** Degrees, null when the device is not placed. */
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** Registered with signalling now. */
  is_active: z.boolean(),
});
export type MapDevice = z.infer<typeof MapDevice>;

/**
 * GET map/markers query: a box in degrees (all four or none). west > east means the box crosses the
 * antimeridian (e.g. west 170, east −170).
 */
export const MapMarkersQuery = z.object({
  south: range(-90, 90, MAP_TEXTS.latitudeRange, true).optional(),
  west: range(-180, 180, MAP_TEXTS.longitudeRange, true).optional(),
  north: range(-90, 90, MAP_TEXTS.latitudeRange, true).optional(),
  east: range(-180, 180, MAP_TEXTS.longitudeRange, true).optional(),
});
export type MapMarkersQuery = z.input<typeof MapMarkersQuery>;
export const MapMarkersResponse = z.object({
  /** Located devices in the box, by label, at most `limit`. */
  markers: z.array(MapDevice),
  /** How many located devices match (may exceed markers.length). */
  total: z.number().int(),
  /** MAP_MARKERS_MAX. */
  limit: z.number().int(),
});
export type MapMarkersResponse = z.infer<typeof MapMarkersResponse>;

/** GET map/devices query: the side list. located: all, yes (placed) or no (not yet placed). */
export const MapDevicesQuery = z.object({
  search: z.string().trim().max(100).optional(),
  located: z.enum(['all', 'yes', 'no']).default('all'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(MAP_LIST_PER_PAGE_MAX).default(MAP_LIST_PER_PAGE_DEFAULT),
});
export type MapDevicesQuery = z.input<typeof MapDevicesQuery>;
export const MapDevicesResponse = z.object({
  /** One page, by label (then device_id). */
  devices: z.array(MapDevice),
  /** Devices matching search and located, all pages. */
  total: z.number().int(),
});
export type MapDevicesResponse = z.infer<typeof MapDevicesResponse>;

/** PUT map/devices/:id/location body. */
export const SetLocationRequest = z.object({ latitude: Latitude, longitude: Longitude });
export type SetLocationRequest = z.infer<typeof SetLocationRequest>;
/** :id is the row id or the device_id. */
export const MapDeviceParams = z.object({ id: Id });

export const mapRoutes = defineRoutes({
  'map.config': {
    method: 'GET',
    path: '/api/map/config',
    auth: 'user',
    summary: 'Tile URL template, attribution and max zoom of the map (MAP_TILE_URL; default OpenStreetMap)',
    answer: MapConfig,
  },
  'map.markers': {
    method: 'GET',
    path: '/api/map/markers',
    auth: 'user',
    summary: 'The caller’s located devices (in a box when given), by label, at most 1,000, with the total',
    query: MapMarkersQuery,
    answer: MapMarkersResponse,
  },
  'map.devices': {
    method: 'GET',
    path: '/api/map/devices',
    auth: 'user',
    summary: 'The caller’s devices with their location (placed, not placed or all), one page, by label',
    query: MapDevicesQuery,
    answer: MapDevicesResponse,
  },
  'map.setLocation': {
    method: 'PUT',
    path: '/api/map/devices/:id/location',
    auth: 'user',
    summary: 'Place a device (latitude −90..90, longitude −180..180 degrees)',
    params: MapDeviceParams,
    body: SetLocationRequest,
    answer: MapDevice,
    errors: [404],
  },
  'map.clearLocation': {
    method: 'DELETE',
    path: '/api/map/devices/:id/location',
    auth: 'user',
    summary: 'Take a device off the map (its location becomes null)',
    params: MapDeviceParams,
    answer: MapDevice,
    errors: [404],
  },
});
