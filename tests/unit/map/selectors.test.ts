/**
 * What the /map screen reads of the map actor (src/console/features/map/selectors.ts): `mapToView` of real
 * snapshots (loading, ready with markers, placing, saving) and the device page path.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  mapMachine,
  type ListQuery,
  type MapBox,
  type MapLoad,
  type SaveLocationInput,
} from '../../../machines/map/map.machine';
import { devicePath, mapToView } from '../../../src/console/features/map/selectors';
import type { MapDevice, MapDevicesResponse, MapMarkersResponse } from '../../../src/protocol/map';
import { flush } from '../../model/harness';

const gate: MapDevice = {
  id: 'r1',
  device_id: 'dev-gate',
  label: 'Gate',
  latitude: 1,
  longitude: 2,
  is_active: false,
};
const load: MapLoad = {
  config: { tile_url: 'https://t/{z}/{x}/{y}.png', attribution: 'T', max_zoom: 19 },
  markers: { markers: [gate], total: 1500, limit: 1000 },
};

describe('map selectors', () => {
  it('views idle, loading, ready, placing and saving', async () => {
    let release: (d: MapDevice) => void = () => undefined;
    const actor = createActor(
      mapMachine.provide({
        actors: {
          loadMap: fromPromise<MapLoad>(async () => load),
          loadMarkers: fromPromise<MapMarkersResponse, { box: MapBox | null }>(async () => load.markers),
          loadList: fromPromise<MapDevicesResponse, ListQuery>(async () => ({ devices: [gate], total: 1 })),
          saveLocation: fromPromise<MapDevice, SaveLocationInput>(() => new Promise((r) => (release = r))),
        },
      }),
    ).start();
    expect(mapToView(actor.getSnapshot())).toMatchObject({
      status: 'idle',
      listStatus: 'idle',
      saving: false,
    });
    actor.send({ type: 'map.open' });
    expect(mapToView(actor.getSnapshot())).toMatchObject({ status: 'loading', listStatus: 'loading' });
    await flush();
    const ready = mapToView(actor.getSnapshot());
    expect(ready).toMatchObject({
      status: 'ready',
      listStatus: 'ready',
      markersTotal: 1500,
      locatedTotal: 1500,
      rowsTotal: 1,
    });
    expect(ready.config?.max_zoom).toBe(19);
    actor.send({ type: 'map.place', deviceId: 'dev-gate' });
    expect(mapToView(actor.getSnapshot())).toMatchObject({ placing: 'dev-gate', selected: 'dev-gate' });
    actor.send({ type: 'map.pick', latitude: 3, longitude: 4 });
    expect(mapToView(actor.getSnapshot())).toMatchObject({ placing: null, saving: true });
    release({ ...gate, latitude: 3, longitude: 4 });
    await flush();
    expect(mapToView(actor.getSnapshot())).toMatchObject({ saving: false, notice: 'placed' });
    expect(mapToView(actor.getSnapshot()).markers[0]).toMatchObject({ latitude: 3, longitude: 4 });
    actor.stop();
  });

  it('links a device page by device_id', () => {
    expect(devicePath('dev a/b')).toBe('/control-panel/devices?device=dev%20a%2Fb');
  });
});
