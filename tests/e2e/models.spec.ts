import { test, expect } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, connectDevices, listDevices, navigate, signIn, waitAllOnline } from './stack';

/**
 * Models on the real stack (issue 9 "Models"): the demo's seeded models listed on /models (search, sort),
 * /llm-models (language models only) and /models-beta (model cards); a model uploaded through the "Upload
 * model" form (tus, purpose 'model') and deleted after a confirmation; the demo ONNX model deployed to a sim
 * device — the device downloads it from the server with its token (progress shown), checks its SHA-256 and
 * reports it installed — and /remote-downloads showing that download and the device's installed models. Every
 * screen passes axe. Cleans up: the uploaded model is deleted and the deployment forgotten.
 */
let boxB = '';
let token = '';

test.beforeAll(async ({ request }) => {
  token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  boxB = (await listDevices(request, token)).res.find((d) => d.label === 'x86 Edge Box B')!.device_id;
});

test('/models lists, searches and sorts; /llm-models and /models-beta; upload and delete a model', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO);
  await navigate(page, '/models');
  await expect(page.getByTestId('models-row-demo-people-detector')).toBeVisible();
  await expect(page.getByTestId('models-row-demo-tiny-llm')).toBeVisible();
  await expect(page.getByTestId('models-row-demo-people-detector')).toContainText(/M[0-9A-Z]{11}/);
  await expect(page.getByTestId('models-row-demo-tiny-llm')).toContainText(/P[0-9A-Z]{11}/);
  await expectAccessible(page);

  await page.getByTestId('models-search').fill('tiny');
  await expect(page.getByTestId('models-row-demo-people-detector')).toHaveCount(0);
  await expect(page.getByTestId('models-row-demo-tiny-llm')).toBeVisible();
  await page.getByTestId('models-search').fill('');
  await page.getByTestId('models-sort').selectOption('name');
  await page.getByTestId('models-order').selectOption('asc');
  await expect(page.getByTestId('models-table').locator('tbody tr').first()).toContainText(
    'demo-people-detector',
  );

  // Upload a new model through the form; refused first for a file that is not of the chosen format.
  await page.getByTestId('models-upload-open').click();
  await page.getByTestId('models-upload-file').setInputFiles({
    name: 'e2e-classifier.onnx',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('not really onnx, but an .onnx file of 44 bytes'),
  });
  await page.getByTestId('models-upload-name').fill('e2e-classifier');
  await page.getByTestId('models-upload-format').selectOption('pytorch');
  await page.getByTestId('models-upload-submit').click();
  await expect(page.getByTestId('models-upload-error')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('models-upload-format').selectOption('onnx');
  await page.getByTestId('models-upload-task').selectOption('classification');
  await page.getByTestId('models-upload-classes').fill('cat, dog');
  await page.getByTestId('models-upload-input-size').fill('224x224');
  await page.getByTestId('models-upload-submit').click();
  const row = page.getByTestId('models-row-e2e-classifier');
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText(/M[0-9A-Z]{11}/);

  await page.getByTestId('models-delete-e2e-classifier').click();
  await expect(page.getByTestId('models-confirm')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('models-confirm-delete').click();
  await expect(row).toHaveCount(0);

  await navigate(page, '/llm-models');
  await expect(page.getByTestId('models-row-demo-tiny-llm')).toBeVisible();
  await expect(page.getByTestId('models-row-demo-people-detector')).toHaveCount(0);
  await expectAccessible(page);

  await navigate(page, '/models-beta');
  await expect(page.getByTestId('models-cards')).toBeVisible();
  await expect(page.getByTestId('models-row-demo-people-detector')).toContainText('person');
  await expectAccessible(page);
});

test('a model version deployed to a sim device with progress, then seen on /remote-downloads', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO);
  await connectDevices(page, [boxB]);
  await navigate(page, '/models');
  await page.getByTestId('models-open-demo-people-detector').click();
  await expect(page.getByTestId('models-detail')).toBeVisible();
  await expect(page.getByTestId('models-version-1')).toContainText('people-detector.onnx');
  // Earlier specs may leave other devices connected: choose Box B among the connected ones.
  await expect(page.getByTestId('models-deploy-device').locator(`option[value="${boxB}"]`)).toHaveCount(1);
  await page.getByTestId('models-deploy-device').selectOption(boxB);
  await expect(page.getByTestId('models-deploy-device')).toHaveValue(boxB);
  await expectAccessible(page);

  await page.getByTestId('models-deploy-start').click();
  const state = page.getByTestId('models-deploy-state');
  // The sim paces its download (1 MiB/s): the 1.6 MB file shows progress before it is installed.
  await expect(state).toHaveAttribute('data-state', 'downloading', { timeout: 15_000 });
  await expect(page.getByTestId('models-deploy-progress').getByRole('progressbar')).toBeVisible();
  await expectAccessible(page);
  await expect(state).toHaveAttribute('data-state', 'installed', { timeout: 30_000 });
  await expect(page.getByTestId('models-deployments')).toContainText('x86 Edge Box B');

  await navigate(page, '/remote-downloads');
  const table = page.getByTestId('remote-downloads-table');
  await expect(table).toBeVisible();
  const done = table.locator('tr[data-state="installed"]', { hasText: 'demo-people-detector' });
  await expect(done.first()).toContainText('x86 Edge Box B');
  await expect(page.getByTestId('remote-downloads-installed')).toContainText('demo-people-detector v1');
  await expectAccessible(page);

  // The server knows it from the device's own reports (device token).
  const list = await request.get('/api/model-deployments', { headers: auth(token) });
  const deployment = (
    (await list.json()).deployments as { id: string; state: string; device_id: string }[]
  ).find((d) => d.device_id === boxB && d.state === 'installed')!;
  expect(deployment).toBeTruthy();

  // Clean up: forget the entry.
  await page.getByTestId(`remote-downloads-forget-${deployment.id}`).click();
  await expect(page.getByTestId(`remote-downloads-row-${deployment.id}`)).toHaveCount(0);
});
