import { test, expect, type Page } from './fixtures';
import { SimCamera } from '../../src/agent/backends/sim/camera';
import { trackSpeed } from '../../src/agent/backends/sim/scene';
import { truthAt, TRUTH_HEIGHT, TRUTH_WIDTH } from '../../src/agent/demoApps/truth';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, listDevices, navigate, signIn, waitAllOnline } from './stack';

/**
 * The demo AI applications on the real stack (issue 14): a simulated device picked on each page is connected
 * over a real WebRTC link and its camera plays live. NanoOWL draws boxes for a typed class present in the
 * scene and none for an absent one; LLaVA's streamed answer names the scene's objects (their labels and
 * colours, from the scene truth computed here from the same seed); the speed application's speeds of the
 * crossing car equal the truth (distance over the time the scene's track speed takes between the lines)
 * within 0.5 km/h (positions are whole even pixels). IBB, the AI platform and cameras-dev render; axe on each.
 */
let jetson = '';
const CAMERA = 'cam-1';
/** The camera's scene: the sim scene is seeded from the camera's unique_id (a shared camera's is not its device's). */
let camera: SimCamera;

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  for (const d of (await listDevices(request, token)).res)
    if (d.label === 'Jetson Orin Gate') jetson = d.device_id;
  const res = await request.get('/api/physical-cameras', { headers: auth(token) });
  expect(res.status()).toBe(200);
  const cams = (
    (await res.json()) as { data: { data: { device_id: string; camera_id: string; unique_id: string }[] } }
  ).data.data;
  const row = cams.find((c) => c.device_id === jetson && c.camera_id === CAMERA);
  expect(row, `${CAMERA} of ${jetson} in /api/physical-cameras`).toBeTruthy();
  camera = new SimCamera(jetson, Number(CAMERA.slice(4)), row!.unique_id);
});

async function pickDevice(page: Page) {
  await page.getByTestId('demo-device').selectOption(jetson);
  await expect(page.getByTestId('demo-engine')).toHaveAttribute('data-engine', 'sim');
  await page.getByTestId('demo-camera').selectOption(CAMERA);
  await expect
    .poll(() => page.getByTestId('demo-video').evaluate((v: HTMLVideoElement) => v.videoWidth), {
      timeout: 20_000,
    })
    .toBeGreaterThan(0);
}

test('NanoOWL: boxes for a typed class, none for an absent one', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, DEMO);
  await navigate(page, '/nanoowl');
  await pickDevice(page);
  const labels = new Set(truthAt(camera, Date.now()).map((o) => o.label));
  expect(labels.has('car')).toBe(true);
  await page.getByTestId('owl-prompt').fill('a car');
  await page.getByTestId('owl-detect').click();
  await expect(page.getByTestId('owl-result')).toHaveAttribute('data-count', /^[1-9]/, { timeout: 10_000 });
  const boxes = JSON.parse((await page.getByTestId('demo-canvas').getAttribute('data-boxes')) ?? '[]') as {
    label: string;
  }[];
  expect(boxes.length).toBeGreaterThan(0);
  expect(boxes.every((b) => b.label.startsWith('a car'))).toBe(true);
  await expectAccessible(page);
  await page.getByTestId('owl-prompt').fill('giraffe');
  await page.getByTestId('owl-detect').click();
  await expect(page.getByTestId('owl-result')).toHaveAttribute('data-count', '0', { timeout: 10_000 });
  await expect(page.getByTestId('demo-canvas')).toHaveAttribute('data-boxes', '[]');
});

test('LLaVA: an empty message is ignored; the streamed answer names the scene objects', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, DEMO);
  await navigate(page, '/llava');
  await pickDevice(page);
  await page.getByTestId('llava-send').click();
  await expect(page.getByTestId('llava-message')).toHaveCount(0);
  await page.getByTestId('llava-input').fill('What do you see?');
  await page.getByTestId('llava-send').click();
  await expect(page.getByTestId('llava-partial')).toBeVisible();
  const answer = page.locator('[data-testid="llava-message"][data-role="assistant"]');
  await expect(answer).toHaveCount(1, { timeout: 20_000 });
  const text = (await answer.textContent()) ?? '';
  const truth = truthAt(camera, Date.now());
  for (const o of truth) expect(text).toContain(`${o.colour} ${o.label}`);
  await expectAccessible(page);
});

test('speed application: speeds of the crossing car equal the truth', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO);
  await navigate(page, '/speed_application');
  await pickDevice(page);
  await page.getByTestId('speed-suggested').click();
  await page.getByTestId('speed-distance').fill('20');
  await page.getByTestId('speed-start').click();
  const crossing = camera.scene.objects.findIndex((o) => o.label === 'car' && o.motion === 'cross');
  expect(crossing).toBeGreaterThanOrEqual(0);
  const track = crossing + 1;
  const row = page.locator(`[data-testid="speed-row"][data-track="${track}"]`).first();
  await expect(row).toBeVisible({ timeout: 60_000 });
  const shown = Number(await row.getAttribute('data-speed'));
  // Truth: the lines are 0.3 of the frame apart; the car's centre moves at trackSpeed px/s.
  const seconds = (0.3 * TRUTH_WIDTH) / trackSpeed(camera.scene, TRUTH_WIDTH, TRUTH_HEIGHT, track);
  const truthKmh = (20 / seconds) * 3.6;
  expect(Math.abs(shown - truthKmh)).toBeLessThanOrEqual(0.5);
  await expect(page.getByTestId('speed-chart')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('speed-stop').click();
});

test('IBB, AI platform and cameras-dev render', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, DEMO);
  await navigate(page, '/ibb');
  await pickDevice(page);
  await page.getByTestId('ibb-start').click();
  await expect(page.getByTestId('ibb-people')).toBeVisible({ timeout: 10_000 });
  await expectAccessible(page);
  await navigate(page, '/ai-platform');
  await expect(page.getByTestId('platform-device').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator(`[data-device="${jetson}"] [data-app="nanoowl"]`)).toHaveAttribute(
    'data-available',
    'true',
    {
      timeout: 30_000,
    },
  );
  await expectAccessible(page);
  await navigate(page, '/control-panel/cameras-dev');
  await expect(page.getByTestId('dev-stats')).toBeVisible();
  await expectAccessible(page);
});
