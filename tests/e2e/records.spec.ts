import { test, expect } from './fixtures';
import { expectAccessible } from './axe';
import {
  DEMO,
  apiLogin,
  resetLayout,
  connectDevices,
  listDevices,
  navigate,
  signIn,
  waitAllOnline,
} from './stack';

/**
 * Records on the real stack (issue 16 §2 records; §2 /control-panel/records; §9 "Recorded video codec vp8"):
 * a real VP8 WebM made in Chromium (MediaRecorder over a canvas) is uploaded to a sim device through the
 * upload input (records-save-* in checked chunks, a real file in the sim's stateDir), listed, played (read back
 * in chunks into a Blob URL: the <video> gets a duration and plays), and removed after a confirmation; the
 * screen passes axe in each state.
 */
let boxB = '';

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  await resetLayout(request, token);
  boxB = (await listDevices(request, token)).res.find((d) => d.label === 'x86 Edge Box B')!.device_id;
});

test('/control-panel/records: a VP8 recording uploaded, listed, played and removed on a sim device', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO);
  await navigate(page, '/control-panel/records');
  await expect(page.getByTestId('records-screen')).toBeVisible();
  await expect(page.getByTestId('records-no-device')).toBeVisible();
  await expectAccessible(page);

  await connectDevices(page, [boxB]);
  await navigate(page, '/control-panel/records');
  await expect(page.getByTestId('records-device')).toHaveValue(boxB);

  // A real VP8 WebM of ~1.5 s from a canvas, made in this Chromium.
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 120;
    const g = canvas.getContext('2d')!;
    const stream = canvas.captureStream(25);
    const rec = new MediaRecorder(stream, { mimeType: 'video/webm;codecs=vp8' });
    const parts: Blob[] = [];
    rec.ondataavailable = (e) => parts.push(e.data);
    const stopped = new Promise((r) => (rec.onstop = r));
    rec.start(250);
    for (let i = 0; i < 38; i++) {
      g.fillStyle = `hsl(${i * 10}, 80%, 50%)`;
      g.fillRect(0, 0, 160, 120);
      await new Promise((r) => setTimeout(r, 40));
    }
    rec.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(parts).arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s);
  });
  const buffer = Buffer.from(base64, 'base64');
  expect(buffer.length).toBeGreaterThan(1000);
  const name = `e2e-${Date.now()}.webm`;

  await page.locator('input[type=file]').setInputFiles({ name, mimeType: 'video/webm', buffer });
  const row = page.getByTestId(`records-row-${name}`);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('records-transfer')).toHaveCount(0);
  await expectAccessible(page);

  // Play: read back in chunks → <video> with a duration that plays.
  await row.getByRole('button', { name: `Play ${name}` }).click();
  const video = page.getByTestId('records-player').locator('video');
  await expect(video).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(() =>
      video.evaluate(
        (v: HTMLVideoElement) => v.readyState >= 1 && (v.duration > 0 || v.duration === Infinity),
      ),
    )
    .toBe(true);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime > 0 || v.ended)).toBe(true);
  // The bytes played are the bytes uploaded.
  const size = await video.evaluate(async (v: HTMLVideoElement) => (await (await fetch(v.src)).blob()).size);
  expect(size).toBe(buffer.length);
  await expectAccessible(page);

  // Remove, after a confirmation.
  await row.getByRole('button', { name: `Remove ${name}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(name);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('records-error')).toHaveCount(0);
});

test("a camera cell's VP8 recording is saved to its device and listed on /control-panel/records", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO);
  await connectDevices(page, [boxB]);
  await navigate(page, '/control-panel/cameras');
  await page.locator(`[data-testid^="camera-open-${boxB}-"]`).first().click();
  const cell = page.locator('[data-testid^="stream-cell-"]').first();
  await expect(cell.getByTestId('stream-status')).toContainText('Playing', { timeout: 30_000 });

  // Record ~2 s of the live cell (MediaRecorder, VP8 WebM), then save it to the device.
  await cell.getByTestId('stream-record').click();
  await expect(cell.getByTestId('stream-recording-badge')).toBeVisible();
  await page.waitForTimeout(2_000);
  await cell.getByTestId('stream-record').click();
  await expect(cell.getByTestId('stream-download')).toBeVisible({ timeout: 15_000 });
  const fileName = (await cell.getByTestId('stream-download').getAttribute('download'))!;
  await cell.getByTestId('records-save-to-device').click();
  await expect(cell.getByText('Saved to the device')).toBeVisible({ timeout: 30_000 });

  // The device lists it; remove it again.
  await navigate(page, '/control-panel/records');
  await expect(page.getByTestId('records-device')).toHaveValue(boxB);
  const row = page.getByTestId(`records-row-${fileName}`);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.getByRole('button', { name: `Remove ${fileName}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(row).toHaveCount(0);
});
