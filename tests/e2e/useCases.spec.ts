import { test, expect, type Page } from './fixtures';
import { createScene, hashSeed, type SceneAttributes } from '../../src/agent/backends/sim/scene';
import { countCrossings, lineCrossings, objectsSeen } from '../../src/agent/backends/sim/sceneTruth';
import type { CountingLine, UseCase } from '../../src/protocol/analytics';
import { demoAppWithCars } from './apps';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, listDevices, navigate, signIn } from './stack';

/**
 * The use cases on the real stack (issue 11 "Done when": "a person-counter dashboard shows the scene's true
 * counts"). A job on box B's simulated cam-1 runs an application detecting people and cars; a person counter
 * (its line drawn with the mouse on the camera's still), a demographic and a plate use case are started on it
 * from their screens. The device counts from the job's detections and posts the records. The truth is computed
 * here from the same scene functions the simulated camera draws from (seeded by the camera's unique_id): the
 * line's crossings, the people and the vehicles first seen in a period chosen after the device has picked the
 * use cases up, its ends away from any crossing or arrival (so a frame's timing cannot move one across an
 * end). The analytics page shows exactly the true in/out counts for that period, the demographic page exactly
 * the true people per age band and gender, the plate page every true plate (and finds one by search). Axe on
 * the four screens.
 */

const BOX_B = 'x86 Edge Box B';
/** Frame size the truth is computed at (fractions of the frame; the pixel grid moves a crossing by ms only). */
const W = 640;
const H = 480;
/** No crossing or arrival within this of a period's end, ms (frames, inference and the sync jitter). */
const MARGIN_MS = 1_000;
const PERIOD_MS = 40_000;

/** The first instant ≥ t with no event within MARGIN_MS. */
function quietAt(t: number, events: number[]): number {
  let at = t;
  for (;;) {
    const near = events.find((e) => Math.abs(e - at) < MARGIN_MS);
    if (near === undefined) return at;
    at = near + MARGIN_MS;
  }
}

