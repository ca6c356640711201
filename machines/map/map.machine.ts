/**
 * The map (issue 16 §2 /map: devices on a map, a location set per device, tiles from a configurable URL,
 * usable when tiles cannot load; src/protocol/map.ts). One long-lived actor (systemId 'map'), three parallel
 * regions:
 *
 * - `view`: the base map and its markers. `idle` until the screen sends `map.open`; `loading` (actor
 *   `loadMap`: GET map/config and map/markers) → `ready` | `failed` { error } (`map.retry` or `map.open` load
 *   again; `map.open` and `map.reload` in `ready` load again). In `ready`, markers and presence are refreshed
 *   every MAP_REFRESH_MS (`refreshing`, actor `loadMarkers`); when the fleet has more located devices than one
 *   answer carries (`capped`), every `map.bounds` { box } (the user panned or zoomed) loads the markers of the
 *   visible box instead. A failed refresh keeps the markers shown.
 * - `list`: the side list (every device, placed or not): `map.open` or `map.list` { search?, located?, page? } →
 *   `loading` (actor `loadList`) → `ready` | `failed` (`map.retry` loads again).
 * - `edit`: placing a device. `map.place` { deviceId } → `placing` (the next `map.pick` { latitude, longitude },
 *   a click on the map, places it; `map.cancel` stops); `map.pick`, `map.setLocation` (the lat/lng form) or
 *   `map.clearLocation` → `saving` (actor `saveLocation`) → `idle`, the marker and the list row updated in place
 *   and `notice` 'placed' | 'cleared'; a refusal keeps everything and sets `saveError` (the server's code and
 *   text). Coordinates out of range never reach the actor: `saveError` { code 'Validation_error' } at once.
 *
 * Also: `map.select` { deviceId | null } (the highlighted device), `map.tiles` { failed } (the screen reports that
 * tiles cannot load: the view shows a notice and a plain background, markers and list still work),
 * `map.dismiss` forgets errors and the notice, `map.close` (the screen is left) stops refreshing and placing,
 * `map.clear` (sign-out) forgets everything.
 *
 * Pure: no fetch or DOM here; the console provides the actors (src/console/features/map/actors.ts).
 */
import { assign, fromPromise, setup } from 'xstate';
import {
  MAP_TEXTS,
  type MapConfig,
  type MapDevice,
  type MapDevicesResponse,
  type MapMarkersResponse,
} from '../../src/protocol/map';

export interface MapError {
  code: string;
  message: string;
}

/** Which devices the side list shows. */
export type Located = 'all' | 'yes' | 'no';
export interface ListQuery {
  search: string;
  located: Located;
  /** 1-based. */
  page: number;
}

/** Markers and presence are refreshed this often while the map is shown, ms. */
export const MAP_REFRESH_MS = 30_000;

