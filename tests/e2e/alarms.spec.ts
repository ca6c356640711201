import { test, expect, type APIRequestContext } from './fixtures';
import { boxBCam1, startAlarmJob } from './alarmJob';
import { expectAccessible } from './axe';
import { DEMO, auth, navigate, signIn } from './stack';

/**
 * Alarms and events on the real stack (issue 11 "Done when": an alarm with a zone and a calendar fires on a
 * simulated camera, outside its calendar it does not fire, the event shows its snapshot and is marked
 * reviewed). An alarm is made on /alarms (cameras, class, a zone drawn with the mouse, a calendar active now);
 * a second alarm on the same camera has a calendar that is not active now. A job started from /jobs sends the
 * device its alarms (alarm-new, §4 step 1); the device matches the scene's people and posts events with
 * snapshots. /events shows the first alarm's event with its snapshot and marks it reviewed; the second alarm
 * has no event. /alarm-dashboard counts it. Axe on every screen.
 */

async function calendar(request: APIRequestContext, token: string, name: string, weekdays: number[]) {
  const res = await request.post('/api/schedulers/calendars', {
    headers: auth(token),
    data: {
      name,
      time_zone: 'UTC',
      intervals: weekdays.map((weekday) => ({ weekday, start: '00:00', end: '24:00' })),
      job_ids: [],
    },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as { id: string; name: string };
}

test('an alarm with a zone and a calendar fires on a simulated camera; outside its calendar it does not', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const { token, cam, source } = await boxBCam1(request);
  const stamp = Date.now();
  const alwaysCal = await calendar(request, token, `E2E always ${stamp}`, [0, 1, 2, 3, 4, 5, 6]);
  const today = new Date().getUTCDay();
  const otherDay = await calendar(request, token, `E2E not today ${stamp}`, [(today + 3) % 7]);
  const name = `E2E lobby ${stamp}`;
  const quiet = `E2E quiet ${stamp}`;

  // The second alarm (same camera, not active now) through the REST call.
  const q = await request.post('/api/alarms', {
    headers: auth(token),
    data: {
      name: quiet,
      sources: [source],
      classes: ['person'],
      calendar_ids: [otherDay.id],
      cooldown_seconds: 1,
    },
  });
  expect(q.status()).toBe(200);
  const quietId = (await q.json()).id as string;

  await signIn(page, DEMO);
  await navigate(page, '/alarms');
  await expect(page.getByTestId('alarms-screen')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId(`alarm-row-${quiet}`)).toHaveAttribute('data-active', 'false');
  await page.getByTestId('alarms-add').click();
  await expect(page.getByTestId('alarm-editor')).toBeVisible();
  await page.getByTestId('alarm-name').fill(name);
  await page.getByTestId('alarm-cameras').click();
  await page.getByRole('option', { name: `${cam.label} (${cam.device_id})` }).click();
  await page.keyboard.press('Escape');
  await page.getByTestId('alarm-classes').fill('person');
  await page.keyboard.press('Enter');
  // The still of the camera arrives from the device; then a zone is drawn: most of the frame below the top.
  await expect(page.getByTestId('alarm-still')).toHaveAttribute('data-state', /ready|failed/, {
    timeout: 30_000,
  });
  await expect(page.getByTestId('alarm-still')).toHaveAttribute('data-state', 'ready');
  const canvas = page.getByTestId('zone-canvas');
  const box = (await canvas.boundingBox())!;
  for (const [x, y] of [
    [0.01, 0.15],
    [0.99, 0.15],
    [0.99, 0.99],
    [0.01, 0.99],
  ] as const)
    await canvas.click({ position: { x: x * box.width, y: y * box.height } });
  // One more point with the keyboard, then removed again with Backspace.
  await canvas.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Backspace');
  await page.getByTestId('zone-close').click();
  await expect(page.getByTestId('zone-count')).toContainText('1');
  await page.getByTestId('alarm-cooldown').fill('2');
  await page.getByTestId('alarm-severity').click();
  await page.getByRole('option', { name: 'Critical' }).click();
  // The field (the pills box around the input) takes the click, as a user's would.
  await page.locator('.mantine-MultiSelect-input', { has: page.getByTestId('alarm-calendars') }).click();
  await page.getByRole('option', { name: alwaysCal.name }).click();
  await page.keyboard.press('Escape');
  await expectAccessible(page, '[role="dialog"]');
  await page.getByTestId('alarm-save').click();
  await expect(page.getByTestId('alarm-editor')).toBeHidden({ timeout: 15_000 });
  const row = page.getByTestId(`alarm-row-${name}`);
  await expect(row).toHaveAttribute('data-active', 'true');
  await expectAccessible(page, '[data-testid="alarms-screen"]');
  const saved = (
    (await (await request.get('/api/alarms', { headers: auth(token) })).json()).alarms as {
      id: string;
      name: string;
      zones: number[][][];
      calendar_ids: string[];
      severity: string;
    }[]
  ).find((a) => a.name === name)!;
  expect(saved).toMatchObject({ calendar_ids: [alwaysCal.id], severity: 'critical' });
  expect(saved.zones).toHaveLength(1);
  expect(saved.zones[0]).toHaveLength(4);

  // A job on that camera: its start sends the device the alarms (alarm-new).
  const job = `E2E alarm job ${stamp}`;
  const jobRow = await startAlarmJob(page, job);

  // The event appears on /events with its snapshot.
  await navigate(page, '/events');
  await expect(page.getByTestId('events-screen')).toBeVisible({ timeout: 30_000 });
  // The alarm keeps firing while the job runs (a cooldown per tracked person), and a snapshot follows its event
  // by the time the device encodes and uploads it: look for one of this alarm's events that has its picture.
  const withPicture = page
    .getByTestId('event-row')
    .filter({ hasText: name })
    .filter({ has: page.locator('img') })
    .first();
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(withPicture).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  const eventId = (await withPicture.getAttribute('data-id'))!;
  const eventRow = page.locator(`[data-testid="event-row"][data-id="${eventId}"]`);
  await expect(eventRow).toContainText(name);
  await expectAccessible(page, '[data-testid="events-screen"]');
  await eventRow.getByTestId('event-open').click();
  const viewer = page.getByTestId('event-viewer');
  await expect(viewer).toHaveAttribute('data-reviewed', 'false');
  const snap = page.getByTestId('event-snapshot');
  await expect(snap).toBeVisible();
  await expect.poll(() => snap.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  await expectAccessible(page, '[role="dialog"]');
  await page.getByTestId('event-review').click();
  await expect(viewer).toHaveAttribute('data-reviewed', 'true');

  // The server has it reviewed, critical, a person in the zone; the quiet alarm has none.
  const ev = await (await request.get(`/api/events/${eventId}`, { headers: auth(token) })).json();
  expect(ev).toMatchObject({ alarm_name: name, class: 'person', severity: 'critical', reviewed: true });
  expect(ev.box.y + ev.box.h).toBeGreaterThanOrEqual(0.15);
  const quietEvents = await (
    await request.get(`/api/events?alarm_id=${quietId}`, { headers: auth(token) })
  ).json();
  expect(quietEvents.events).toEqual([]);

  // The dashboard counts it.
  await page.keyboard.press('Escape');
  await navigate(page, '/alarm-dashboard');
  await expect(page.getByTestId(`dashboard-alarm-${name}`)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('dashboard-severity-critical')).not.toContainText(/^Critical0$/);
  await expectAccessible(page, '[data-testid="alarm-dashboard"]');

  // Clean up: stop and delete the job, delete the alarms and calendars.
  await navigate(page, '/jobs');
  await jobRow.getByTestId('job-stop').click();
  await expect(jobRow).toHaveAttribute('data-state', 'stopped', { timeout: 30_000 });
  await jobRow.getByTestId('job-delete').click();
  await page.getByTestId('jobs-confirm-delete').click();
  await expect(jobRow).toHaveCount(0);
  for (const a of [saved.id, quietId])
    expect((await request.delete(`/api/alarms/${a}`, { headers: auth(token) })).status()).toBe(200);
  for (const c of [alwaysCal.id, otherDay.id])
    await request.delete(`/api/schedulers/calendars/${c}`, { headers: auth(token) });
});