async function startUseCase(page: Page, jobName: string, name: string) {
  await expect(page.getByTestId('uc-form')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('uc-name').fill(name);
  await page.getByTestId('uc-device').selectOption({ label: BOX_B });
  await page.getByTestId('uc-camera').selectOption('cam-1');
  await page.getByTestId('uc-job').selectOption({ label: jobName });
}

test('a person counter shows the scene’s true counts; demographic and plates show the true people and vehicles', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const token = await apiLogin(request, DEMO);
  const boxB = (await listDevices(request, token)).res.find((d) => d.label === BOX_B)!;
  expect(boxB).toBeTruthy();
  type Cam = { uniqueCameraId: string; camera_id: string; device_id: string };
  let cam: Cam | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/physical-cameras', { headers: auth(token) });
        cam = ((await res.json()).data.data as Cam[]).find(
          (c) => c.device_id === boxB.device_id && c.camera_id === 'cam-1',
        );
        return cam?.camera_id;
      },
      { timeout: 60_000 },
    )
    .toBe('cam-1');
  // SimCamera seeds its scene from its unique_id, `sim-<device_id>-cam-<n>` (the server's uniqueCameraId is its own).
  const scene = createScene(hashSeed(`sim-${boxB.device_id}-cam-1`));
  const stamp = Date.now();
  const appName = `E2E use cases ${stamp}`;
  const app = await demoAppWithCars(request, token, appName);
  const jobName = `E2E use-case job ${stamp}`;

  // A job on box B's cam-1 detecting people and cars.
  await signIn(page, DEMO);
  await navigate(page, '/jobs');
  await expect(page.getByTestId('jobs-screen')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('jobs-add').click();
  await page.getByTestId('job-name').fill(jobName);
  await page.getByTestId('job-application').selectOption({ label: `${appName} (demo-people-detector v1)` });
  await page.getByTestId('job-device').selectOption({ label: BOX_B });
  await expect(page.getByTestId('job-camera')).toBeEnabled({ timeout: 45_000 });
  await expect(page.getByTestId('job-camera')).toHaveValue('cam-1');
  await page.getByTestId('job-submit').click();
  const jobRow = page.getByTestId(`job-row-${jobName}`);
  await expect(jobRow).toHaveAttribute('data-state', 'started', { timeout: 90_000 });

  // The person counter: the line drawn top to bottom with the mouse on the camera's still.
  const counterName = `E2E counter ${stamp}`;
  await navigate(page, '/use-cases/person-counter');
  await expect(page.getByTestId('counter-screen')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
  if (!(await page.getByTestId('uc-form').isVisible())) await page.getByTestId('uc-new').click();
  await startUseCase(page, jobName, counterName);
  await expect(page.getByTestId('line-still')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  const canvas = page.getByTestId('line-canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.03);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5, { steps: 5 });
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.97, { steps: 5 });
  await page.mouse.up();
  const drawn = {
    x1: Number(await page.getByTestId('line-x1').inputValue()),
    y1: Number(await page.getByTestId('line-y1').inputValue()),
    x2: Number(await page.getByTestId('line-x2').inputValue()),
    y2: Number(await page.getByTestId('line-y2').inputValue()),
  };
  expect(drawn.x1).toBeCloseTo(0.5, 1);
  expect(drawn.y1).toBeLessThan(0.1);
  expect(drawn.y2).toBeGreaterThan(0.9);
  // The keyboard way: B's y typed.
  await page.getByTestId('line-y2').fill('0.99');
  await page.getByTestId('line-y2').blur();
  await expectAccessible(page, '[data-testid="counter-screen"]');
  await page.getByTestId('uc-start').click();
  await expect(page.getByTestId('counter-live')).toBeVisible({ timeout: 30_000 });
  const list = async () =>
    (await (await request.get('/api/use-cases', { headers: auth(token) })).json()).use_cases as UseCase[];
  const counter = (await list()).find((u) => u.name === counterName)!;
  expect(counter.line).toEqual({ ...drawn, y2: 0.99 });
  const line = counter.line as CountingLine;

  // The demographic and plate use cases on the same job, from their screens.
  const demoName = `E2E demographic ${stamp}`;
  await navigate(page, '/use-cases/demographic');
  await expect(page.getByTestId('demographic-screen')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
  if (!(await page.getByTestId('uc-form').isVisible())) await page.getByTestId('uc-new').click();
  await startUseCase(page, jobName, demoName);
  await page.getByTestId('uc-start').click();
  await expect(page.getByTestId('uc-select')).toHaveValue(/.+/);
  const plateName = `E2E plates ${stamp}`;
  await navigate(page, '/use-cases/vehicle-plate-detection');
  await expect(page.getByTestId('plates-screen')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  if (!(await page.getByTestId('uc-form').isVisible())) await page.getByTestId('uc-new').click();
  await startUseCase(page, jobName, plateName);
  await page.getByTestId('uc-start').click();
  await expect(page.getByTestId('plates-table')).toBeVisible({ timeout: 30_000 });
  const all = await list();
  const demographic = all.find((u) => u.name === demoName)!;
  const plates = all.find((u) => u.name === plateName)!;
  expect(demographic.kind).toBe('demographic');
  expect(plates.kind).toBe('vehicle-plate');

  // The period: starting once the device has surely synced the three (every 5 s), its ends quiet.
  const created = Date.parse(plates.created_at);
  const horizon = [created - 30_000, created + 15_000 + PERIOD_MS + 30_000] as const;
  const crossings = lineCrossings(scene, W, H, line, horizon[0], horizon[1], { labels: ['person'] });
  const seen = objectsSeen(scene, W, H, horizon[0], horizon[1], { stepMs: 10 });
  const arrivals = seen.filter((s) => s.firstMs > horizon[0]).map((s) => s.firstMs);
  const events = [...crossings.map((c) => c.timeMs), ...arrivals].sort((a, b) => a - b);
  const from = quietAt(created + 12_000, events);
  const to = quietAt(from + PERIOD_MS, events);
  const trueCounts = countCrossings(crossings.filter((c) => c.timeMs >= from && c.timeMs < to));
  expect(trueCounts.in + trueCounts.out).toBeGreaterThan(0);
  const arrived = seen.filter((s) => s.firstMs > horizon[0] && s.firstMs >= from && s.firstMs < to);
  const people = new Map<string, SceneAttributes>();
  for (const s of arrived)
    if (s.label === 'person' && s.attributes && 'identity' in s.attributes)
      people.set(s.attributes.identity, s.attributes);
  const truePlates = arrived
    .filter((s) => s.label === 'car' && s.attributes && 'plate' in s.attributes)
    .map((s) => (s.attributes as { plate: string }).plate);
  expect(people.size).toBeGreaterThan(0);
  expect(truePlates.length).toBeGreaterThan(0);
  // The device posts every second; wait past the period's end.
  await page.waitForTimeout(Math.max(0, to + 4_000 - Date.now()));

  // What the server holds, second by second, next to the truth (printed: a difference says which crossing).
  const fine = await request.get(
    `/api/use-cases/${counter.id}/counts?from=${new Date(from - 5_000).toISOString()}&to=${new Date(to + 5_000).toISOString()}&bucket_seconds=1`,
    { headers: auth(token) },
  );
  const held = ((await fine.json()).buckets as { start: string; in: number; out: number }[])
    .filter((b) => b.in + b.out > 0)
    .map((b) => `${Date.parse(b.start) - from}ms in ${b.in} out ${b.out}`);
  const truth = crossings
    .filter((c) => c.timeMs >= from - 5_000 && c.timeMs < to + 5_000)
    .map((c) => `${c.timeMs - from}ms ${c.direction} track ${c.track} pass ${c.pass}`);
  console.log(`period ${to - from} ms; server: ${held.join('; ')}\ntruth: ${truth.join('; ')}`);

  // The analytics page for that period shows the true counts.
  const period = `from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}&bucket=60`;
  await navigate(page, `/use-cases/person-counter/analytics?use_case=${counter.id}&${period}`);
  await expect(page.getByTestId('analytics-screen')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('analytics-in')).toHaveText(String(trueCounts.in), { timeout: 20_000 });
  await expect(page.getByTestId('analytics-out')).toHaveText(String(trueCounts.out));
  await expect(page.getByTestId('analytics-net')).toHaveText(String(trueCounts.in - trueCounts.out));
  await expect(page.getByTestId('analytics-chart')).toHaveAttribute('data-points', /^[1-9]/);
  const download = page.waitForEvent('download');
  await page.getByTestId('analytics-csv').click();
  const csv = await (await download).createReadStream();
  let text = '';
  for await (const chunk of csv) text += String(chunk);
  expect(text.split('\r\n')[0]).toBe('use_case,bucket_start,bucket_end,in,out');
  expect(text).toContain(`,total,,${trueCounts.in},${trueCounts.out}`);
  await expectAccessible(page, '[data-testid="analytics-screen"]');

  // The live page counts since the start: at least what the period holds.
  await navigate(page, `/use-cases/person-counter?use_case=${counter.id}`);
  await expect
    .poll(async () => Number(await page.getByTestId('counter-in').textContent()), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(trueCounts.in);
  expect(Number(await page.getByTestId('counter-out').textContent())).toBeGreaterThanOrEqual(trueCounts.out);
  await expectAccessible(page, '[data-testid="counter-screen"]');

  // The demographic page for the period: the true people per age band and gender.
  await navigate(page, `/use-cases/demographic?use_case=${demographic.id}&${period}`);
  await expect(page.getByTestId('demographic-total')).toHaveText(String(people.size), { timeout: 20_000 });
  const cells = new Map<string, number>();
  for (const a of people.values())
    if ('identity' in a)
      cells.set(`${a.age_band}-${a.gender}`, (cells.get(`${a.age_band}-${a.gender}`) ?? 0) + 1);
  for (const band of ['0-17', '18-24', '25-34', '35-44', '45-54', '55-64', '65+'])
    for (const g of ['female', 'male'])
      await expect(page.getByTestId(`demographic-cell-${band}-${g}`)).toHaveText(
        String(cells.get(`${band}-${g}`) ?? 0),
      );
  await expectAccessible(page, '[data-testid="demographic-screen"]');

  // The plate page: every true plate of the period, and a search finds one.
  await navigate(page, `/use-cases/vehicle-plate-detection?use_case=${plates.id}`);
  for (const p of truePlates)
    await expect(page.getByTestId(`plate-row-${p}`)).toBeVisible({ timeout: 20_000 });
  const one = truePlates[0]!;
  // Case, spaces and dashes do not matter: 'kx 4821' finds KX-4821 (and only it: plates are two letters, four digits).
  const needle = `${one.slice(0, 2).toLowerCase()} ${one.slice(3)}`;
  await page.getByTestId('plates-search').fill(needle);
  await expect(page.getByTestId('plates-count')).toHaveAttribute('data-query', needle);
  await expect(page.getByTestId('plates-table').locator('tbody tr')).toHaveCount(1, { timeout: 10_000 });
  await expect(page.getByTestId(`plate-row-${one}`)).toBeVisible();
  await expectAccessible(page, '[data-testid="plates-screen"]');

  // Stop: the plate use case from its screen (confirmed); the others through REST; the job and app go.
  await page.getByTestId('uc-stop').click();
  await page.getByTestId('uc-confirm-stop').click();
  await expect.poll(async () => (await list()).some((u) => u.id === plates.id)).toBe(false);
  for (const u of [counter, demographic])
    expect((await request.delete(`/api/use-cases/${u.id}`, { headers: auth(token) })).status()).toBe(200);
  await navigate(page, '/jobs');
  await jobRow.getByTestId('job-stop').click();
  await expect(jobRow).toHaveAttribute('data-state', 'stopped', { timeout: 30_000 });
  await jobRow.getByTestId('job-delete').click();
  await page.getByTestId('jobs-confirm-delete').click();
  await expect(jobRow).toHaveCount(0);
  await request.delete(`/api/applications/${app.id}`, { headers: auth(token) });
});
