import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type APIRequestContext } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, navigate, signIn, uploadThrottle } from './stack';

/**
 * Resumable uploads on the real stack (issue 9 "Uploads"; spec §2 "Upload notification", §4 Upload, §7
 * upload-model as a tus upload, §8 upload toasts), driven through the /models page's upload form (the models
 * feature's 'model' purpose). Uploads are slowed to 1.5 MB/s (Chromium's network throttling) so they are seen
 * running: two models are uploaded at once with progress, one is cancelled (the server removes it), the page is
 * reloaded mid-upload and the other resumes from the server's offset (its File kept in IndexedDB), then succeeds
 * with the §8 toast; a second upload under a taken name is refused before any byte (failure toast and line);
 * a refused file type is refused by the form and by the tus endpoint at creation (415); the dialog passes axe.
 */
const MB = 1024 * 1024;
let dir = '';
const stamp = `${Date.now().toString(36)}`;
const nameA = `upload-e2e-a-${stamp}`;
const nameB = `upload-e2e-b-${stamp}`;

test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'uploads-e2e-'));
  for (const n of [nameA, nameB]) {
    const data = Buffer.alloc(12 * MB);
    for (let i = 0; i < data.length; i += 4096) data.writeUInt32LE(i ^ n.length, i);
    writeFileSync(path.join(dir, `${n}.onnx`), data);
  }
  writeFileSync(path.join(dir, 'notes.exe'), Buffer.from('MZ not a model'));
});

async function removeModels(request: APIRequestContext) {
  const token = await apiLogin(request, DEMO);
  const res = await request.get(`/api/models?search=upload-e2e-&per_page=100`, { headers: auth(token) });
  if (!res.ok()) return;
  const { data } = (await res.json()) as { data: Array<{ id: string; name: string }> };
  for (const m of data) await request.delete(`/api/models/${m.id}`, { headers: auth(token) });
}

test.afterAll(async ({ request }) => {
  await removeModels(request);
  rmSync(dir, { recursive: true, force: true });
});

test('uploads: two models at once, cancel one, reload mid-upload and resume, toasts, dialog, refused type', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  await signIn(page, DEMO);
  await navigate(page, '/models');
  await expect(page.getByTestId('models-screen')).toBeVisible();

  const throttleUploads = await uploadThrottle(page);
  await throttleUploads(1.5 * MB);

  const pick = async (file: string) => {
    await page.getByTestId('models-upload-open').click();
    await page.getByTestId('models-upload-file').setInputFiles(path.join(dir, file));
    await page.getByTestId('models-upload-submit').click();
  };

  // Two models at once.
  const deleted = page.waitForResponse(
    (r) => r.request().method() === 'DELETE' && r.url().includes('/api/uploads/'),
  );
  await pick(`${nameA}.onnx`);
  await pick(`${nameB}.onnx`);
  const button = page.getByTestId('uploads-button');
  await expect(button).toBeVisible();
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Upload Progresses' });
  await expect(dialog).toBeVisible();
  const rowA = dialog.locator(`[data-testid="upload-progress"][data-file="${nameA}.onnx"]`);
  const rowB = dialog.locator(`[data-testid="upload-progress"][data-file="${nameB}.onnx"]`);
  await expect(rowA).toHaveAttribute('data-phase', 'uploading');
  await expect(rowB).toHaveAttribute('data-phase', 'uploading');
  await expect(rowA.getByRole('progressbar', { name: `Upload of ${nameA}.onnx` })).toBeVisible();
  await expectAccessible(page, '[role="dialog"]');

  // Cancel one: its row goes, the server removes its upload (DELETE 204), no toast.
  await rowB.getByRole('button', { name: `Cancel upload of ${nameB}.onnx` }).click();
  await expect(rowB).toHaveCount(0);
  expect((await deleted).status()).toBe(204);

  // Reload mid-upload: A resumes from the server's offset.
  const percent = async () =>
    Number((await rowA.getByTestId('upload-percent').textContent())?.replace(/\D/g, ''));
  await expect.poll(percent, { timeout: 30_000 }).toBeGreaterThanOrEqual(15);
  expect(await percent()).toBeLessThan(90);
  const resumedPatch = page.waitForRequest(
    (r) => r.method() === 'PATCH' && r.url().includes('/api/uploads/'),
    { timeout: 30_000 },
  );
  await page.reload();
  const offset = Number((await resumedPatch).headers()['upload-offset']);
  expect(offset).toBeGreaterThan(2 * MB);
  await expect(button).toBeVisible();
  await button.click();
  await expect(rowA).toBeVisible();
  await expect(rowB).toHaveCount(0);

  // Success: §8 toast, a success line, the model is listed.
  const toast = page.getByRole('alert').filter({ hasText: `${nameA}.onnx is successfully uploaded` });
  await expect(toast).toBeVisible({ timeout: 60_000 });
  await expect(toast).toContainText('Uploaded');
  await expect(dialog.getByTestId('upload-result').filter({ hasText: `${nameA}.onnx` })).toHaveAttribute(
    'data-success',
    'true',
  );
  await expect(rowA).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(button).toHaveCount(0);
  await expect(page.getByTestId(`models-row-${nameA}`).first()).toBeVisible();

  // A taken name is refused at creation, before any byte: failure toast and line.
  await throttleUploads(-1);
  await pick(`${nameA}.onnx`);
  const failed = page.getByRole('alert').filter({ hasText: `${nameA}.onnx failed to upload` });
  await expect(failed).toBeVisible({ timeout: 30_000 });
  await expect(failed).toContainText('Upload Failed');
  await button.click();
  await expect(dialog.getByTestId('upload-result')).toHaveAttribute('data-success', 'false');
  await expectAccessible(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(button).toHaveCount(0);

  // A refused file type: the form says so, and the tus endpoint refuses it at creation (415, no byte).
  await page.getByTestId('models-upload-open').click();
  await page.getByTestId('models-upload-file').setInputFiles(path.join(dir, 'notes.exe'));
  await page.getByTestId('models-upload-name').fill(`upload-e2e-c-${stamp}`);
  await page.getByTestId('models-upload-submit').click();
  await expect(page.getByTestId('models-upload-error')).toBeVisible();
  await page.keyboard.press('Escape');
  const token = await apiLogin(request, DEMO);
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const meta = {
    purpose: 'model',
    filename: 'notes.exe',
    sha256: 'a'.repeat(64),
    name: `upload-e2e-c-${stamp}`,
  };
  const refused = await request.post('/api/uploads', {
    headers: {
      ...auth(token),
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(14),
      'Upload-Metadata': [
        ...Object.entries(meta).map(([k, v]) => `${k} ${b64(v)}`),
        `task ${b64('object-detection')}`,
        `format ${b64('onnx')}`,
      ].join(','),
    },
  });
  expect(refused.status()).toBe(415);
  expect(((await refused.json()) as { code: string }).code).toBe('Unsupported_media_type');
  await expect(button).toHaveCount(0);
});
