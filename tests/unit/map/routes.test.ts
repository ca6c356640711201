/**
 * The map routes (src/server/routes/map.ts; src/protocol/map.ts) on a real server with embedded PostgreSQL:
 * placing and clearing a location (range checks with clear 400 texts, 404 for another user's device), the
 * markers (located only, the box including one across the antimeridian, the cap's total), the paged side list
 * (located yes/no, search) and the tile configuration from the environment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAP_TILE_URL, MAP_MARKERS_MAX, MAP_TEXTS } from '../../../src/protocol/map';
import { mapConfigFromEnv, tileUrlProblem } from '../../../src/server/routes/map';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let token: string;
let otherToken: string;
const ids: Record<string, { id: string; device_id: string }> = {};

beforeAll(async () => {
  server = await startTestServer();
  const user = await server.seed.ensureUser({ email: 'map@example.com', password: 'map-pw-1' });
  const other = await server.seed.ensureUser({ email: 'other@example.com', password: 'other-pw-1' });
  for (const label of ['Berlin', 'Fiji', 'Samoa', 'Unplaced']) {
    ids[label] = await server.seed.ensureDevice({ ownerId: user.id, label, chipsetId: '0' });
  }
  ids.Foreign = await server.seed.ensureDevice({ ownerId: other.id, label: 'Foreign', chipsetId: '0' });
  token = (await login(server, 'map@example.com', 'map-pw-1')).token;
  otherToken = (await login(server, 'other@example.com', 'other-pw-1')).token;
}, 120_000);
afterAll(async () => {
  await server?.dispose();
});

const place = (id: string, latitude: unknown, longitude: unknown, t = token) =>
  api(server, 'PUT', `map/devices/${encodeURIComponent(id)}/location`, {
    token: t,
    body: { latitude, longitude },
  });

describe('placing a device', () => {
  it('sets a location by row id or device_id and answers the device', async () => {
    const res = await place(ids.Berlin!.id, 52.52, 13.405);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: ids.Berlin!.id,
      device_id: ids.Berlin!.device_id,
      label: 'Berlin',
      latitude: 52.52,
      longitude: 13.405,
      is_active: false,
    });
    expect((await place(ids.Fiji!.device_id, -17.7, 178.1)).status).toBe(200);
    expect((await place(ids.Samoa!.device_id, -13.8, -172.1)).status).toBe(200);
  });

  it('refuses out-of-range and non-numeric coordinates with a clear 400 text, changing nothing', async () => {
    const lat = await place(ids.Berlin!.id, 91, 0);
    expect(lat.status).toBe(400);
    expect(lat.body).toEqual({
      code: 'Validation_error',
      message: `body.latitude: ${MAP_TEXTS.latitudeRange}`,
    });
    const lng = await place(ids.Berlin!.id, 0, -180.5);
    expect(lng.status).toBe(400);
    expect(lng.body.message).toBe(`body.longitude: ${MAP_TEXTS.longitudeRange}`);
    const text = await place(ids.Berlin!.id, '52', 13);
    expect(text.status).toBe(400);
    expect(text.body.message).toContain(MAP_TEXTS.latitudeRange);
    const missing = await api(server, 'PUT', `map/devices/${ids.Berlin!.id}/location`, {
      token,
      body: { latitude: 1 },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain(MAP_TEXTS.longitudeRange);
    const list = await api(server, 'GET', 'map/devices?search=Berlin', { token });
    expect(list.body.devices[0]).toMatchObject({ latitude: 52.52, longitude: 13.405 });
  });

  it('accepts the edges of the ranges', async () => {
    const res = await place(ids.Unplaced!.id, -90, 180);
    expect(res.status).toBe(200);
    expect(
      (await api(server, 'DELETE', `map/devices/${ids.Unplaced!.id}/location`, { token })).body,
    ).toMatchObject({ latitude: null, longitude: null });
  });

  it('answers 404 for another user’s device and for an unknown one', async () => {
    const foreign = await place(ids.Foreign!.id, 1, 1);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ code: 'Not_found', message: 'Device not found.' });
    expect((await place('dev-nope', 1, 1)).status).toBe(404);
    expect((await api(server, 'DELETE', 'map/devices/dev-nope/location', { token })).status).toBe(404);
    expect((await place(ids.Berlin!.id, 1, 1, otherToken)).status).toBe(404);
  });

  it('needs a signed-in user', async () => {
    expect((await api(server, 'GET', 'map/markers')).status).toBe(401);
    expect((await api(server, 'GET', 'map/config')).status).toBe(401);
  });
});

describe('markers', () => {
  it('lists only located devices of the caller, by label, with the total and the cap', async () => {
    const res = await api(server, 'GET', 'map/markers', { token });
    expect(res.status).toBe(200);
    expect(res.body.markers.map((m: { label: string }) => m.label)).toEqual(['Berlin', 'Fiji', 'Samoa']);
    expect(res.body.total).toBe(3);
    expect(res.body.limit).toBe(MAP_MARKERS_MAX);
    const other = await api(server, 'GET', 'map/markers', { token: otherToken });
    expect(other.body).toEqual({ markers: [], total: 0, limit: MAP_MARKERS_MAX });
  });

  it('keeps to a box, also one crossing the antimeridian', async () => {
    const europe = await api(server, 'GET', 'map/markers?south=40&west=0&north=60&east=30', { token });
    expect(europe.body.markers.map((m: { label: string }) => m.label)).toEqual(['Berlin']);
    const pacific = await api(server, 'GET', 'map/markers?south=-30&west=170&north=0&east=-160', { token });
    expect(pacific.body.markers.map((m: { label: string }) => m.label)).toEqual(['Fiji', 'Samoa']);
    expect(pacific.body.total).toBe(2);
  });

  it('refuses an incomplete, inverted or out-of-range box', async () => {
    const part = await api(server, 'GET', 'map/markers?south=1&west=2', { token });
    expect(part.status).toBe(400);
    expect(part.body.message).toBe(`querystring: ${MAP_TEXTS.boxIncomplete}`);
    const inverted = await api(server, 'GET', 'map/markers?south=10&west=0&north=-10&east=1', { token });
    expect(inverted.body.message).toBe(`querystring: ${MAP_TEXTS.boxInverted}`);
    const range = await api(server, 'GET', 'map/markers?south=-100&west=0&north=0&east=1', { token });
    expect(range.status).toBe(400);
    expect(range.body.message).toBe(`querystring.south: ${MAP_TEXTS.latitudeRange}`);
    const nan = await api(server, 'GET', 'map/markers?south=abc&west=0&north=0&east=1', { token });
    expect(nan.status).toBe(400);
    const inf = await api(server, 'GET', 'map/markers?south=-Infinity&west=0&north=0&east=1', { token });
    expect(inf.status).toBe(400);
    const far = await api(server, 'GET', 'map/devices?page=1000000&per_page=50', { token });
    expect(far.body).toEqual({ devices: [], total: 4 });
  });
});

describe('the side list', () => {
  it('pages all devices by label, and filters placed / not placed and by search', async () => {
    const all = await api(server, 'GET', 'map/devices?per_page=2', { token });
    expect(all.body.total).toBe(4);
    expect(all.body.devices.map((d: { label: string }) => d.label)).toEqual(['Berlin', 'Fiji']);
    const page2 = await api(server, 'GET', 'map/devices?per_page=2&page=2', { token });
    expect(page2.body.devices.map((d: { label: string }) => d.label)).toEqual(['Samoa', 'Unplaced']);
    const no = await api(server, 'GET', 'map/devices?located=no', { token });
    expect(no.body).toMatchObject({ total: 1, devices: [{ label: 'Unplaced', latitude: null }] });
    const yes = await api(server, 'GET', 'map/devices?located=yes&search=am', { token });
    expect(yes.body.devices.map((d: { label: string }) => d.label)).toEqual(['Samoa']);
    const wild = await api(server, 'GET', 'map/devices?search=%25', { token });
    expect(wild.body.total).toBe(0);
    expect((await api(server, 'GET', 'map/devices?per_page=51', { token })).status).toBe(400);
  });
});

describe('tile configuration', () => {
  it('serves OpenStreetMap by default', async () => {
    const res = await api(server, 'GET', 'map/config', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tile_url: DEFAULT_MAP_TILE_URL,
      attribution: '© OpenStreetMap contributors',
      max_zoom: 19,
    });
  });

  it('reads MAP_TILE_URL, MAP_TILE_ATTRIBUTION and MAP_MAX_ZOOM, ignoring bad values with a warning', () => {
    expect(
      mapConfigFromEnv({
        MAP_TILE_URL: 'https://tiles.example/{z}/{x}/{y}.png',
        MAP_TILE_ATTRIBUTION: 'Example tiles',
        MAP_MAX_ZOOM: '17',
      }),
    ).toEqual({
      tile_url: 'https://tiles.example/{z}/{x}/{y}.png',
      attribution: 'Example tiles',
      max_zoom: 17,
    });
    expect(mapConfigFromEnv({ MAP_TILE_URL: '/tiles/{z}/{x}/{y}.png' }).attribution).toBe('');
    const warnings: string[] = [];
    const bad = mapConfigFromEnv({ MAP_TILE_URL: 'ftp://x/{z}/{x}/{y}', MAP_MAX_ZOOM: '99' }, (m) =>
      warnings.push(m),
    );
    expect(bad).toEqual({
      tile_url: DEFAULT_MAP_TILE_URL,
      attribution: '© OpenStreetMap contributors',
      max_zoom: 19,
    });
    expect(warnings).toHaveLength(2);
    expect(tileUrlProblem('https://a/{z}/{x}.png')).toBe('lacks {y}');
    expect(tileUrlProblem('https://{s}.tile.example/{z}/{x}/{y}.png')).toBeNull();
  });
});
