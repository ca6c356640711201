import { readFileSync } from 'node:fs';
import { test, expect, type Locator, type Page } from './fixtures';
import { demoAppWithCars } from './apps';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, navigate, signIn } from './stack';

/**
 * Analytics dashboards on the real stack (issue 11 "Analytics … clicking a chart filters the dashboard. Export
 * CSV and PNG"; §2 /analytics/dashboard-collections-manager, /analytics/dashboard-collection/{id},
 * /analytics/dashboard/{id}). The data comes the real way: a job started from /jobs on a simulated camera (an
 * application detecting people and cars) with a demographic and a vehicle-plate use case; the device's tracker posts a sighting per person and per car it
 * sees (src/agent/useCases/). Once both classes are recorded the job is stopped (the numbers then hold still).
 * A collection and a dashboard are made on the screens, with two charts: sightings by class (bar) and
 * sightings over time (bar). A click on the class chart's "car" bar filters the dashboard: a chip shows, the
 * class chart keeps its car bar only and the time chart's total drops to the cars' count. The CSV of the class
 * chart is downloaded and read. Axe on each of the three screens.
 */

const BOX_B = 'x86 Edge Box B';

/** The drawn bar (or slice) of `label` on a chart's canvas: its centre in CSS pixels (data-bars). */
async function barOf(chart: Locator, label: string): Promise<{ x: number; y: number }> {
  const canvas = chart.getByTestId('chart-canvas');
  const bars = JSON.parse((await canvas.getAttribute('data-bars')) ?? '[]') as {
    label: string;
    x: number;
    y: number;
  }[];
  const bar = bars.find((b) => b.label === label);
  expect(bar, `a bar for ${label} in ${JSON.stringify(bars)}`).toBeTruthy();
  return bar!;
}

const totalOf = async (chart: Locator) => Number(await chart.getAttribute('data-total'));

async function addChart(page: Page, title: string, groupBy: string) {
  await page.getByTestId('dashboard-add-chart').click();
  await expect(page.getByTestId('chart-editor')).toBeVisible();
  await page.getByTestId('chart-title').fill(title);
  await page.getByTestId('chart-source').selectOption('sightings');
  await page.getByTestId('chart-group-by').selectOption(groupBy);
  await page.getByTestId('chart-type').selectOption('bar');
  await page.getByTestId('chart-save').click();
  await expect(page.getByTestId('chart-editor')).toBeHidden();
}

