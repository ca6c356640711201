import { test, expect, type Page } from './fixtures';
import { expectAccessible } from './axe';
import { alignmentSamples, median, sceneColors } from './inferenceAlignment';
import { DEMO, apiLogin, auth, listDevices, navigate, resetLayout, signIn } from './stack';

/**
 * Inference jobs on the real stack (issue 10; §3 Job, §4 "Job events" and "Starting an inference connection",
 * §8 inference texts): a job started from /jobs on a simulated camera walks every start stage (each shown
 * with its elapsed time), runs, and its detections are drawn over the camera's video — checked against the
 * pixels of the very frame they were drawn on (inferenceAlignment.ts); then it is stopped and deleted.
 * Several jobs are deleted at once; an application the engine cannot run shows the §8 warning.
 */

const BOX_B = 'x86 Edge Box B';

async function startJob(page: Page, name: string, application: string) {
  await page.getByTestId('jobs-add').click();
  const form = page.getByTestId('jobs-form');
  await expect(form).toBeVisible();
  await page.getByTestId('job-name').fill(name);
  await page.getByTestId('job-application').selectOption({ label: application });
  await page.getByTestId('job-device').selectOption({ label: BOX_B });
  // The first link of a fresh page (signalling, grant, peer connection) can take a while on a loaded machine.
  await expect(page.getByTestId('job-camera')).toBeEnabled({ timeout: 45_000 });
  await expect(page.getByTestId('job-camera')).toHaveValue('cam-1');
  await page.getByTestId('job-submit').click();
  await expect(form).toBeHidden();
}

