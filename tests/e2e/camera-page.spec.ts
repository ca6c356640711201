import { expectAccessible } from './axe';
import { test, expect, type Page } from './fixtures';
import {
  DEMO,
  QUOTA,
  agentPids,
  apiLogin,
  auth,
  decodedFrame,
  listDevices,
  navigate,
  openCameraPage,
  resetLayout,
  signIn,
  waitAllOnline,
} from './stack';

/** Issue 3: the camera page on the real stack (three simulated devices, four cameras each, one IP camera). */
let devices: Record<string, string> = {};
let token = '';

const cells = (page: Page) => page.locator('[data-testid^="stream-cell-"]');
const openButtons = (page: Page, deviceId: string) =>
  page.locator(`[data-testid^="camera-open-${deviceId}-"]`);

test.beforeAll(async ({ request }) => {
  token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  devices = Object.fromEntries((await listDevices(request, token)).res.map((d) => [d.label, d.device_id]));
});

test.beforeEach(async ({ request }) => {
  await resetLayout(request, token);
});

async function openAndWait(page: Page, testId: string, expectedCells: number) {
  await page.getByTestId(testId).click();
  await expect(cells(page)).toHaveCount(expectedCells);
}

test('twelve cameras open and play; the thirteenth opens page 2', async ({ page }) => {
  test.setTimeout(180_000);
  const gate = devices['Jetson Orin Gate']!;
  const boxA = devices['x86 Edge Box A']!;
  const boxB = devices['x86 Edge Box B']!;
  // Cells out of view pause (issue 3): a screen tall enough to show all twelve keeps them playing.
  await page.setViewportSize({ width: 1600, height: 2400 });
  // The console's device calls for this test's own checks (window.__edgeConsole, main.tsx).
  await page.addInitScript(() => localStorage.setItem('edge.debug', '1'));
  await openCameraPage(page, DEMO, [gate, boxA, boxB]);

  // Box B's four cameras, the other devices' own three each, and the IP camera Box B reaches: 11.
  for (const id of [gate, boxA, boxB]) await expect(openButtons(page, id)).toHaveCount(4);
  const own = [
    ...(await openButtons(page, boxB).evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!))),
    ...(await openButtons(page, gate).evaluateAll((els) =>
      els.slice(1).map((e) => e.getAttribute('data-testid')!),
    )),
    ...(await openButtons(page, boxA).evaluateAll((els) =>
      els.slice(1).map((e) => e.getAttribute('data-testid')!),
    )),
  ];
  expect(own).toHaveLength(10);
  let n = 0;
  for (const id of own) await openAndWait(page, id, ++n);
  await openAndWait(
    page,
    (await page.locator('[data-testid^="ip-camera-open-"]').first().getAttribute('data-testid'))!,
    ++n,
  );

  // The twelfth: the camera Gate and Box A share, through the chooser.
  await page.locator(`[data-testid^="camera-open-${gate}-"]`).first().click();
  await page.getByTestId(`camera-chooser-pick-${gate}`).click();
  await expect(cells(page)).toHaveCount(12);

  // All twelve play: each video decodes a frame.
  const videos = page.locator('[data-testid^="stream-cell-"] video');
  await expect(videos).toHaveCount(12);
  for (let i = 0; i < 12; i++) {
    const frame = await decodedFrame(videos.nth(i));
    expect(frame.width).toBeGreaterThan(0);
  }

  // The thirteenth (the shared camera again, from Box A) starts page 2.
  await page.locator(`[data-testid^="camera-open-${boxA}-"]`).first().click();
  await page.getByTestId(`camera-chooser-pick-${boxA}`).click();
  await expect(page.getByTestId('stream-page-2')).toBeVisible();
  await page.getByTestId('stream-page-2').click();
  await expect(cells(page)).toHaveCount(1);
  await expect(cells(page).first()).toContainText('x86 Edge Box A');
  await decodedFrame(page.locator('[data-testid^="stream-cell-"] video').first());

  // Page 1 is hidden: the agents hold its twelve streams (pause-stream: nothing encoded or sent for them).
  const agentStreams = () =>
    page.evaluate(
      async (ids) => {
        type Edge = { callDevice: (d: string, p: string, x: unknown) => Promise<unknown> };
        const edge = (window as unknown as { __edgeConsole: Edge }).__edgeConsole;
        const out = { sending: 0, held: 0 };
        for (const id of ids) {
          const h = (await edge.callDevice(id, 'check-health', {})) as {
            streams: number;
            paused_streams: number;
          };
          out.sending += h.streams;
          out.held += h.paused_streams;
        }
        return out;
      },
      [gate, boxA, boxB],
    );
  await expect.poll(agentStreams, { timeout: 10_000 }).toEqual({ sending: 1, held: 12 });

  // Back on page 1, the held streams play again (resumed on their connections) and page 2's is held.
  await page.getByTestId('stream-page-1').click();
  await expect(videos).toHaveCount(12);
  for (let i = 0; i < 12; i++) await decodedFrame(videos.nth(i));
  await expect.poll(agentStreams, { timeout: 10_000 }).toEqual({ sending: 12, held: 1 });
  await expect(cells(page).first().getByTestId('stream-status')).toHaveText(/playing/i);
});

