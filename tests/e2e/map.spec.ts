import { test, expect, type Page } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, listDevices, navigate, signIn, waitAllOnline } from './stack';

/**
 * /map on the real stack (issue 16 §2: devices on a map, a location set per device, tiles from a configurable URL,
 * usable when tiles cannot load; click a marker to open the device). The tile server is made unreachable (every
 * tile request aborted — the test machine has no internet anyway): the map says so and keeps working on a plain
 * background. A device is placed by "Place on map" and a click on the map, its marker opens the device page by
 * click and by Enter, coordinates typed in are range-checked and saved, the device is taken off the map, and
 * placed again with the keyboard alone (Enter on the focused map; Escape cancels).
 * Axe checks the screen (Leaflet's tiles are alt="" decorative images; nothing is excluded).
 */
let boxB = '';
let gate = '';
let token = '';

test.beforeAll(async ({ request }) => {
  token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  const devices = (await listDevices(request, token)).res;
  boxB = devices.find((d) => d.label === 'x86 Edge Box B')!.device_id;
  gate = devices.find((d) => d.label === 'Jetson Orin Gate')!.device_id;
  // Start with Box B off the map, whatever an earlier run left.
  const res = await request.delete(`/api/map/devices/${boxB}/location`, { headers: auth(token) });
  expect(res.status()).toBe(200);
});

const row = (page: Page) => page.getByTestId(`map-row-${boxB}`);
const marker = (page: Page) => page.getByTestId(`map-marker-${boxB}`);

async function openMap(page: Page) {
  await navigate(page, '/map');
  await expect(page.getByTestId('map-screen')).toBeVisible();
  await expect(page.getByTestId('map-canvas')).toBeVisible();
}

test('/map: tiles unreachable, place a device by clicking the map, open it from its marker, type coordinates, remove', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // No tile server is reachable: every tile request fails.
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'));
  await signIn(page, DEMO);
  await openMap(page);

  // Usable when tiles cannot load: a notice, a plain background, the list.
  await expect(page.getByTestId('map-tiles-failed')).toBeVisible();
  await expect(page.getByTestId('map-canvas')).toHaveAttribute('data-tiles', 'failed');
  await expect(row(page)).toContainText('x86 Edge Box B');
  await expect(row(page)).toContainText('Not on the map');
  await expect(row(page)).toContainText('Online');
  await expect(marker(page)).toHaveCount(0);
  // The demo's Jetson and Box A stand in Paris and Berlin (seeded), each a titled marker.
  await expect(page.locator('[data-testid^="map-marker-"]')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Jetson Orin Gate — Online' })).toBeVisible();
  await expectAccessible(page);

  // Place on map, then click the map.
  await page.getByTestId(`map-place-${boxB}`).click();
  await expect(page.getByTestId('map-placing')).toContainText('x86 Edge Box B');
  await expectAccessible(page);
  await page.getByTestId('map-canvas').click({ position: { x: 200, y: 150 } });
  await expect(page.getByTestId('map-notice')).toHaveText('Location saved.');
  await expect(page.getByTestId('map-placing')).toHaveCount(0);
  await expect(marker(page)).toBeVisible();
  await expect(marker(page)).toHaveAttribute('data-status', 'online');
  await expect(marker(page)).toHaveAttribute('title', 'x86 Edge Box B — Online');
  await expect(row(page)).not.toContainText('Not on the map');

  // The location is kept by the server.
  const listed = await page.request.get(`/api/map/markers`, { headers: auth(token) });
  const placed = (await listed.json()).markers.find((m: { device_id: string }) => m.device_id === boxB);
  expect(placed.latitude).toBeGreaterThanOrEqual(-90);
  expect(placed.latitude).toBeLessThanOrEqual(90);

  // Show on map highlights that row and marker (the placed device was highlighted until now).
  await expect(marker(page)).toHaveClass(/map-marker--selected/);
  await page.getByTestId(`map-show-${gate}`).click();
  await expect(page.getByTestId(`map-row-${gate}`)).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId(`map-marker-${gate}`)).toHaveClass(/map-marker--selected/);
  await expect(marker(page)).not.toHaveClass(/map-marker--selected/);

  // A click on the marker opens the device page.
  await marker(page).click();
  await expect(page).toHaveURL(new RegExp(`/control-panel/devices\\?device=${boxB}$`));

  // So does Enter on the focused marker (keyboard path).
  await openMap(page);
  await marker(page).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/control-panel/devices\\?device=${boxB}$`));

  // Coordinates typed in: out of range is refused before sending, a valid pair is saved.
  await openMap(page);
  await page.getByTestId(`map-coords-${boxB}`).click();
  await row(page).getByTestId('map-lat').fill('91');
  await row(page).getByTestId('map-lng').fill('-3.7038');
  await row(page).getByTestId('map-save-coords').click();
  await expect(row(page)).toContainText('Latitude must be a number between -90 and 90.');
  await expectAccessible(page);
  await row(page).getByTestId('map-lat').fill('40.4168');
  await row(page).getByTestId('map-save-coords').click();
  await expect(row(page)).toContainText('40.41680, -3.70380');
  await expect(page.getByTestId('map-notice')).toHaveText('Location saved.');
  await expect(marker(page)).toBeVisible();

  // Only the not-yet-located devices.
  await page.getByTestId('map-located').selectOption('no');
  await expect(row(page)).toHaveCount(0);
  await page.getByTestId('map-located').selectOption('all');
  await expect(row(page)).toBeVisible();

  // Remove from the map.
  await page.getByTestId(`map-remove-${boxB}`).click();
  await expect(page.getByTestId('map-notice')).toHaveText('Location removed.');
  await expect(marker(page)).toHaveCount(0);
  await expect(row(page)).toContainText('Not on the map');
  await expectAccessible(page);

  // Keyboard placing: Place on map, focus the map, Enter drops the device at the centre.
  await page.getByTestId(`map-place-${boxB}`).click();
  await page.getByTestId('map-canvas').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('map-notice')).toHaveText('Location saved.');
  await expect(marker(page)).toBeVisible();
  // Escape cancels placing.
  await page.getByTestId(`map-place-${boxB}`).click();
  await expect(page.getByTestId('map-placing')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('map-placing')).toHaveCount(0);
  await page.getByTestId(`map-remove-${boxB}`).click();
  await expect(marker(page)).toHaveCount(0);
});
