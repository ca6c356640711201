/**
 * The Leaflet map of /map (issue 16 §2): tiles from the server's template (src/protocol/map.ts MapConfig), one
 * marker per located device — online a filled circle with a dot, offline a hollow dashed diamond (shape, not only
 * colour), each a keyboard-focusable button titled "{label} — Online|Offline" that opens the device page on click
 * or Enter — and, while a device is being placed, a click on the map (or Enter on the focused map: its centre)
 * reports a latitude and longitude.
 *
 * Tiles cannot load (no network, a blocked tile server): the first tile error before any tile loaded, or no tile
 * within TILE_WATCHDOG_MS, reports `onTiles(true)`; the map then shows a plain background with a 30° grid so the
 * markers keep their places. A tile that loads later reports `onTiles(false)`. Every pan or zoom reports the
 * visible box (`onBounds`; the machine loads that box's markers when the fleet is too large for one answer). Tile images are decorative
 * (Leaflet gives them alt=""); the side list is the accessible path to every device.
 * Test ids: map-canvas, map-marker-<device_id> (with data-status online|offline).
 */
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import type { MapBox } from '../../../../../machines/map/map.machine';
import type { MapConfig, MapDevice } from '../../../../protocol/map';
import './map.css';

/** How long the map waits for a first tile before it treats tiles as unreachable, ms. */
export const TILE_WATCHDOG_MS = 10_000;

export interface MapCanvasProps {
  config: MapConfig;
  markers: readonly MapDevice[];
  selected: string | null;
  placing: boolean;
  tilesFailed: boolean;
  /** Accessible name of the map region. */
  label: string;
  /** A marker's title, e.g. "Gate — Online". */
  titleOf: (device: MapDevice) => string;
  onOpen: (deviceId: string) => void;
  onPick: (latitude: number, longitude: number) => void;
  onTiles: (failed: boolean) => void;
  /** The visible box after the user panned or zoomed (null: the whole world is in view). */
  onBounds: (box: MapBox | null) => void;
}

const wrapLng = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;
const clampLat = (lat: number) => Math.min(90, Math.max(-90, lat));

