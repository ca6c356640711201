import { test, expect } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, connectDevices, listDevices, navigate, signIn, waitAllOnline } from './stack';

/**
 * /control-panel/engines on the real stack (issue 10 "Engines"; §3 inferenceEngines; §5 "GPU Driver check is
 * just for x86 devices."; §7 check-inference-engine-exist, get-gpu-driver-version, download-docker-image; §9
 * device score): the three simulated devices connected over real WebRTC links show their engines, the §9
 * scores from their live usage with the lowest one marked as chosen, the §5 text for the Jetson and the
 * simulated driver for an x86 box, and the DeepStream image downloaded on Box B with progress until ready.
 * axe in each state.
 */
const ids: Record<string, string> = {};

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  for (const d of (await listDevices(request, token)).res) ids[d.label] = d.device_id;
});

test('/control-panel/engines: engines per device, the score-chosen device, the §5 text, an image download', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const jetson = ids['Jetson Orin Gate']!;
  const boxA = ids['x86 Edge Box A']!;
  const boxB = ids['x86 Edge Box B']!;

  await signIn(page, DEMO);
  await navigate(page, '/control-panel/engines');
  await expect(page.getByTestId('engines-screen')).toBeVisible();
  await expect(page.getByTestId('engines-no-device')).toBeVisible();
  await expectAccessible(page);

  await connectDevices(page, [jetson, boxA, boxB]);
  await navigate(page, '/control-panel/engines');
  for (const id of [jetson, boxA, boxB]) {
    await expect(page.getByTestId(`engines-row-${id}-sim`)).toHaveAttribute('data-state', 'ready');
    await expect(page.getByTestId(`engines-row-${id}-deepstream`)).toBeVisible();
  }

  // §5: the Jetson is not asked; an x86 box answers its (simulated) driver.
  await expect(page.getByTestId(`engines-driver-${jetson}`)).toContainText(
    'GPU Driver check is just for x86 devices.',
  );
  await expect(page.getByTestId(`engines-driver-${boxA}`)).toContainText('550.54.15');

  // §9: every device gets a score from get-usages; the lowest is chosen and its card is marked.
  const scores = page.getByTestId('engines-scores');
  for (const id of [jetson, boxA, boxB]) {
    await expect(page.getByTestId(`engines-score-${id}`)).not.toContainText('not read yet', {
      timeout: 20_000,
    });
  }
  const table = await scores.locator('tbody tr').evaluateAll((rows) =>
    rows.map((r) => ({
      id: (r.getAttribute('data-testid') ?? '').replace('engines-score-', ''),
      score: Number(r.querySelectorAll('td')[1]?.textContent),
      chosen: r.getAttribute('data-chosen') === 'true',
    })),
  );
  expect(table).toHaveLength(3);
  for (const row of table) expect(row.score).toBeGreaterThanOrEqual(0);
  const chosen = table.filter((r) => r.chosen);
  expect(chosen).toHaveLength(1);
  expect(chosen[0]!.score).toBe(Math.min(...table.map((r) => r.score)));
  await expect(page.locator('[data-testid^="engines-device-"][data-chosen="true"]')).toHaveCount(1);
  await expect(page.getByTestId(`engines-chosen-${chosen[0]!.id}`)).toBeVisible();
  await expectAccessible(page);

  // The DeepStream image on Box B: not installed → download with progress → ready.
  const row = page.getByTestId(`engines-row-${boxB}-deepstream`);
  await expect(row).toHaveAttribute('data-state', 'not_installed');
  await page.getByTestId(`engines-download-${boxB}-deepstream`).click();
  await expect(row).toHaveAttribute('data-state', 'downloading');
  const progress = page.getByTestId(`engines-progress-${boxB}`).getByRole('progressbar');
  await expect(progress).toBeVisible();
  await expect
    .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await expectAccessible(page);
  await expect(row).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(row).toContainText('7.1');
  await expect(page.getByTestId(`engines-row-${boxA}-deepstream`)).toHaveAttribute(
    'data-state',
    'not_installed',
  );

  // Logs and restart are the device page's: linked, not rebuilt.
  await page
    .getByTestId(`engines-device-${boxB}`)
    .getByRole('link', { name: 'Settings and engine restart' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/control-panel/devices\\?device=${boxB}&tab=settings`));
});
