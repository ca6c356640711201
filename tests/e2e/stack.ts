/** Accounts seeded by playwright.config.ts's web server, and REST helpers for the end-to-end tests. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const DEMO = { email: 'demo@edge.local', password: 'demo-edge-2026' };
export const SECOND = { email: 'second@edge.local', password: 'second-edge-2026' };

/** Signs in over REST; returns the access token. */
export async function apiLogin(request: APIRequestContext, who: { email: string; password: string }) {
  const res = await request.post('/api/login', { data: who });
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body.status).toBe(2);
  return body.token as string;
}

export const auth = (token: string) => ({ Authorization: `Token ${token}` });

/** Lists the caller's devices (first page of 50). */
export async function listDevices(request: APIRequestContext, token: string) {
  const res = await request.get('/api/get_devices/?per_page=50', { headers: auth(token) });
  expect(res.status()).toBe(200);
  return (await res.json()) as {
    res: Array<{ id: string; device_id: string; label: string; is_active: boolean }>;
    total_items: number;
  };
}

/** Waits until every device of the caller is registered with signalling (the agents start after the server). */
export async function waitAllOnline(request: APIRequestContext, token: string, count: number) {
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/get-online-devices', { headers: auth(token) });
        return ((await res.json()).onlineDevices as string[]).length;
      },
      { timeout: 60_000 },
    )
    .toBe(count);
}

/** Signs in through the login form and lands on /dashboard. */
export async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(who.email);
  await page.getByTestId('login-password').fill(who.password);
  await page.getByTestId('login-terms').check();
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * Chromium's upload throughput for `page`, through the DevTools protocol: returns a setter taking bytes per second
 * (-1: no limit). Downloads and latency are left as they are.
 */
export async function uploadThrottle(page: Page): Promise<(bytesPerSecond: number) => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  return async (bytesPerSecond) => {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    });
  };
}

/** Client-side navigation (a reload would close the device links, as in any single-page console). */
export async function navigate(page: Page, path: string) {
  await page.evaluate((p) => {
    history.pushState({}, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
}

/** The agents `npm start` runs for the e2e server (from DATA_DIR/agents.json, rewritten on every restart). */
export function agentPids(): Array<{ label: string; deviceId: string; pid: number | null }> {
  const file = path.join(process.env.E2E_DATA_DIR ?? '', 'agents.json');
  return JSON.parse(readFileSync(file, 'utf8'));
}

export const QUOTA = { email: 'quota@edge.local', password: 'quota-edge-2026' };

/** Clears the caller's saved camera layout, so a test starts with an empty camera page. */
export async function resetLayout(request: APIRequestContext, token: string) {
  const res = await request.put('/api/camera-layout', { headers: auth(token), data: { streams: [] } });
  expect(res.status()).toBe(200);
}

/** Connects the given devices from the devices page (client-side navigation keeps the links). */
export async function connectDevices(page: Page, deviceIds: string[]) {
  await navigate(page, '/control-panel/devices');
  for (const id of deviceIds) {
    const state = page.getByTestId(`device-connection-${id}`);
    // Devices other tests added may push this one off the first page (5 rows): then it is searched for.
    const shown = await state.waitFor({ state: 'visible', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (!shown) {
      await page.getByTestId('devices-search').fill(id);
    }
    await expect(state).toBeVisible();
    // A saved camera layout may already be connecting the device (it reopens its streams).
    if ((await state.getAttribute('data-state')) === 'notConnected') {
      await page.getByTestId(`device-connect-${id}`).click();
    }
    await expect(state).toHaveAttribute('data-state', 'open');
  }
}

/** Resolves once the video element decodes a new frame (requestVideoFrameCallback); its size. */
export async function decodedFrame(video: import('@playwright/test').Locator) {
  return video.evaluate(
    (v: HTMLVideoElement) =>
      new Promise<{ width: number; height: number }>((resolve) =>
        v.requestVideoFrameCallback((_now, meta) => resolve({ width: meta.width, height: meta.height })),
      ),
  );
}

/** Signs in, connects the devices and opens the camera page. */
export async function openCameraPage(
  page: Page,
  who: { email: string; password: string },
  deviceIds: string[],
) {
  await signIn(page, who);
  await connectDevices(page, deviceIds);
  await navigate(page, '/control-panel/cameras');
}