/** A box in degrees (west > east crosses the antimeridian), as GET map/markers takes it. */
export interface MapBox {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** What `loadMap` answers. */
export interface MapLoad {
  config: MapConfig;
  markers: MapMarkersResponse;
}

/** What `saveLocation` is asked: a location in degrees, or null to take the device off the map. */
export interface SaveLocationInput {
  deviceId: string;
  location: { latitude: number; longitude: number } | null;
}

export interface MapContext {
  config: MapConfig | null;
  markers: MapDevice[];
  /** Located devices in the loaded box (or in all), may exceed markers.length (capped at `limit`). */
  markersTotal: number;
  limit: number;
  /** All the caller's located devices (from the last unboxed load, kept in step by saves). */
  locatedTotal: number;
  /** More located devices than one answer carries: markers follow the visible box. */
  capped: boolean;
  /** The visible box (from `map.bounds`), used while `capped`. */
  bounds: MapBox | null;
  error: MapError | null;
  query: ListQuery;
  rows: MapDevice[];
  rowsTotal: number;
  listError: MapError | null;
  selected: string | null;
  /** device_id waiting for a click on the map. */
  placing: string | null;
  pending: SaveLocationInput | null;
  saveError: MapError | null;
  notice: 'placed' | 'cleared' | null;
  tilesFailed: boolean;
}

export type MapEvent =
  | { type: 'map.open' }
  /** The screen is gone: stop refreshing and placing (the data stays for the next `map.open`). */
  | { type: 'map.close' }
  | { type: 'map.reload' }
  | { type: 'map.retry' }
  | { type: 'map.list'; search?: string; located?: Located; page?: number }
  | { type: 'map.select'; deviceId: string | null }
  | { type: 'map.place'; deviceId: string }
  | { type: 'map.pick'; latitude: number; longitude: number }
  | { type: 'map.cancel' }
  | { type: 'map.setLocation'; deviceId: string; latitude: number; longitude: number }
  | { type: 'map.clearLocation'; deviceId: string }
  | { type: 'map.tiles'; failed: boolean }
  | { type: 'map.bounds'; box: MapBox | null }
  | { type: 'map.dismiss' }
  | { type: 'map.clear' };

const errorOf = (e: unknown): MapError => {
  const err = e as { code?: unknown; message?: unknown };
  return {
    code: typeof err?.code === 'string' ? err.code : 'Error',
    message: typeof err?.message === 'string' ? err.message : String(e),
  };
};

/** Why a location is refused (MAP_TEXTS), or null when latitude is in −90..90 and longitude in −180..180. */
export function locationProblem(latitude: number, longitude: number): string | null {
  if (!Number.isFinite(latitude) || latitude < -90 || latitude > 90) return MAP_TEXTS.latitudeRange;
  if (!Number.isFinite(longitude) || longitude < -180 || longitude > 180) return MAP_TEXTS.longitudeRange;
  return null;
}

/** The markers after `saved` changed: replaced, added (by label) or removed. */
export function withMarker(markers: readonly MapDevice[], saved: MapDevice): MapDevice[] {
  const rest = markers.filter((m) => m.device_id !== saved.device_id);
  if (saved.latitude === null || saved.longitude === null) return rest;
  return [...rest, saved].sort(
    (a, b) =>
      a.label.toLowerCase().localeCompare(b.label.toLowerCase()) || a.device_id.localeCompare(b.device_id),
  );
}

/** +1 when a save placed a device that was not on the map, −1 when it took one off, else 0. */
const placedDelta = (context: MapContext, saved: MapDevice): number =>
  (saved.latitude !== null ? 1 : 0) - (context.markers.some((m) => m.device_id === saved.device_id) ? 1 : 0);

const initialQuery: ListQuery = { search: '', located: 'all', page: 1 };
const initialContext: MapContext = {
  config: null,
  markers: [],
  markersTotal: 0,
  limit: 0,
  locatedTotal: 0,
  capped: false,
  bounds: null,
  error: null,
  query: initialQuery,
  rows: [],
  rowsTotal: 0,
  listError: null,
  selected: null,
  placing: null,
  pending: null,
  saveError: null,
  notice: null,
  tilesFailed: false,
};

export const mapMachine = setup({
  types: { context: {} as MapContext, events: {} as MapEvent },
  actors: {
    /** GET map/config and GET map/markers. */
    loadMap: fromPromise<MapLoad>(async () => {
      throw new Error("map: actor 'loadMap' is not provided");
    }),
    /** GET map/markers, in the box when given. */
    loadMarkers: fromPromise<MapMarkersResponse, { box: MapBox | null }>(async () => {
      throw new Error("map: actor 'loadMarkers' is not provided");
    }),
    /** GET map/devices with the list's query. */
    loadList: fromPromise<MapDevicesResponse, ListQuery>(async () => {
      throw new Error("map: actor 'loadList' is not provided");
    }),
    /** PUT or DELETE map/devices/:id/location. */
    saveLocation: fromPromise<MapDevice, SaveLocationInput>(async () => {
      throw new Error("map: actor 'saveLocation' is not provided");
    }),
  },
  actions: {
    setQuery: assign({
      query: ({ context, event }) => {
        if (event.type !== 'map.list') return context.query;
        const search = event.search ?? context.query.search;
        const located = event.located ?? context.query.located;
        // A new search or filter starts at page 1.
        const changed = search !== context.query.search || located !== context.query.located;
        return { search, located, page: event.page ?? (changed ? 1 : context.query.page) };
      },
    }),
    setBounds: assign({
      bounds: ({ context, event }) => (event.type === 'map.bounds' ? event.box : context.bounds),
    }),
    refuseLocation: assign({
      saveError: ({ event }) => {
        const e = event as { latitude: number; longitude: number };
        return { code: 'Validation_error', message: locationProblem(e.latitude, e.longitude) ?? '' };
      },
      notice: null,
    }),
  },
  guards: {
    capped: ({ context }) => context.capped,
    badPick: ({ event }) =>
      event.type === 'map.pick' && locationProblem(event.latitude, event.longitude) !== null,
    badForm: ({ event }) =>
      event.type === 'map.setLocation' && locationProblem(event.latitude, event.longitude) !== null,
  },
}).createMachine({
  id: 'map',
  type: 'parallel',
  context: initialContext,
  on: {
    'map.select': { actions: assign({ selected: ({ event }) => event.deviceId }) },
    'map.tiles': { actions: assign({ tilesFailed: ({ event }) => event.failed }) },
    'map.dismiss': { actions: assign({ error: null, listError: null, saveError: null, notice: null }) },
  },
  states: {
    view: {
      initial: 'idle',
      on: {
        'map.clear': { target: '.idle', actions: assign(() => ({ ...initialContext })) },
        'map.close': { target: '.idle' },
      },
      states: {
        idle: { on: { 'map.open': 'loading' } },
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'loadMap',
            src: 'loadMap',
            onDone: {
              target: 'ready',
              actions: assign({
                config: ({ event }) => event.output.config,
                markers: ({ event }) => event.output.markers.markers,
                markersTotal: ({ event }) => event.output.markers.total,
                limit: ({ event }) => event.output.markers.limit,
                locatedTotal: ({ event }) => event.output.markers.total,
                capped: ({ event }) => event.output.markers.total > event.output.markers.markers.length,
                error: null,
              }),
            },
            onError: { target: 'failed', actions: assign({ error: ({ event }) => errorOf(event.error) }) },
          },
        },
        ready: {
          after: { [MAP_REFRESH_MS]: 'refreshing' },
          on: {
            'map.open': 'loading',
            'map.reload': 'loading',
            'map.bounds': [
              { guard: 'capped', target: 'refreshing', actions: 'setBounds' },
              { actions: 'setBounds' },
            ],
          },
        },
        refreshing: {
          on: {
            'map.open': 'loading',
            'map.reload': 'loading',
            'map.bounds': { target: 'refreshing', reenter: true, actions: 'setBounds' },
          },
          invoke: {
            id: 'loadMarkers',
            src: 'loadMarkers',
            input: ({ context }) => ({ box: context.capped ? context.bounds : null }),
            onDone: {
              target: 'ready',
              actions: assign({
                markers: ({ event }) => event.output.markers,
                markersTotal: ({ event }) => event.output.total,
              }),
            },
            // The markers shown stay; the next refresh tries again.
            onError: 'ready',
          },
        },
        failed: {
          on: {
            'map.retry': { target: 'loading', actions: assign({ error: null }) },
            'map.open': { target: 'loading', actions: assign({ error: null }) },
          },
        },
      },
    },
    list: {
      initial: 'idle',
      on: {
        'map.open': { target: '.loading' },
        'map.list': { target: '.loading', actions: 'setQuery' },
        'map.clear': { target: '.idle' },
      },
      states: {
        idle: {},
        loading: {
          tags: ['busy'],
          on: {
            // A leaf's own re-entry restarts the load (on the region, reenter would restart every region).
            'map.list': { target: 'loading', reenter: true, actions: 'setQuery' },
            'map.open': { target: 'loading', reenter: true },
          },
          invoke: {
            id: 'loadList',
            src: 'loadList',
            input: ({ context }) => context.query,
            onDone: {
              target: 'ready',
              actions: assign({
                rows: ({ event }) => event.output.devices,
                rowsTotal: ({ event }) => event.output.total,
                listError: null,
              }),
            },
            onError: {
              target: 'failed',
              actions: assign({ rows: [], listError: ({ event }) => errorOf(event.error) }),
            },
          },
        },
        ready: {},
        failed: { on: { 'map.retry': { target: 'loading', actions: assign({ listError: null }) } } },
      },
    },
    edit: {
      initial: 'idle',
      on: { 'map.clear': { target: '.idle' } },
      states: {
        idle: {
          on: {
            'map.place': {
              target: 'placing',
              actions: assign({
                placing: ({ event }) => event.deviceId,
                selected: ({ event }) => event.deviceId,
                saveError: null,
                notice: null,
              }),
            },
            'map.setLocation': [
              { guard: 'badForm', actions: 'refuseLocation' },
              {
                target: 'saving',
                actions: assign({
                  pending: ({ event }) => ({
                    deviceId: event.deviceId,
                    location: { latitude: event.latitude, longitude: event.longitude },
                  }),
                  saveError: null,
                  notice: null,
                }),
              },
            ],
            'map.clearLocation': {
              target: 'saving',
              actions: assign({
                pending: ({ event }) => ({ deviceId: event.deviceId, location: null }),
                saveError: null,
                notice: null,
              }),
            },
          },
        },
        placing: {
          on: {
            'map.pick': [
              { guard: 'badPick', actions: 'refuseLocation' },
              {
                target: 'saving',
                actions: assign({
                  pending: ({ context, event }) => ({
                    deviceId: context.placing ?? '',
                    location: { latitude: event.latitude, longitude: event.longitude },
                  }),
                  placing: null,
                }),
              },
            ],
            'map.cancel': { target: 'idle', actions: assign({ placing: null }) },
            'map.close': { target: 'idle', actions: assign({ placing: null }) },
            'map.place': { actions: assign({ placing: ({ event }) => event.deviceId }) },
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'saveLocation',
            src: 'saveLocation',
            input: ({ context }) => context.pending!,
            onDone: {
              target: 'idle',
              actions: assign({
                markers: ({ context, event }) => withMarker(context.markers, event.output),
                markersTotal: ({ context, event }) =>
                  context.markersTotal + placedDelta(context, event.output),
                locatedTotal: ({ context, event }) =>
                  context.locatedTotal + placedDelta(context, event.output),
                rows: ({ context, event }) =>
                  context.rows.map((r) => (r.device_id === event.output.device_id ? event.output : r)),
                notice: ({ event }) => (event.output.latitude === null ? 'cleared' : 'placed'),
                selected: ({ event }) => event.output.device_id,
                pending: null,
              }),
            },
            onError: {
              target: 'idle',
              actions: assign({ saveError: ({ event }) => errorOf(event.error), pending: null }),
            },
          },
        },
      },
    },
  },
});
