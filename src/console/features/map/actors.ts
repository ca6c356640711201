/**
 * The map feature's side effects (machines/map/map.machine.ts; src/protocol/map.ts): `loadMap` (GET map/config
 * and map/markers), `loadMarkers` (GET map/markers, in the visible box when capped), `loadList` (GET map/devices, the side list's page) and `saveLocation` (PUT or DELETE
 * map/devices/:id/location). Loaded in its own chunk after sign-in (ConsoleFeature.loadActors).
 */
import { fromPromise } from 'xstate';
import {
  mapMachine,
  type ListQuery,
  type MapBox,
  type MapLoad,
  type SaveLocationInput,
} from '../../../../machines/map/map.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import {
  MAP_LIST_PER_PAGE_DEFAULT,
  type MapDevice,
  type MapDevicesResponse,
  type MapMarkersResponse,
} from '../../../protocol/map';
import type { Platform } from '../feature';

export function mapActors({ http }: Platform): FeatureActor[] {
  const logic = mapMachine.provide({
    actors: {
      loadMap: fromPromise<MapLoad>(async ({ signal }) => {
        const [config, markers] = await Promise.all([
          http.call('map.config', { signal }),
          http.call('map.markers', { query: {}, signal }),
        ]);
        return { config, markers };
      }),
      loadMarkers: fromPromise<MapMarkersResponse, { box: MapBox | null }>(({ input, signal }) =>
        http.call('map.markers', { query: input.box ?? {}, signal }),
      ),
      loadList: fromPromise<MapDevicesResponse, ListQuery>(({ input, signal }) =>
        http.call('map.devices', {
          query: {
            search: input.search.trim() || undefined,
            located: input.located,
            page: input.page,
            per_page: MAP_LIST_PER_PAGE_DEFAULT,
          },
          signal,
        }),
      ),
      saveLocation: fromPromise<MapDevice, SaveLocationInput>(({ input, signal }) =>
        input.location
          ? http.call('map.setLocation', { params: { id: input.deviceId }, body: input.location, signal })
          : http.call('map.clearLocation', { params: { id: input.deviceId }, signal }),
      ),
    },
  });
  return [featureActor({ systemId: SYSTEM_IDS.map, logic, onSignOut: [{ type: 'map.clear' }] })];
}
