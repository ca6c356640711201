import { test, expect, type Page } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, connectDevices, listDevices, navigate, signIn, waitAllOnline } from './stack';

/**
 * Metrics on the real stack (issue 16 §1 "Metrics"; §7 get-metrics-info, change-save-metrics-info,
 * get-usages): a sim device's history (24 h backfilled at 1 s by its agent), the link's progress chunks and
 * the console's metrics machines, all real. The Metrics tab draws every chart for 24 h, changes range, appends
 * live values, and saves the history settings, read back after a reload; axe on each state.
 */
let boxB = '';

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  boxB = (await listDevices(request, token)).res.find((d) => d.label === 'x86 Edge Box B')!.device_id;
});

const drawn = (page: Page, key: string) => page.locator(`[data-testid="metrics-chart-${key}"] [data-drawn]`);

test('device page Metrics tab: 24 h charts, range change, live values, settings saved and read back', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO);
  await connectDevices(page, [boxB]);
  await navigate(page, `/control-panel/devices?device=${boxB}&tab=metrics&range=24h`);
  const tab = page.getByTestId('metrics-tab');
  await expect(tab).toHaveAttribute('data-status', 'ready');
  await expect(tab).toHaveAttribute('data-range', '24h');

  // Every chart of an x86 sim box (one GPU), drawn with a day of buckets.
  for (const key of ['cpu', 'memory', 'gpu0-util', 'gpu0-memory', 'temperature']) {
    await expect(drawn(page, key)).toHaveCount(1);
    const points = Number(await page.getByTestId(`metrics-chart-${key}`).getAttribute('data-points'));
    expect(points).toBeGreaterThanOrEqual(1_000);
    await expect(page.getByTestId(`metrics-chart-${key}-summary`)).toContainText(
      /Now .*, lowest .*, highest /,
    );
  }
  await expect(page.getByRole('img', { name: /^CPU \(%\), Last 24 hours/ })).toBeVisible();
  expect(
    Number((await page.getByTestId('metrics-samples').textContent())!.replace(/\D/g, '')),
  ).toBeGreaterThan(80_000);
  await expect(page.getByTestId('metrics-score')).toContainText('Device score');
  await expectAccessible(page);

  // Live values are appended after the history.
  const cpu = page.getByTestId('metrics-chart-cpu');
  const before = Number(await cpu.getAttribute('data-points'));
  await expect.poll(async () => Number(await cpu.getAttribute('data-points'))).toBeGreaterThan(before);
  await page.getByTestId('metrics-live').click({ force: true });
  await expect(page.getByTestId('metrics-live')).not.toBeChecked();

  // Range change: the last hour.
  await page.getByTestId('metrics-range').getByText('Last hour').click();
  await expect(tab).toHaveAttribute('data-range', '1h');
  await expect(tab).toHaveAttribute('data-status', 'ready');
  await expect(page).toHaveURL(/range=1h/);
  await expect(page.getByRole('img', { name: /^CPU \(%\), Last hour/ })).toBeVisible();
  await expect(drawn(page, 'cpu')).toHaveCount(1);

  // Settings: refused in the form when too long for 1 s samples, then saved and read back.
  const interval = page.getByTestId('metrics-interval');
  const retention = page.getByTestId('metrics-retention');
  await expect(interval).toHaveValue('1');
  await expect(retention).toHaveValue('24');
  await retention.fill('72');
  await page.getByTestId('metrics-settings-submit').click();
  await expect(page.getByTestId('metrics-settings-status')).toHaveAttribute('data-status', 'invalid');
  await expect(page.getByText('A history keeps at most 172,800 samples')).toBeVisible();
  await expectAccessible(page);
  await interval.fill('2');
  await retention.fill('48');
  await page.getByTestId('metrics-settings-submit').click();
  await expect(page.getByTestId('metrics-settings-status')).toHaveAttribute('data-status', 'saved');

  await page.reload();
  await connectDevices(page, [boxB]);
  await navigate(page, `/control-panel/devices?device=${boxB}&tab=metrics`);
  await expect(page.getByTestId('metrics-tab')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(page.getByTestId('metrics-interval')).toHaveValue('2');
  await expect(page.getByTestId('metrics-retention')).toHaveValue('48');

  // Back to the defaults, so a rerun starts alike.
  await page.getByTestId('metrics-interval').fill('1');
  await page.getByTestId('metrics-retention').fill('24');
  await page.getByTestId('metrics-settings-submit').click();
  await expect(page.getByTestId('metrics-settings-status')).toHaveAttribute('data-status', 'saved');
});