test('a dashboard of two charts over a job’s sightings filters by a click and exports CSV', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const token = await apiLogin(request, DEMO);
  const stamp = Date.now().toString(36);
  await signIn(page, DEMO);

  // The data, the real way: a job on box B's cam-1 with a demographic and a plate use case.
  const appName = `E2E analytics app ${stamp}`;
  const app = await demoAppWithCars(request, token, appName);
  const job = `E2E analytics job ${stamp}`;
  await navigate(page, '/jobs');
  await expect(page.getByTestId('jobs-screen')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('jobs-add').click();
  await page.getByTestId('job-name').fill(job);
  await page.getByTestId('job-application').selectOption({ label: `${appName} (demo-people-detector v1)` });
  // The form reads the device's cameras over its link; on a loaded machine the first link may not open, so
  // the device is picked again (a new lookup) up to three times.
  for (let attempt = 1; ; attempt++) {
    await page.getByTestId('job-device').selectOption({ label: BOX_B });
    try {
      await expect(page.getByTestId('job-camera')).toBeEnabled({ timeout: 40_000 });
      break;
    } catch (err) {
      if (attempt === 3) throw err;
      await page.getByTestId('job-device').selectOption({ index: 0 });
    }
  }
  await expect(page.getByTestId('job-camera')).toHaveValue('cam-1');
  await page.getByTestId('job-submit').click();
  const jobRow = page.getByTestId(`job-row-${job}`);
  await expect(jobRow).toHaveAttribute('data-state', 'started', { timeout: 90_000 });
  const jobs = (await (await request.get('/api/jobs', { headers: auth(token) })).json()) as {
    jobs: { id: string; job_name: string }[];
  };
  const jobId = jobs.jobs.find((j) => j.job_name === job)?.id;
  expect(jobId).toBeTruthy();
  const useCaseIds: string[] = [];
  for (const kind of ['demographic', 'vehicle-plate']) {
    const res = await request.post('/api/use-cases', {
      headers: auth(token),
      data: { name: `E2E ${kind} ${stamp}`, kind, job_id: jobId },
    });
    expect(res.status()).toBe(200);
    useCaseIds.push((await res.json()).id);
  }
  // Both classes seen (the device syncs its use cases every 5 s and posts what it sees).
  const people = async (id: string, path: 'people' | 'vehicles') => {
    const q =
      path === 'people'
        ? `?from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}&bucket_seconds=60`
        : '';
    const r = await request.get(`/api/use-cases/${id}/${path}${q}`, { headers: auth(token) });
    const body = await r.json();
    return ((path === 'people' ? body.people : body.vehicles) as unknown[]).length;
  };
  await expect
    .poll(
      async () =>
        (await people(useCaseIds[0]!, 'people')) > 0 && (await people(useCaseIds[1]!, 'vehicles')) > 0,
      {
        timeout: 90_000,
        intervals: [2000],
      },
    )
    .toBe(true);
  // Stop the job: the numbers hold still from here on.
  await jobRow.getByTestId('job-stop').click();
  await expect(jobRow).toHaveAttribute('data-state', 'stopped', { timeout: 30_000 });

  // A collection, on the collections manager.
  const collection = `E2E collection ${stamp}`;
  await navigate(page, '/analytics/dashboard-collections-manager');
  await expect(page.getByTestId('collections-screen')).toHaveAttribute('data-state', 'ready');
  await expectAccessible(page);
  await page.getByTestId('collections-add').click();
  await page.getByTestId('collections-name').fill(collection);
  await page.getByTestId('collections-save').click();
  const collectionRow = page.getByTestId(`collections-row-${collection}`);
  await expect(collectionRow).toBeVisible();
  await collectionRow.getByTestId('collections-open').click();

  // A dashboard in it (it opens on its own page).
  await expect(page.getByTestId('dashboards-screen')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByRole('heading', { name: new RegExp(collection) })).toBeVisible();
  await expectAccessible(page);
  const dashboard = `E2E dashboard ${stamp}`;
  await page.getByTestId('dashboards-add').click();
  await page.getByTestId('dashboards-name').fill(dashboard);
  await page.getByTestId('dashboards-save').click();
  await expect(page).toHaveURL(/\/analytics\/dashboard\/[0-9a-f-]{36}$/);
  const screen = page.getByTestId('dashboard-screen');
  await expect(screen).toHaveAttribute('data-state', 'ready');
  await expect(page.getByRole('heading', { name: dashboard })).toBeVisible();

  // Two charts over the last 15 minutes in 1-minute buckets.
  await page.getByTestId('dashboard-range').selectOption('15m');
  await page.getByTestId('dashboard-bucket').selectOption('60');
  await addChart(page, 'Seen by class', 'class');
  await addChart(page, 'Seen per minute', 'time');
  await expect(screen).toHaveAttribute('data-save', 'idle');
  const byClass = page.getByTestId('chart-c1');
  const perMinute = page.getByTestId('chart-c2');
  await expect(screen).toHaveAttribute('data-fetching', 'false');
  // person and car (and whatever else the scene's tracker recorded)
  await expect(byClass).toHaveAttribute('data-rows', /^([2-9]|\d\d+)$/);
  await expect(perMinute).toHaveAttribute('data-rows', '15');
  const all = await totalOf(perMinute);
  expect(await totalOf(byClass)).toBe(all);
  expect(all).toBeGreaterThan(1);
  await expectAccessible(page);

  // The layout and charts were saved: a reload shows the same two charts.
  await page.reload();
  await expect(page.getByTestId('dashboard-screen')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('chart-c1')).toBeVisible();
  await expect(page.getByTestId('chart-c2')).toBeVisible();
  await page.getByTestId('dashboard-range').selectOption('15m');
  await expect(page.getByTestId('dashboard-screen')).toHaveAttribute('data-fetching', 'false');
  await expect(byClass).toHaveAttribute('data-total', String(all));

  // Click the "car" bar: the whole dashboard is filtered by class = car.
  const car = await barOf(byClass, 'car');
  await byClass.getByTestId('chart-canvas').click({ position: car });
  const chip = page.getByTestId('filter-chip-class');
  await expect(chip).toContainText('car');
  await expect(page.getByTestId('dashboard-screen')).toHaveAttribute('data-fetching', 'false');
  await expect(byClass).toHaveAttribute('data-active', 'car');
  await expect(byClass).toHaveAttribute('data-rows', '1');
  const cars = await totalOf(byClass);
  expect(cars).toBeGreaterThan(0);
  await expect(perMinute).toHaveAttribute('data-total', String(cars));
  expect(cars).toBeLessThan(all);

  // CSV of the class chart (filtered: one row).
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    byClass.getByTestId('chart-csv').click(),
  ]);
  expect(download.suggestedFilename()).toBe('Seen-by-class.csv');
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv).toBe(`class,count\r\ncar,${cars}\r\n`);
  const [png] = await Promise.all([page.waitForEvent('download'), byClass.getByTestId('chart-png').click()]);
  expect(png.suggestedFilename()).toBe('Seen-by-class.png');
  expect(
    readFileSync((await png.path())!)
      .subarray(1, 4)
      .toString(),
  ).toBe('PNG');

  // Removing the chip shows everything again.
  await chip.click();
  await expect(chip).toHaveCount(0);
  await expect(perMinute).toHaveAttribute('data-total', String(all));

  // Clean up: the job, its use cases (with their records) and the collection.
  for (const id of useCaseIds) await request.delete(`/api/use-cases/${id}`, { headers: auth(token) });
  await request.delete(`/api/jobs/${jobId}`, { headers: auth(token) });
  await request.delete(`/api/applications/${app.id}`, { headers: auth(token) });
  const list = (await (await request.get('/api/analytics/collections', { headers: auth(token) })).json()) as {
    collections: { id: string; name: string }[];
  };
  const own = list.collections.find((c) => c.name === collection);
  if (own) await request.delete(`/api/analytics/collections/${own.id}`, { headers: auth(token) });
});
