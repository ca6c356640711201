/**
 * The map feature's texts in English (§2 language 'en'), the complete set the other languages must give
 * (MapTranslation). The range texts repeat src/protocol/map.ts MAP_TEXTS (the server's refusals).
 */
export const en = {
  title: 'Map',
  mapLabel: 'Map of devices',
  loading: 'Loading the map…',
  loadFailed: 'The map could not be loaded.',
  listFailed: 'The device list could not be loaded.',
  retry: 'Retry',
  refresh: 'Refresh',
  tilesFailed:
    'Map tiles cannot be loaded (no connection to the tile server). Devices are shown on a plain background; the list works as usual.',
  capped: 'Showing {{shown}} of {{total}} located devices here; zoom in to see them all.',
  located: '{{count}} located devices',
  devices: 'Devices',
  search: 'Search devices',
  show: 'Show',
  showAll: 'All devices',
  showLocated: 'Located',
  showUnlocated: 'Not yet located',
  none: 'No devices match.',
  online: 'Online',
  offline: 'Offline',
  notLocated: 'Not on the map',
  coordinates: '{{lat}}, {{lng}}',
  open: 'Open {{label}}',
  openDevice: 'Open device',
  placeOnMap: 'Place on map',
  placeDevice: 'Place {{label}} on the map',
  placing:
    'Click the map where {{label}} stands — or focus the map, move it with the arrow keys and press Enter to place it at the centre — or press Cancel.',
  cancel: 'Cancel',
  setCoordinates: 'Set coordinates',
  setCoordinatesOf: 'Set coordinates of {{label}}',
  latitude: 'Latitude',
  longitude: 'Longitude',
  save: 'Save',
  remove: 'Remove from map',
  removeOf: 'Remove {{label}} from the map',
  placed: 'Location saved.',
  cleared: 'Location removed.',
  saveFailed: 'The location was not saved: {{message}}',
  dismiss: 'Dismiss',
  markerTitle: '{{label}} — {{status}}',
  page: 'Page {{page}} of {{pages}}',
  previous: 'Previous page',
  next: 'Next page',
  latitudeRange: 'Latitude must be a number between -90 and 90.',
  longitudeRange: 'Longitude must be a number between -180 and 180.',
};

export type MapTranslation = typeof en;
