import { test, expect, type Page } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, listDevices, navigate, resetLayout, signIn } from './stack';

/**
 * Schedulers on the real stack (issue 10 "`/schedulers` (calendars; `scheduling-calendar-operation`; jobs
 * that start and stop on schedule)"; §4 step 4 "A scheduled job is started directly"): a calendar made on
 * /schedulers (a time picked with day/from/to, another dragged on the week grid, the browser's zone by
 * default) with a job assigned is sent to the device, which answers its timer armed for the next start. The
 * device's own timer then starts the job — no console start, no peer connection for it — the job becomes
 * `started` on /jobs and its detections are drawn on the camera page; at the interval's end the device stops
 * it and /jobs shows it `stopped`. The calendar is then deleted.
 */

const BOX_B = 'x86 Edge Box B';

/** The browser's wall clock in its own zone: weekday (0 Sunday), minute of the day, second, zone. */
async function browserClock(page: Page) {
  return page.evaluate(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(new Date());
    const get = (t: string) => parts.find((p) => p.type === t)!.value;
    return {
      zone,
      weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday')),
      minute: Number(get('hour')) * 60 + Number(get('minute')),
      second: Number(get('second')),
    };
  });
}

const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** Clicks /jobs' Refresh until the job's row shows `state`. */
async function jobState(page: Page, name: string, state: string, timeout: number) {
  const row = page.getByTestId(`job-row-${name}`);
  await expect(async () => {
    await page.getByTestId('jobs-screen').getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect(row).toHaveAttribute('data-state', state, { timeout: 2_000 });
  }).toPass({ timeout, intervals: [1_000, 2_000] });
}

test('a calendar starts its job by the device’s own timer and stops it at the end', async ({
  page,
  request,
}) => {
  test.setTimeout(540_000);
  const token = await apiLogin(request, DEMO);
  await resetLayout(request, token);
  const boxB = (await listDevices(request, token)).res.find((d) => d.label === BOX_B)!;
  expect(boxB).toBeTruthy();
  const apps = (
    await (await request.post('/api/applications', { headers: auth(token), data: { pages: -1 } })).json()
  ).app as { id: string; name: string }[];
  const app = apps.find((a) => a.name.startsWith('Lobby people counter'))!;
  expect(app).toBeTruthy();
  const stamp = Date.now();
  const jobName = `E2E scheduled ${stamp}`;
  const calName = `E2E calendar ${stamp}`;
  const created = await request.post('/api/jobs', {
    headers: auth(token),
    data: { job_name: jobName, application_id: app.id, device_id: boxB.device_id, camera_id: 'cam-1' },
  });
  expect(created.status()).toBe(200);
  const jobId = (await created.json()).id as string;

  await signIn(page, DEMO);
  await navigate(page, '/schedulers');
  await expect(page.getByTestId('schedulers-screen')).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page, '[data-testid="schedulers-screen"]');

  const zone = (await browserClock(page)).zone;
  await page.getByTestId('schedulers-add').click();
  const form = page.getByTestId('calendar-form');
  await expect(form).toBeVisible();
  // The zone picker starts on the browser's zone.
  await expect(page.getByTestId('calendar-zone')).toHaveValue(zone);
  await page.getByTestId('calendar-name').fill(calName);
  // A time dragged on the grid, on another day: 02:00–04:00.
  const other = ((await browserClock(page)).weekday + 3) % 7;
  const from = page.getByTestId(`week-cell-${other}-2`);
  const to = page.getByTestId(`week-cell-${other}-3`);
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByTestId(`interval-${other}-02:00`)).toContainText('02:00–04:00');
  await expect(page.getByTestId(`week-cell-${other}-3`)).toHaveAttribute('data-on', 'true');
  await page.getByTestId(`calendar-job-${jobName}`).check();
  await expectAccessible(page, '[role="dialog"]');
  // Today's time by the keyboard's way (day, from, to, Add), picked last: two minutes long, starting one to
  // two minutes from now (time enough to save on a busy machine), clear of midnight.
  let clock = await browserClock(page);
  while (clock.second > 50 || clock.minute >= 23 * 60 + 55) {
    await page.waitForTimeout(5_000);
    clock = await browserClock(page);
  }
  const start = clock.minute + 2;
  await page.getByTestId('interval-day').selectOption(String(clock.weekday));
  await page.getByTestId('interval-from').fill(hhmm(start));
  await page.getByTestId('interval-to').fill(hhmm(start + 2));
  await page.getByTestId('interval-add').click();
  await expect(page.getByTestId(`interval-${clock.weekday}-${hhmm(start)}`)).toContainText(
    `${hhmm(start)}–${hhmm(start + 2)}`,
  );
  await page.getByTestId('calendar-save').click();

  // Saved and sent: the device holds it with its timer armed for the start.
  const status = page.getByTestId('calendar-status');
  await expect(status).toHaveAttribute('data-state', 'synced', { timeout: 30_000 });
  const result = page.getByTestId(`calendar-result-${boxB.device_id}`);
  await expect(result).toHaveAttribute('data-armed', 'true');
  await expect(result).toContainText(`starts`);
  await expect(result).toContainText(zone);
  await page.getByTestId('calendar-close').click();
  await expect(form).toBeHidden();

  const row = page.getByTestId(`calendar-row-${calName}`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('calendar-next')).toContainText(`starts`);
  await expect(row.getByTestId('calendar-next')).toContainText(`${hhmm(start)} ${zone}`);
  await expect(row.getByTestId(`calendar-device-${boxB.device_id}`)).toHaveAttribute('data-armed', 'true');
  await expect(row.getByTestId(`calendar-job-row-${jobName}`)).toContainText(`${hhmm(start)} ${zone}`);
  await expectAccessible(page, '[data-testid="schedulers-screen"]');

  // Nobody starts it: the device's timer does, at the start minute.
  await navigate(page, '/jobs');
  await expect(page.getByTestId('jobs-screen')).toBeVisible();
  await expect(page.getByTestId(`job-row-${jobName}`)).toHaveAttribute('data-state', 'created');
  await jobState(page, jobName, 'started', 150_000);
  const jobs = (await (await request.get('/api/jobs', { headers: auth(token) })).json()).jobs;
  const saved = jobs.find((j: { id: string }) => j.id === jobId);
  expect(saved.runtime.jobId).toBe(jobId);
  expect(saved.runtime.port).toBeGreaterThanOrEqual(8554);
  expect(saved.runtime.message).toMatch(/scheduled/);

  // Its detections are drawn over the camera's video.
  await page.getByTestId(`job-row-${jobName}`).getByTestId('job-view').click();
  await expect(page).toHaveURL(/\/control-panel\/cameras/);
  const cell = page
    .locator('[data-testid^="stream-cell-"]')
    .filter({ has: page.getByTestId('inference-canvas') });
  await expect(cell).toHaveCount(1, { timeout: 20_000 });
  await expect(cell.getByTestId('inference-status')).toContainText(/objects/, { timeout: 45_000 });

  // At the interval's end the device stops it.
  await navigate(page, '/jobs');
  await jobState(page, jobName, 'stopped', 180_000);

  // Delete the calendar (the device forgets it too), then the job.
  await navigate(page, '/schedulers');
  await page.getByRole('button', { name: `Delete ${calName}` }).click();
  await expect(page.getByTestId('schedulers-confirm')).toBeVisible();
  await page.getByTestId('schedulers-confirm').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId(`calendar-row-${calName}`)).toHaveCount(0);
  expect((await request.delete(`/api/jobs/${jobId}`, { headers: auth(token) })).status()).toBe(200);
});
