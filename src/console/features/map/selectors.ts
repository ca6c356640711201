/**
 * What views read of the map actor (systemId 'map'; machines/map/map.machine.ts): the pure `mapToView` and
 * hooks that select it.
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { ListQuery, MapError, mapMachine } from '../../../../machines/map/map.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { MapConfig, MapDevice } from '../../../protocol/map';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type MapRef = ActorRefFrom<typeof mapMachine>;
type MapSnapshot = SnapshotFrom<typeof mapMachine>;

export interface MapView {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  config: MapConfig | null;
  markers: MapDevice[];
  markersTotal: number;
  locatedTotal: number;
  error: MapError | null;
  listStatus: 'idle' | 'loading' | 'ready' | 'failed';
  query: ListQuery;
  rows: MapDevice[];
  rowsTotal: number;
  listError: MapError | null;
  selected: string | null;
  placing: string | null;
  saving: boolean;
  saveError: MapError | null;
  notice: 'placed' | 'cleared' | null;
  tilesFailed: boolean;
}

export function mapToView(s: MapSnapshot): MapView {
  const value = s.value as {
    view: MapView['status'] | 'refreshing';
    list: MapView['listStatus'];
    edit: string;
  };
  const c = s.context;
  return {
    // A background refresh keeps the map as it is.
    status: value.view === 'refreshing' ? 'ready' : value.view,
    config: c.config,
    markers: c.markers,
    markersTotal: c.markersTotal,
    locatedTotal: c.locatedTotal,
    error: c.error,
    listStatus: value.list,
    query: c.query,
    rows: c.rows,
    rowsTotal: c.rowsTotal,
    listError: c.listError,
    selected: c.selected,
    placing: c.placing,
    saving: value.edit === 'saving',
    saveError: c.saveError,
    notice: c.notice,
    tilesFailed: c.tilesFailed,
  };
}

/** The console path of a device's page. */
export const devicePath = (deviceId: string): string =>
  `/control-panel/devices?device=${encodeURIComponent(deviceId)}`;

export function useMapRef(): MapRef {
  return actorOf<MapRef>(useSystem(), SYSTEM_IDS.map);
}
export function useMapView(): MapView {
  return useSelector(useMapRef(), mapToView, shallowEqual);
}
