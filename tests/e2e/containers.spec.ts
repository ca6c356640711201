import { test, expect, type Page } from './fixtures';
import { expectAccessible } from './axe';
import {
  DEMO,
  SECOND,
  apiLogin,
  connectDevices,
  listDevices,
  navigate,
  signIn,
  waitAllOnline,
} from './stack';

/**
 * Containers and environments on the real stack (issue 8; spec §2 /containers, /containers/{alias},
 * /control-panel/containers, environment-detail, /admin-panel/dockers; §4 Container action; §7
 * request_remote_device; §8 Docker texts): a sim device's engine, the device link's progress messages, the
 * agent's reverse tunnel and the server's owner-only proxy, all real; the Jupyter app is the sim backend's
 * simulated JupyterLab (a real HTTP + WebSocket server on the device).
 */
let boxB = '';

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  boxB = (await listDevices(request, token)).res.find((d) => d.label === 'x86 Edge Box B')!.device_id;
});

/** Opens the PyTorch environment with Box B connected, and picks Box B's version (x86) and Box B. */
async function openPytorch(page: Page) {
  await signIn(page, DEMO);
  await connectDevices(page, [boxB]);
  await navigate(page, '/containers');
  await expect(page.getByTestId('environment-card-pytorch-jupyter')).toBeVisible();
  await expectAccessible(page);
  await navigate(page, '/containers/pytorch-jupyter');
  await page.getByTestId('create-tag').selectOption('2.3-x86');
  await page.getByTestId('create-device').selectOption(boxB);
  await expect(page.getByTestId('create-jupyter')).toBeChecked();
}

test('create with a missing image: download offer, progress, cancel, download again, create, Jupyter through the console, stop, remove', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await openPytorch(page);
  const progress = page.getByTestId(`create-progress-${boxB}`);

  // §4: the image is missing on the device → "Environment not found" and a download offer with its size.
  await page.getByTestId('create-submit').click();
  // (Mantine puts a modal's test id on its root, which has no box: the dialog is found by its role.)
  const offer = page.getByRole('dialog');
  await expect(page.getByTestId('download-offer-download')).toBeVisible();
  await expect(offer).toContainText('Environment not found');
  await expect(page.getByTestId('download-offer-size')).toContainText('3100');
  await expectAccessible(page);
  await page.getByTestId('download-offer-download').click();

  // Progress from the device's per-layer events, cancelable.
  await expect(progress).toHaveAttribute('data-step', 'downloading');
  await page.getByTestId(`create-progress-${boxB}-cancel`).click();
  await expect(progress).toHaveAttribute('data-step', 'canceled');

  // Again, to the end: download, create, Jupyter; a second action on the environment is refused meanwhile.
  await page.getByTestId('create-submit').click();
  await page.getByTestId('download-offer-download').click();
  await expect(progress).toHaveAttribute('data-step', 'downloading');
  await page.getByTestId('create-submit').click();
  await expect(page.getByRole('dialog', { name: 'Ongoing Process' })).toBeVisible();
  await page.getByTestId('dialog-ok').click();
  await expect(progress).toHaveAttribute('data-step', 'succeeded', { timeout: 60_000 });

  const row = page.locator('[data-testid^="environment-container-"]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(/running/i);
  const shortId = (await row.getAttribute('data-testid'))!.replace('environment-container-', '');
  await expectAccessible(page);

  // Open Jupyter: a new tab through the console's proxy; a kernel round trip over WebSocket.
  const [jupyter] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByTestId(`container-open-jupyter-${shortId}`).click(),
  ]);
  await expect(jupyter).toHaveURL(new RegExp(`/remote/${boxB}/${shortId}/`));
  await expect(jupyter.getByRole('heading', { level: 1 })).toContainText('Simulated JupyterLab');
  await expect(jupyter.locator('#kernel-state')).toContainText(/idle|ready/i);
  await jupyter.getByLabel('Code').fill('6 * 7');
  await jupyter.getByRole('button', { name: 'Run' }).click();
  await expect(jupyter.locator('#output')).toContainText('42');
  const url = jupyter.url();
  await jupyter.close();

  // Another user (their own session, no cookie for this app) cannot open it.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, SECOND);
  const refused = await otherPage.goto(url);
  expect(refused?.status()).toBe(403);
  await expect(otherPage.locator('body')).toContainText('This link belongs to another account');
  await other.close();

  // The containers page lists it; its log opens; stop, then remove (confirmed).
  await navigate(page, '/control-panel/containers');
  const listed = page.getByTestId(`container-row-${shortId}`);
  await expect(listed).toContainText(/running/i);
  await expectAccessible(page);
  await page.getByTestId(`container-logs-${shortId}`).click();
  await expect(page.getByTestId('container-logs-lines')).not.toBeEmpty();
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await page.getByTestId(`container-stop-${shortId}`).click();
  await expect(listed).toContainText(/exited/i, { timeout: 20_000 });
  await page.getByTestId(`container-remove-${shortId}`).click();
  await page.getByTestId('confirm-remove-ok').click();
  await expect(listed).toHaveCount(0, { timeout: 20_000 });
});

test('environment-detail is readable signed out and shows catalogue facts only', async ({ page }) => {
  await page.goto('/environment-detail/pytorch-jupyter');
  const detail = page.getByTestId('public-environment');
  await expect(detail).toContainText('PyTorch with JupyterLab');
  await expect(page.getByTestId('public-environment-versions')).toContainText('2.3-x86');
  await expect(page).toHaveURL(/\/environment-detail\/pytorch-jupyter$/);
  await expectAccessible(page);
  await page.goto('/environment-detail/no-such-environment');
  await expect(page.getByTestId('public-environment-missing')).toBeVisible();
});

test('an admin adds, edits and deletes an environment of the catalogue', async ({ page }) => {
  await signIn(page, DEMO);
  await navigate(page, '/admin-panel/dockers');
  await expect(page.getByTestId('admin-environment-pytorch-jupyter')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('admin-environment-add').click();
  const form = page.getByTestId('environment-form');
  await form.getByTestId('env-field-alias').fill('e2e-python');
  await form.getByTestId('env-field-name').fill('E2E Python');
  await form.getByTestId('env-field-image').fill('edge/python');
  await page.getByTestId('env-tag-0-tag').fill('3.11');
  await page.getByTestId('env-tag-0-size').fill('180');
  await expectAccessible(page);
  await page.getByTestId('environment-form-save').click();
  const row = page.getByTestId('admin-environment-e2e-python');
  await expect(row).toContainText('E2E Python');

  await page.getByTestId('admin-environment-edit-e2e-python').click();
  await form.getByTestId('env-field-name').fill('E2E Python, edited');
  await page.getByTestId('environment-form-save').click();
  await expect(row).toContainText('E2E Python, edited');

  // A taken alias is refused inline, nothing is lost.
  await page.getByTestId('admin-environment-add').click();
  await form.getByTestId('env-field-alias').fill('e2e-python');
  await form.getByTestId('env-field-name').fill('Duplicate');
  await form.getByTestId('env-field-image').fill('edge/python');
  await page.getByTestId('env-tag-0-tag').fill('3.11');
  await page.getByTestId('environment-form-save').click();
  await expect(form).toContainText('already used');
  await page.keyboard.press('Escape');

  await page.getByTestId('admin-environment-delete-e2e-python').click();
  await page.getByTestId('confirm-delete-ok').click();
  await expect(row).toHaveCount(0);
});
