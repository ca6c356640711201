/**
 * What every bench does in the page before it measures: sign in through the form, navigate inside the app
 * (history.pushState; a reload would close the device links), and open a device's link from the devices table.
 */
import type { Page } from '@playwright/test';

/** Signs in through the login form at `url` and waits for /dashboard. */
export async function signIn(
  page: Page,
  url: string,
  who: { email: string; password: string },
): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByTestId('login-email').fill(who.email);
  await page.getByTestId('login-password').fill(who.password);
  await page.getByTestId('login-terms').check();
  await page.getByTestId('login-submit').click();
  await page.waitForURL('**/dashboard');
}

/** Client-side navigation to `to` (path and query). */
export async function navigate(page: Page, to: string): Promise<void> {
  await page.evaluate((p) => {
    history.pushState({}, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, to);
}

/** Opens the device's link from /control-panel/devices (unless it is open) and waits until it is. */
export async function connectDevice(page: Page, deviceId: string): Promise<void> {
  await navigate(page, '/control-panel/devices');
  const state = page.getByTestId(`device-connection-${deviceId}`);
  await state.waitFor();
  if ((await state.getAttribute('data-state')) !== 'open')
    await page.getByTestId(`device-connect-${deviceId}`).click();
  await page.locator(`[data-testid="device-connection-${deviceId}"][data-state="open"]`).waitFor();
}
