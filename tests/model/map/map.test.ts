/**
 * The map machine (machines/map/map.machine.ts; issue 16 §2 /map), model-based: opening (the map and the side
 * list load, fail and are retried), placing a device by a click on the map (and refusing a click out of range),
 * the lat/lng form, clearing a location, a refused save (the server's code kept), tiles failing, selection and
 * sign-out; every path followed on the real machine. Plus the pure helpers (range check, marker upsert).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type EventObject, type SnapshotFrom } from 'xstate';
import {
  locationProblem,
  MAP_REFRESH_MS,
  mapMachine,
  withMarker,
  type ListQuery,
  type MapBox,
  type MapLoad,
  type SaveLocationInput,
} from '../../../machines/map/map.machine';
import {
  MAP_TEXTS,
  type MapDevice,
  type MapDevicesResponse,
  type MapMarkersResponse,
} from '../../../src/protocol/map';
import { createMachineTestModel, flush, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof mapMachine>;
const berlin: MapDevice = {
  id: 'r1',
  device_id: 'dev-berlin',
  label: 'Berlin',
  latitude: 52.5,
  longitude: 13.4,
  is_active: true,
};
const gate: MapDevice = {
  id: 'r2',
  device_id: 'dev-gate',
  label: 'Gate',
  latitude: null,
  longitude: null,
  is_active: false,
};
const load: MapLoad = {
  config: { tile_url: 'https://t/{z}/{x}/{y}.png', attribution: 'T', max_zoom: 19 },
  markers: { markers: [berlin], total: 1, limit: 1000 },
};
/** A fleet larger than one answer: markers follow the visible box. */
const capped: MapLoad = { ...load, markers: { markers: [berlin], total: 5000, limit: 1000 } };
const list: MapDevicesResponse = { devices: [berlin, gate], total: 2 };
const refused = { code: 'Not_found', message: 'Device not found.' };

function events(s: Snap, type: string): EventObject[] | undefined {
  const ev = (...e: object[]) => e.map((x) => ({ type, ...x })) as unknown as EventObject[];
  // The regions are explored one after another, not in every interleaving (that would be thousands of
  // states): editing on a loaded, plain map (not capped, tiles fine) with the list loaded; one list filter; moving
  // the map and the timed refresh once the rest is settled.
  const loaded = s.matches({ view: 'ready', list: 'ready' }) && !s.context.error && !s.context.listError;
  const plain = loaded && !s.context.capped && !s.context.tilesFailed;
  const editing = ['map.place', 'map.pick', 'map.setLocation', 'map.clearLocation'];
  if (editing.includes(type) && !plain) return [];
  if (type === 'map.list' && !(plain && s.matches({ edit: 'idle' }) && s.context.query.located === 'all')) {
    return [];
  }
  const settled =
    s.matches({ list: 'ready', edit: 'idle' }) && s.context.notice === null && !s.context.saveError;
  if ((type === 'map.bounds' || type.startsWith('xstate.after.')) && !(settled && !s.context.tilesFailed)) {
    return [];
  }
  const calm = s.matches({ edit: 'idle' }) && s.context.notice === null && !s.context.saveError;
  if ((type === 'map.open' || type === 'map.retry') && !calm) return [];
  switch (type) {
    case 'xstate.done.actor.loadMap':
      return ev({ output: load }, { output: capped });
    case 'xstate.done.actor.loadMarkers':
      return ev({ output: { markers: [berlin], total: 1, limit: 1000 } });
    case 'xstate.error.actor.loadMarkers':
      return ev({ error: { code: 'Error', message: 'offline' } });
    case 'map.bounds':
      return ev({ box: { south: 40, west: 0, north: 60, east: 30 } });
    case 'xstate.error.actor.loadMap':
      return ev({ error: { code: 'Error', message: 'offline' } });
    case 'xstate.done.actor.loadList':
      return ev({ output: list });
    case 'xstate.error.actor.loadList':
      return ev({ error: { code: 'Error', message: 'offline' } });
    case 'xstate.done.actor.saveLocation': {
      const p = s.context.pending;
      const device = p?.deviceId === berlin.device_id ? berlin : gate;
      const saved: MapDevice = {
        ...device,
        latitude: p?.location?.latitude ?? null,
        longitude: p?.location?.longitude ?? null,
      };
      return ev({ output: saved });
    }
    case 'xstate.error.actor.saveLocation':
      return ev({ error: refused });
    case 'map.list':
      return ev({ located: 'no' });
    case 'map.place':
      return ev({ deviceId: gate.device_id });
    case 'map.pick':
      return ev({ latitude: 48.1, longitude: 11.6 }, { latitude: 95, longitude: 0 });
    case 'map.setLocation':
      return ev({ deviceId: gate.device_id, latitude: 40, longitude: -3.7 });
    case 'map.clearLocation':
      return ev({ deviceId: berlin.device_id });
    case 'map.select':
      return ev({ deviceId: berlin.device_id });
    case 'map.tiles':
      return s.matches({ view: 'ready', list: 'ready', edit: 'idle' }) && s.context.notice === null
        ? ev({ failed: true })
        : [];
    // Covered by the direct tests below (they would only repeat other paths).
    case 'map.reload':
    case 'map.close':
    case 'map.dismiss':
    case 'map.clear':
    case 'map.cancel':
      return [];
    default:
      return undefined;
  }
}
const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.markers.map((m) => m.device_id),
    s.context.rows.length,
    s.context.query.located,
    s.context.error?.code ?? null,
    s.context.listError?.code ?? null,
    s.context.saveError?.code ?? null,
    s.context.notice,
    s.context.placing,
    s.context.pending,
    s.context.tilesFailed,
    s.context.capped,
    s.context.bounds !== null,
    s.context.markersTotal,
  ]);

