import { test, expect } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, listDevices, navigate, resetLayout, signIn, waitAllOnline } from './stack';

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  // The camera page restores the account's saved layout; start from an empty one.
  await resetLayout(request, token);
});

test('the login page shows the demo account and fills the form with it', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByTestId('demo-account')).toContainText(DEMO.email);
  await expectAccessible(page);
  await page.getByTestId('use-demo').click();
  await expect(page.getByTestId('login-email')).toHaveValue(DEMO.email);
});

test('a wrong password shows "The login detail is incorrect" and keeps the user on /login', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(DEMO.email);
  await page.getByTestId('login-password').fill('wrong-password');
  await page.getByTestId('login-terms').check();
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toHaveText(/The login detail is incorrect/);
  await expect(page).toHaveURL(/\/login$/);
  await expectAccessible(page);
});

test('sign in, see the devices, connect over WebRTC and watch a live camera down to a decoded frame', async ({
  page,
  request,
}) => {
  const token = await apiLogin(request, DEMO);
  const { res: devices } = await listDevices(request, token);
  const jetson = devices.find((d) => d.label === 'Jetson Orin Gate');
  expect(jetson).toBeDefined();

  await signIn(page, DEMO);
  await expectAccessible(page); // the dashboard
  await navigate(page, '/control-panel/devices');
  for (const d of devices) await expect(page.getByTestId(`device-row-${d.device_id}`)).toBeVisible();
  await expect(page.getByTestId('devices-summary')).toContainText('3 online');

  await page.getByTestId(`device-connect-${jetson!.device_id}`).click();
  await expect(page.getByTestId(`device-connection-${jetson!.device_id}`)).toHaveText(/open/i);
  // Live health and usage arrive over the data channel.
  await expect(page.getByTestId(`device-row-${jetson!.device_id}`)).toContainText(/CPU\s*\d+\s*%/);
  await expectAccessible(page);

  await navigate(page, '/control-panel/cameras');
  const openButtons = page.locator(`[data-testid^="camera-open-${jetson!.device_id}-"]`);
  await expect(openButtons).toHaveCount(4);
  // The Jetson's first camera is shared with another device (it opens the chooser); open a camera of its own.
  await openButtons.last().click();

  const video = page.locator('[data-testid^="stream-cell-"] video').first();
  await expect(video).toBeVisible();
  // A frame decoded by the browser: requestVideoFrameCallback fires with the camera's size.
  const frame = await video.evaluate(
    (v: HTMLVideoElement) =>
      new Promise<{ width: number; height: number }>((resolve) =>
        v.requestVideoFrameCallback((_now, meta) => resolve({ width: meta.width, height: meta.height })),
      ),
  );
  expect(frame).toEqual({ width: 640, height: 480 });
  await expect(page.locator('[data-testid^="stream-cell-"]').first()).toContainText(/playing/i);
  await expectAccessible(page);

  // Closing the stream removes its cell.
  await page.locator('[data-testid^="stream-cell-"]').first().getByTestId('stream-close').click();
  await expect(page.locator('[data-testid^="stream-cell-"]')).toHaveCount(0);

  // Disconnect closes the device link.
  await navigate(page, '/control-panel/devices');
  await page.getByTestId(`device-disconnect-${jetson!.device_id}`).click();
  await expect(page.getByTestId(`device-connection-${jetson!.device_id}`)).toHaveText(
    /not connected|closed/i,
  );
});

test('the device table searches from two characters on', async ({ page }) => {
  await signIn(page, DEMO);
  await navigate(page, '/control-panel/devices');
  await expect(page.locator('[data-testid^="device-row-"]')).toHaveCount(3);
  await page.getByTestId('devices-search').fill('x');
  // One character does not query: all three rows stay.
  await page.waitForTimeout(400);
  await expect(page.locator('[data-testid^="device-row-"]')).toHaveCount(3);
  await page.getByTestId('devices-search').fill('x86');
  await expect(page.locator('[data-testid^="device-row-"]')).toHaveCount(2);
});
