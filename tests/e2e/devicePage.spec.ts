import { test, expect } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, resetLayout, auth, listDevices, navigate, signIn, waitAllOnline } from './stack';

/**
 * The device page on the real stack (issue 16 §1; spec §2 "/control-panel/devices?device={id}", §5 GPU
 * driver check, §7 presence poll, generate_token, DELETE device; §8 "Generated!", delete failure): opened
 * from the devices table, its tabs, presence, the GPU driver check on an x86 box and its refusal on a Jetson,
 * an unknown id, and — on a spare account's device, since both take it off the air — a new token shown once
 * (the old one stops working) and the device deleted.
 */
const SPARE = { email: 'spare@edge.local', password: 'spare-edge-2026' };
let boxB = '';
let jetson = '';

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  // A camera page saved by an earlier test would reopen its devices' links at sign-in: start with none open.
  await resetLayout(request, token);
  const { res } = await listDevices(request, token);
  boxB = res.find((d) => d.label === 'x86 Edge Box B')!.device_id;
  jetson = res.find((d) => d.label === 'Jetson Orin Gate')!.device_id;
});

test('opens from the table, shows presence and tabs, and checks the GPU driver of an x86 box', async ({
  page,
}) => {
  await signIn(page, DEMO);
  await navigate(page, '/control-panel/devices');
  await page.getByTestId(`device-open-${boxB}`).click();
  await expect(page).toHaveURL(new RegExp(`device=${boxB}`));
  const devicePage = page.getByTestId('device-page');
  await expect(devicePage.getByRole('heading', { level: 1 })).toHaveText('x86 Edge Box B');
  await expect(page.getByTestId('device-presence')).toHaveAttribute('data-online', 'true');
  await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('device-details')).toContainText('x86');
  await expectAccessible(page);

  // The GPU driver check needs the device link.
  await expect(page.getByTestId('gpu-check')).toBeDisabled();
  await page.getByTestId('overview-connect').click();
  await expect(page.getByTestId('overview-disconnect')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('gpu-check').click();
  await expect(page.getByTestId('gpu-result')).toContainText('Driver 550.54.15');

  // The back link returns to the table.
  await page.getByTestId('device-page-back').click();
  await expect(page.getByTestId('devices-table')).toBeVisible();
});

test('a Jetson is told the check is for x86 devices, and an unknown id is not found', async ({ page }) => {
  await signIn(page, DEMO);
  await navigate(page, `/control-panel/devices?device=${jetson}`);
  await page.getByTestId('gpu-check').click();
  await expect(page.getByTestId('gpu-result')).toHaveText('GPU Driver check is just for x86 devices.');

  await navigate(page, '/control-panel/devices?device=no-such-device');
  await expect(page.getByTestId('device-page-not-found')).toContainText('no-such-device');
  await expectAccessible(page);
});

test('a new device token is shown once and the old one stops working; then the device is deleted', async ({
  page,
  request,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const userToken = await apiLogin(request, SPARE);
  await waitAllOnline(request, userToken, 1);
  const spare = (await listDevices(request, userToken)).res[0]!;

  await signIn(page, SPARE);
  await navigate(page, `/control-panel/devices?device=${spare.device_id}`);
  await page.getByTestId('token-generate').click();
  const ask = page.getByRole('dialog', { name: 'Generate a new device token?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();

  await page.getByTestId('token-generate').click();
  await page.getByTestId('token-confirm').click();
  const shown = page.getByRole('dialog', { name: 'Generated!' });
  await expect(shown).toBeVisible();
  const deviceToken = (await page.getByTestId('token-value').textContent())!.trim();
  expect(deviceToken.length).toBeGreaterThan(20);
  await expect(page.getByTestId('token-copied')).toHaveText('New token is copied to clipboard.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(deviceToken);
  await expectAccessible(page);
  await page.getByTestId('token-done').click();
  await expect(shown).toBeHidden();
  await expect(page.getByTestId('token-value')).toHaveCount(0);

  // The new token is the device's: the agent's API answers it.
  const me = await request.get('/api/device/me', { headers: auth(deviceToken) });
  expect(me.status()).toBe(200);

  await page.getByTestId('device-delete').click();
  const confirm = page.getByRole('dialog', { name: 'Delete Spare Box?' });
  await confirm.getByTestId('delete-confirm').click();
  await expect(page).toHaveURL(/\/control-panel\/devices$/);
  await expect(page.getByTestId(`device-row-${spare.device_id}`)).toHaveCount(0);
  expect((await listDevices(request, userToken)).total_items).toBe(0);
});