describe('map (model-based paths)', () => {
  const paths = createMachineTestModel(mapMachine, { events, key }).getShortestPaths({
    allowDuplicatePaths: true,
  });

  it('reaches a placed device, a form-set one, a cleared one, refusals, failed loads and failed tiles', () => {
    const ends = paths.map((p) => p.state);
    const some = (f: (s: Snap) => boolean) => expect(ends.some(f)).toBe(true);
    some(
      (s) => s.context.notice === 'placed' && s.context.markers.some((m) => m.device_id === gate.device_id),
    );
    some((s) => s.context.notice === 'cleared' && s.context.markers.length === 0);
    some((s) => s.context.saveError?.code === 'Not_found');
    some((s) => s.context.saveError?.message === MAP_TEXTS.latitudeRange && s.matches({ edit: 'placing' }));
    some((s) => s.matches({ view: 'failed' }) && s.context.error?.code === 'Error');
    some((s) => s.matches({ list: 'failed' }) && s.context.listError?.code === 'Error');
    some((s) => s.context.tilesFailed);
    some((s) => s.matches({ list: 'loading' }) && s.context.query.located === 'no');
    // A capped fleet loads the visible box's markers; a small one keeps its markers when the view moves.
    some((s) => s.matches({ view: 'refreshing' }) && s.context.capped && s.context.bounds !== null);
    some((s) => s.matches({ view: 'ready' }) && !s.context.capped && s.context.bounds !== null);
    some((s) => s.matches({ view: 'ready' }) && s.context.capped && s.context.markersTotal === 1);
  });

  it('follows every modelled path on the real machine', async () => {
    const start = (driver: Driver) =>
      createActor(
        mapMachine.provide({
          actors: {
            loadMap: driver.promise('loadMap'),
            loadMarkers: driver.promise('loadMarkers'),
            loadList: driver.promise('loadList'),
            saveLocation: driver.promise('saveLocation'),
          },
        }),
        { clock: driver.clock },
      ).start();
    expect(await runPaths(paths, start, key)).toBeGreaterThan(paths.length);
  }, 120_000);
});