test('a stream closes from its right-click menu', async ({ page }) => {
  const boxB = devices['x86 Edge Box B']!;
  await openCameraPage(page, DEMO, [boxB]);
  await expect(openButtons(page, boxB)).toHaveCount(4);
  await openAndWait(page, (await openButtons(page, boxB).first().getAttribute('data-testid'))!, 1);
  await cells(page).first().click({ button: 'right' });
  await expect(page.getByTestId('stream-context-menu')).toBeVisible();
  await expect(page.getByTestId('stream-menu-fullscreen')).toHaveText(/Full Screen/);
  await expect(page.getByTestId('stream-menu-close')).toHaveText(/Close Stream/);
  await expectAccessible(page);
  await page.getByTestId('stream-menu-close').click();
  await expect(cells(page)).toHaveCount(0);
});

test('the chooser shows a photo per device that has the shared camera', async ({ page }) => {
  const gate = devices['Jetson Orin Gate']!;
  const boxA = devices['x86 Edge Box A']!;
  await openCameraPage(page, DEMO, [gate, boxA]);
  await expect(openButtons(page, gate)).toHaveCount(4);
  await openButtons(page, gate).first().click();
  for (const id of [gate, boxA]) {
    await expect(page.getByTestId(`camera-chooser-option-${id}`).locator('img')).toHaveAttribute(
      'src',
      /^data:image\/png;base64,/,
    );
  }
  await expectAccessible(page);
  await page.getByTestId(`camera-chooser-pick-${boxA}`).click();
  await expect(cells(page)).toHaveCount(1);
  await expect(cells(page).first()).toContainText('x86 Edge Box A');
  await decodedFrame(cells(page).first().locator('video'));
});