test('a job started on a simulated camera draws boxes that match the video, then is stopped and deleted', async ({
  page,
  request,
}) => {
  const token = await apiLogin(request, DEMO);
  await resetLayout(request, token);
  const boxB = (await listDevices(request, token)).res.find((d) => d.label === BOX_B)!;
  expect(boxB).toBeTruthy();
  test.setTimeout(150_000);
  const name = `E2E people ${Date.now()}`;

  await signIn(page, DEMO);
  await navigate(page, '/jobs');
  await expect(page.getByTestId('jobs-screen')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('jobs-add').click();
  await expect(page.getByTestId('job-application')).toContainText('Lobby people counter');
  await expectAccessible(page, '[role="dialog"]');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await startJob(page, name, 'Lobby people counter (demo-people-detector v1)');
  const row = page.getByTestId(`job-row-${name}`);
  await expect(row).toHaveAttribute('data-state', 'started', { timeout: 30_000 });
  const progress = page.getByTestId('job-progress');
  await expect(progress).toHaveAttribute('data-phase', 'started');
  // The steps before the stages, each shown with its time (no alarms yet: calendars skipped).
  for (const [step, state] of <const>[
    ['link', 'done'],
    ['alarms', 'done'],
    ['calendars', 'skipped'],
    ['engine-check', 'done'],
    ['connect', 'done'],
  ])
    await expect(page.getByTestId(`job-prep-${step}`)).toHaveAttribute('data-state', state);
  await expect(page.getByTestId('job-prep-engine-check')).toContainText(/\d+ ms/);
  // Every §4 stage done, each with its elapsed time.
  for (const [step, label] of <const>[
    ['file-check', 'file check done'],
    ['build-model', 'model built'],
    ['prepare-model', 'model prepared'],
    ['warm-up', 'warm-up done'],
    ['start-inference', 'inference started'],
  ]) {
    const stage = page.getByTestId(`job-stage-${step}`);
    await expect(stage).toHaveAttribute('data-state', 'done');
    await expect(stage).toContainText(label);
    await expect(stage).toContainText(/\d+ ms/);
  }
  await expect(page.getByTestId('job-engine')).toContainText('sim');
  await expectAccessible(page, '[data-testid="jobs-screen"]');

  // The server has the §3 runtime fields the device reported.
  const jobs = (await (await request.get('/api/jobs', { headers: auth(token) })).json()).jobs;
  const saved = jobs.find((j: { job_name: string }) => j.job_name === name);
  expect(saved).toMatchObject({ state: 'started', cameras: ['cam-1'], device_id: boxB.device_id });
  expect(saved.runtime.jobId).toBe(saved.id);
  expect(saved.runtime.port).toBeGreaterThanOrEqual(8554);
  expect(saved.options.threshold).toBe(0.3);

  // View: the camera page with the detections over the video.
  await row.getByTestId('job-view').click();
  await expect(page).toHaveURL(/\/control-panel\/cameras/);
  const cell = page
    .locator('[data-testid^="stream-cell-"]')
    .filter({ has: page.getByTestId('inference-canvas') });
  await expect(cell).toHaveCount(1, { timeout: 20_000 });
  await expect(cell.getByTestId('inference-status')).toContainText(/objects/, { timeout: 20_000 });
  const cellId = await cell.getAttribute('data-testid');
  const { samples, presented, drawnFrames } = await alignmentSamples(
    page,
    `[data-testid="${cellId}"]`,
    sceneColors(boxB.device_id, 1),
    30,
  );
  expect(drawnFrames).toBe(30);
  expect(presented).toBeGreaterThanOrEqual(30);
  // Persons only (the application's class); each drawn box sits on its object in the frame shown.
  expect(median(samples.map((s) => s.iou))).toBeGreaterThan(0.85);
  await expectAccessible(page, `[data-testid="${cellId}"]`);
  // Labels and scores can be switched off.
  await cell.getByTestId('inference-labels').click();
  await expect(cell.getByTestId('inference-labels')).toHaveAttribute('aria-pressed', 'false');
  // The stream modal of an application stream has details.
  await cell.getByTestId('stream-expand').click();
  await page.getByTestId('stream-modal-details').click();
  await expect(page.getByTestId('stream-modal-details-text')).toContainText(name);
  // Its stream page (/stream-detail): the stream full width, the detections drawn over it, its job listed.
  await page.getByTestId('stream-modal-page').click();
  await expect(page).toHaveURL(/\/stream-detail\/cam-1\//);
  await expect(page.getByTestId('stream-modal')).toHaveCount(0);
  const detail = page.locator('.stream-detail-wrap');
  await expect(detail.getByTestId('inference-status')).toContainText(/objects/, { timeout: 20_000 });
  await expect(page.getByTestId('stream-apps-job')).toContainText(name);
  const onDetail = await alignmentSamples(page, '.stream-detail-wrap', sceneColors(boxB.device_id, 1), 10);
  expect(onDetail.drawnFrames).toBe(10);
  expect(median(onDetail.samples.map((s) => s.iou))).toBeGreaterThan(0.85);
  await expectAccessible(page);

  // Stop, then delete (confirmed).
  await navigate(page, '/jobs');
  await row.getByTestId('job-stop').click();
  await expect(row).toHaveAttribute('data-state', 'stopped');
  await row.getByTestId('job-delete').click();
  await expect(page.getByTestId('jobs-confirm')).toBeVisible();
  await page.getByTestId('jobs-confirm-delete').click();
  await expect(row).toHaveCount(0);
  const after = (await (await request.get('/api/jobs', { headers: auth(token) })).json()).jobs;
  expect(after.some((j: { job_name: string }) => j.job_name === name)).toBe(false);
});

test('several jobs deleted at once', async ({ page, request }) => {
  const token = await apiLogin(request, DEMO);
  const boxB = (await listDevices(request, token)).res.find((d) => d.label === BOX_B)!;
  const apps = (
    await (await request.post('/api/applications', { headers: auth(token), data: { pages: -1 } })).json()
  ).app;
  const stamp = Date.now();
  const names = [`E2E many A ${stamp}`, `E2E many B ${stamp}`, `E2E keep ${stamp}`];
  for (const job_name of names) {
    const res = await request.post('/api/jobs', {
      headers: auth(token),
      data: { job_name, application_id: apps[0].id, device_id: boxB.device_id, camera_id: 'cam-2' },
    });
    expect(res.status()).toBe(200);
  }
  await signIn(page, DEMO);
  await navigate(page, '/jobs');
  for (const n of names.slice(0, 2)) await page.getByTestId(`job-row-${n}`).getByTestId('job-select').check();
  await page.getByTestId('jobs-delete-selected').click();
  await expect(page.getByTestId('jobs-confirm')).toContainText(names[0]!);
  await expect(page.getByTestId('jobs-confirm')).toContainText(names[1]!);
  await page.getByTestId('jobs-confirm-delete').click();
  for (const n of names.slice(0, 2)) await expect(page.getByTestId(`job-row-${n}`)).toHaveCount(0);
  await expect(page.getByTestId(`job-row-${names[2]}`)).toBeVisible();
  await page.getByTestId(`job-row-${names[2]}`).getByTestId('job-delete').click();
  await page.getByTestId('jobs-confirm-delete').click();
  await expect(page.getByTestId(`job-row-${names[2]}`)).toHaveCount(0);
});

test('an engine error stops the start with the §8 warning', async ({ page, request }) => {
  const token = await apiLogin(request, DEMO);
  // An application on the demo's language model: the sim engine runs detection models only.
  const models = (await (await request.get('/api/models?per_page=100', { headers: auth(token) })).json())
    .data;
  const llm = models.find((m: { name: string }) => m.name === 'demo-tiny-llm');
  const detail = await (await request.get(`/api/models/${llm.id}`, { headers: auth(token) })).json();
  const appName = `E2E llm app ${Date.now()}`;
  const created = await request.post('/api/applications/new', {
    headers: auth(token),
    data: { name: appName, model_version_id: detail.version_list[0].id },
  });
  expect(created.status()).toBe(200);
  const name = `E2E engine error ${Date.now()}`;
  await signIn(page, DEMO);
  await navigate(page, '/jobs');
  await startJob(page, name, `${appName} (demo-tiny-llm v1)`);
  const dialog = page.getByRole('dialog', { name: `Warning: ${BOX_B}` });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await expect(dialog.getByTestId('dialog-message')).toHaveText(
    'could not start the Inference Engine. Please try again. If the problem persists, please report it to us.',
  );
  // OK only.
  const actions = dialog.getByRole('button').filter({ hasText: /\S/ });
  await expect(actions).toHaveCount(1);
  await expect(actions).toHaveAttribute('data-testid', 'dialog-ok');
  await expect(page.getByRole('alert').filter({ hasText: 'Inference engine issue reported' })).toBeVisible();
  await expect(page.getByTestId('job-prep-engine-check')).toHaveAttribute('data-state', 'failed');
  await expectAccessible(page, '[role="dialog"]');
  await dialog.getByTestId('dialog-ok').click();
  const row = page.getByTestId(`job-row-${name}`);
  await expect(row).toHaveAttribute('data-state', 'error');
  await expect(row.getByTestId('job-message')).toContainText('runs detection models');
  await row.getByTestId('job-delete').click();
  await page.getByTestId('jobs-confirm-delete').click();
  await expect(row).toHaveCount(0);
  await request.delete(`/api/applications/${(await created.json()).id}`, { headers: auth(token) });
});