describe('map (direct)', () => {
  it('places a device by a click, keeps the list row in step, then signs out clean', async () => {
    const saves: SaveLocationInput[] = [];
    const queries: ListQuery[] = [];
    const boxes: (MapBox | null)[] = [];
    const actor = createActor(
      mapMachine.provide({
        actors: {
          loadMap: fromPromise<MapLoad>(async () => load),
          loadMarkers: fromPromise<MapMarkersResponse, { box: MapBox | null }>(async ({ input }) => {
            boxes.push(input.box);
            return load.markers;
          }),
          loadList: fromPromise<MapDevicesResponse, ListQuery>(async ({ input }) => {
            queries.push(input);
            return list;
          }),
          saveLocation: fromPromise<MapDevice, SaveLocationInput>(async ({ input }) => {
            saves.push(input);
            return { ...gate, ...input.location };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'map.open' });
    await flush();
    expect(actor.getSnapshot().value).toEqual({ view: 'ready', list: 'ready', edit: 'idle' });
    actor.send({ type: 'map.place', deviceId: gate.device_id });
    actor.send({ type: 'map.cancel' });
    expect(actor.getSnapshot().context.placing).toBeNull();
    actor.send({ type: 'map.place', deviceId: gate.device_id });
    actor.send({ type: 'map.pick', latitude: 1, longitude: 2 });
    await flush();
    expect(saves).toEqual([{ deviceId: gate.device_id, location: { latitude: 1, longitude: 2 } }]);
    const c = actor.getSnapshot().context;
    expect(c.markers.map((m) => m.label)).toEqual(['Berlin', 'Gate']);
    expect(c.markersTotal).toBe(2);
    expect(c.rows.find((r) => r.device_id === gate.device_id)).toMatchObject({ latitude: 1, longitude: 2 });
    expect(c.selected).toBe(gate.device_id);
    // A new search goes back to page 1; a page change keeps the search.
    actor.send({ type: 'map.list', page: 3 });
    actor.send({ type: 'map.list', search: 'ga' });
    actor.send({ type: 'map.list', page: 2 });
    await flush();
    expect(queries.slice(-1)[0]).toEqual({ search: 'ga', located: 'all', page: 2 });
    actor.send({ type: 'map.reload' });
    expect(actor.getSnapshot().matches({ view: 'loading' })).toBe(true);
    await flush();
    // Not capped: moving the map loads nothing.
    actor.send({ type: 'map.bounds', box: { south: 0, west: 0, north: 1, east: 1 } });
    await flush();
    expect(boxes).toEqual([]);
    actor.send({ type: 'map.dismiss' });
    expect(actor.getSnapshot().context.notice).toBeNull();
    actor.send({ type: 'map.clear' });
    expect(actor.getSnapshot().value).toEqual({ view: 'idle', list: 'idle', edit: 'idle' });
    expect(actor.getSnapshot().context).toMatchObject({
      markers: [],
      rows: [],
      config: null,
      selected: null,
    });
    actor.stop();
  });

  it('refreshes presence every MAP_REFRESH_MS, following the visible box when capped, until closed', async () => {
    const clock = new SimulatedClock();
    const boxes: (MapBox | null)[] = [];
    const actor = createActor(
      mapMachine.provide({
        actors: {
          loadMap: fromPromise<MapLoad>(async () => capped),
          loadMarkers: fromPromise<MapMarkersResponse, { box: MapBox | null }>(async ({ input }) => {
            boxes.push(input.box);
            return { markers: [{ ...berlin, is_active: false }], total: 7, limit: 1000 };
          }),
          loadList: fromPromise<MapDevicesResponse, ListQuery>(async () => list),
          saveLocation: fromPromise<MapDevice, SaveLocationInput>(async () => berlin),
        },
      }),
      { clock },
    ).start();
    actor.send({ type: 'map.open' });
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ capped: true, locatedTotal: 5000 });
    const box = { south: 40, west: 170, north: 60, east: -170 };
    actor.send({ type: 'map.bounds', box });
    await flush();
    expect(boxes).toEqual([box]);
    expect(actor.getSnapshot().context).toMatchObject({ markersTotal: 7, locatedTotal: 5000 });
    expect(actor.getSnapshot().context.markers[0]?.is_active).toBe(false);
    clock.increment(MAP_REFRESH_MS);
    await flush();
    expect(boxes).toEqual([box, box]);
    actor.send({ type: 'map.close' });
    clock.increment(MAP_REFRESH_MS * 3);
    await flush();
    expect(boxes).toHaveLength(2);
    expect(actor.getSnapshot().matches({ view: 'idle' })).toBe(true);
    actor.stop();
  });

  it('checks ranges and upserts markers by label', () => {
    expect(locationProblem(90, -180)).toBeNull();
    expect(locationProblem(-90.01, 0)).toBe(MAP_TEXTS.latitudeRange);
    expect(locationProblem(0, 180.5)).toBe(MAP_TEXTS.longitudeRange);
    expect(locationProblem(Number.NaN, 0)).toBe(MAP_TEXTS.latitudeRange);
    const a = { ...gate, label: 'alpha', device_id: 'a', latitude: 1, longitude: 1 };
    expect(withMarker([berlin], a).map((m) => m.device_id)).toEqual(['a', berlin.device_id]);
    expect(withMarker([berlin, a], { ...a, latitude: null, longitude: null })).toEqual([berlin]);
  });
});