test('a camera in use offers to kill the other viewer, then opens', async ({ page, browser, request }) => {
  const boxB = devices['x86 Edge Box B']!;
  // Another viewer (a second browser) watches Box B's last camera.
  const other = await browser.newPage();
  await openCameraPage(other, DEMO, [boxB]);
  await expect(openButtons(other, boxB)).toHaveCount(4);
  const cameraButton = openButtons(other, boxB).last();
  const testId = (await cameraButton.getAttribute('data-testid'))!;
  await cameraButton.click();
  await decodedFrame(cells(other).first().locator('video'));
  // This page must open the camera itself, not restore the other viewer's saved layout.
  await expect
    .poll(
      async () =>
        (await (await request.get('/api/camera-layout', { headers: auth(token) })).json()).streams.length,
    )
    .toBe(1);
  await resetLayout(request, token);

  await openCameraPage(page, DEMO, [boxB]);
  await expect(page.getByTestId(testId)).toBeVisible();
  await page.getByTestId(testId).click();
  await expect(page.getByTestId('camera-conflict-kill')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('camera-conflict-kill').click();
  await expect(page.getByTestId('camera-conflict-result')).toContainText(/true/i);
  await page.getByTestId('camera-conflict-continue').click();
  await expect(cells(page)).toHaveCount(1);
  await decodedFrame(cells(page).first().locator('video'));
  await other.close();
});

test('a device without stream quota refuses to open a stream', async ({ page, request }) => {
  const quotaToken = await apiLogin(request, QUOTA);
  await waitAllOnline(request, quotaToken, 1);
  const quotaBox = (await listDevices(request, quotaToken)).res[0]!.device_id;
  await openCameraPage(page, QUOTA, [quotaBox]);
  await expect(openButtons(page, quotaBox)).toHaveCount(2);
  await openButtons(page, quotaBox).first().click();
  await expect(page.getByTestId('stream-quota-message')).toBeVisible();
  await expect(cells(page)).toHaveCount(0);
  await expectAccessible(page);
});

test('an agent killed mid-stream comes back and the cell recovers by itself', async ({ page }) => {
  test.setTimeout(120_000);
  const boxB = devices['x86 Edge Box B']!;
  await openCameraPage(page, DEMO, [boxB]);
  await expect(openButtons(page, boxB)).toHaveCount(4);
  await openAndWait(page, (await openButtons(page, boxB).first().getAttribute('data-testid'))!, 1);
  const cell = cells(page).first();
  await decodedFrame(cell.locator('video'));

  const agent = agentPids().find((a) => a.deviceId === boxB)!;
  process.kill(agent.pid!, 'SIGKILL'); // npm start's supervisor restarts it after 1 s
  await expect(cell.getByTestId('stream-status')).toHaveText(/reconnecting/i, { timeout: 20_000 });
  await expect(cell.getByTestId('stream-status')).toHaveText(/playing/i, { timeout: 60_000 });
  await decodedFrame(cell.locator('video'));
  expect(agentPids().find((a) => a.deviceId === boxB)!.pid).not.toBe(agent.pid);
});

test('the layout survives a reload and a new sign-in', async ({ page, request }) => {
  test.setTimeout(120_000);
  const boxB = devices['x86 Edge Box B']!;
  await openCameraPage(page, DEMO, [boxB]);
  await expect(openButtons(page, boxB)).toHaveCount(4);
  // Cameras 2 and 3: the previous test's viewer of camera 1 may still be closing on the agent.
  const ids = await openButtons(page, boxB).evaluateAll((els) =>
    els.slice(1, 3).map((e) => e.getAttribute('data-testid')!),
  );
  await openAndWait(page, ids[0]!, 1);
  await openAndWait(page, ids[1]!, 2);
  await cells(page).first().getByTestId('stream-size').selectOption('large');
  // The layout is saved on the server (debounced).
  await expect
    .poll(async () => {
      const saved = await (await request.get('/api/camera-layout', { headers: auth(token) })).json();
      return saved.streams.map((s: { cell: { w: number; h: number } }) => `${s.cell.w}x${s.cell.h}`).sort();
    })
    .toContain('6x6');

  const labels = async () => (await cells(page).allTextContents()).map((t) => t.slice(0, 40)).sort();
  const before = await labels();
  await page.reload();
  await expect(cells(page)).toHaveCount(2, { timeout: 30_000 });
  // A cell out of view is paused (IntersectionObserver): with the first cell large the second may sit below the
  // fold, so each video is scrolled into view before a decoded frame is awaited.
  for (const v of await page.locator('[data-testid^="stream-cell-"] video').all()) {
    await v.scrollIntoViewIfNeeded();
    await decodedFrame(v);
  }

  // Sign out and in again: the same two streams come back.
  await page.getByTestId('user-menu').click();
  await page.getByTestId('sign-out').click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, DEMO);
  await navigate(page, '/control-panel/cameras');
  await expect(cells(page)).toHaveCount(2, { timeout: 30_000 });
  expect((await labels()).map((l) => l.slice(0, 20))).toEqual(before.map((l) => l.slice(0, 20)));
});

test('the stream modal shows the live video; minimize explains the stream goes on', async ({ page }) => {
  const boxB = devices['x86 Edge Box B']!;
  await openCameraPage(page, DEMO, [boxB]);
  await expect(openButtons(page, boxB)).toHaveCount(4);
  // Camera 4: the previous test's viewers of cameras 2 and 3 may still be closing on the agent.
  await openAndWait(page, (await openButtons(page, boxB).nth(3).getAttribute('data-testid'))!, 1);
  await cells(page).first().getByTestId('stream-expand').click();
  await expect(page.getByTestId('stream-modal-label')).toContainText('x86 Edge Box B');
  const frame = await decodedFrame(page.getByTestId('stream-modal-video'));
  expect(frame).toEqual({ width: 640, height: 480 });
  await expectAccessible(page);
  await page.getByTestId('stream-modal-minimize').click();
  await expect(page.getByTestId('stream-minimized-text')).toHaveText(
    'Minimized - Stream is still going on. You can use the camera page to monitor and manage',
  );
  await expect(page.getByTestId('stream-minimized-camera-page')).toHaveText('Camera Page');
  await expectAccessible(page);
  await page.getByTestId('stream-minimized-understood').click();
  await expect(page.getByTestId('stream-minimized-text')).toHaveCount(0);
  // The stream itself goes on in its cell.
  await decodedFrame(cells(page).first().locator('video'));
});