/** The box of GET map/markers for what the map shows (null when it shows every longitude). */
export function visibleBox(b: L.LatLngBounds): MapBox | null {
  if (b.getEast() - b.getWest() >= 360) return null;
  return {
    south: clampLat(b.getSouth()),
    west: wrapLng(b.getWest()),
    north: clampLat(b.getNorth()),
    east: wrapLng(b.getEast()),
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A 30° latitude/longitude grid for the plain background. */
function graticule(): L.LayerGroup {
  const lines: L.Polyline[] = [];
  const style: L.PolylineOptions = { color: '#8aa0b4', weight: 1, opacity: 0.6, interactive: false };
  for (let lat = -60; lat <= 60; lat += 30)
    lines.push(
      L.polyline(
        [
          [lat, -180],
          [lat, 180],
        ],
        style,
      ),
    );
  for (let lng = -180; lng <= 180; lng += 30)
    lines.push(
      L.polyline(
        [
          [-85, lng],
          [85, lng],
        ],
        style,
      ),
    );
  return L.layerGroup(lines);
}

export function MapCanvas(props: MapCanvasProps) {
  const { config, markers, selected, placing, tilesFailed, label } = props;
  const holder = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layerRef = useRef<L.LayerGroup | null>(null);
  const gridRef = useRef<L.LayerGroup | null>(null);
  // Callbacks change every render; Leaflet's handlers read the latest ones.
  const latest = useRef(props);
  latest.current = props;

  // The map and its tiles, once per tile configuration.
  useEffect(() => {
    const el = holder.current;
    if (!el) return;
    const map = L.map(el, { center: [20, 0], zoom: 2, minZoom: 1, worldCopyJump: true });
    mapRef.current = map;
    layerRef.current = L.layerGroup().addTo(map);
    let loaded = false;
    let failed = false;
    const report = (f: boolean) => {
      if (f === failed) return;
      failed = f;
      latest.current.onTiles(f);
    };
    const tiles = L.tileLayer(config.tile_url, {
      maxZoom: config.max_zoom,
      attribution: escapeHtml(config.attribution),
    });
    tiles.on('tileload', () => {
      loaded = true;
      report(false);
    });
    tiles.on('tileerror', () => {
      if (!loaded) report(true);
    });
    tiles.addTo(map);
    const watchdog = window.setTimeout(() => {
      if (!loaded) report(true);
    }, TILE_WATCHDOG_MS);
    // Keyboard placing: Enter on the focused map (not on a marker) places the device at the map's centre.
    map.on('keypress', (e: L.LeafletKeyboardEvent) => {
      if (!latest.current.placing || e.originalEvent.key !== 'Enter') return;
      if (e.originalEvent.target !== map.getContainer()) return;
      const at = map.getCenter().wrap();
      latest.current.onPick(Math.round(at.lat * 1e6) / 1e6, Math.round(at.lng * 1e6) / 1e6);
    });
    map.on('moveend', () => latest.current.onBounds(visibleBox(map.getBounds())));
    map.on('click', (e: L.LeafletMouseEvent) => {
      if (!latest.current.placing) return;
      const at = e.latlng.wrap();
      latest.current.onPick(Math.round(at.lat * 1e6) / 1e6, Math.round(at.lng * 1e6) / 1e6);
    });
    return () => {
      window.clearTimeout(watchdog);
      map.remove();
      mapRef.current = null;
      layerRef.current = null;
      gridRef.current = null;
    };
  }, [config.tile_url, config.max_zoom, config.attribution]);

  // The markers.
  useEffect(() => {
    const layer = layerRef.current;
    if (!layer) return;
    layer.clearLayers();
    for (const d of markers) {
      if (d.latitude === null || d.longitude === null) continue;
      const status = d.is_active ? 'online' : 'offline';
      const chosen = d.device_id === selected ? ' map-marker--selected' : '';
      const title = latest.current.titleOf(d);
      const marker = L.marker([d.latitude, d.longitude], {
        icon: L.divIcon({
          className: `map-marker map-marker--${status}${chosen}`,
          html: '<span class="map-marker__shape" aria-hidden="true"></span>',
          iconSize: [22, 22],
          iconAnchor: [11, 11],
        }),
        title,
        alt: title,
        keyboard: true,
        riseOnHover: true,
      });
      const open = () => latest.current.onOpen(d.device_id);
      marker.on('click', open);
      marker.on('keypress', (e: L.LeafletKeyboardEvent) => {
        if (e.originalEvent.key === 'Enter') open();
      });
      marker.addTo(layer);
      const el = marker.getElement();
      if (el) {
        el.setAttribute('aria-label', title);
        el.dataset.testid = `map-marker-${d.device_id}`;
        el.dataset.status = status;
      }
    }
  }, [markers, selected]);

  // Follow the selected device.
  useEffect(() => {
    const map = mapRef.current;
    const d = markers.find((m) => m.device_id === selected);
    if (map && d && d.latitude !== null && d.longitude !== null) {
      map.panTo([d.latitude, d.longitude]);
    }
  }, [selected, markers]);

  // The plain background when tiles cannot load.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    if (tilesFailed && !gridRef.current) gridRef.current = graticule().addTo(map);
    if (!tilesFailed && gridRef.current) {
      gridRef.current.remove();
      gridRef.current = null;
    }
  }, [tilesFailed]);

  const classes = ['map-canvas', tilesFailed ? 'map-canvas--plain' : '', placing ? 'map-canvas--placing' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div role="region" aria-label={label} className="map-canvas-region">
      <div
        ref={holder}
        className={classes}
        data-testid="map-canvas"
        data-tiles={tilesFailed ? 'failed' : 'ok'}
      />
    </div>
  );
}
