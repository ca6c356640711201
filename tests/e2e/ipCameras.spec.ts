import { test, expect } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, listDevices, openCameraPage, waitAllOnline } from './stack';

/**
 * IP cameras on the real stack (issue 16 §2 IP cameras, §7 ip-cameras / remove-ip-camera, §9 image preview 3 per
 * row): from the camera page header the manager adds a sim:// camera reached by a sim device, its Test fetches a
 * still through that device over the peer link (shown, then in the image preview dialog), the list shows the
 * reaching device, and the camera is removed after a confirmation. axe passes on the manager, the form and
 * the preview.
 */
let boxA = '';
const NAME = `E2E door ${Date.now() % 100000}`;

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  boxA = (await listDevices(request, token)).res.find((d) => d.label === 'x86 Edge Box A')!.device_id;
  // A previous failed run may have left its camera: remove any E2E camera.
  const res = await request.get('/api/ip-cameras/manage', { headers: auth(token) });
  for (const c of (await res.json()).cameras as { id: string; label: string }[]) {
    if (c.label.startsWith('E2E door'))
      await request.delete(`/api/ip-cameras/${c.id}`, { headers: auth(token) });
  }
});

test('an IP camera added and removed', async ({ page }) => {
  test.setTimeout(120_000);
  await openCameraPage(page, DEMO, [boxA]);
  await page.getByTestId('ip-cameras-manage').click();
  const manager = page.getByRole('dialog', { name: 'IP cameras' });
  await expect(manager.getByTestId('ip-camera-add')).toBeEnabled();
  await expectAccessible(page);

  await manager.getByTestId('ip-camera-add').click();
  const form = manager.getByTestId('ip-camera-form');
  // §5: an empty form is refused field by field.
  await form.getByTestId('ip-camera-save').click();
  await expect(form).toContainText('Enter a name');
  await expect(form).toContainText('Enter an rtsp://, rtsps://, http(s):// or sim://<name> address.');

  await form.getByTestId('ip-camera-label').fill(NAME);
  await form.getByTestId('ip-camera-url').fill('sim://e2e-door');
  await form.getByTestId('ip-camera-device').selectOption(boxA);
  await form.getByTestId('ip-camera-test').click();
  const still = form.getByTestId('ip-camera-still');
  await expect(still).toBeVisible({ timeout: 30_000 });
  expect(await still.locator('img').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  await expectAccessible(page);

  // The still in the image preview dialog (3 per row), opened and closed with the keyboard.
  await still.focus();
  await page.keyboard.press('Enter');
  const preview = page.getByRole('dialog', { name: 'Image preview' });
  await expect(preview.getByTestId('image-preview-item-0')).toBeVisible();
  await preview.getByTestId('image-preview-item-0').press('Enter');
  await expect(preview.getByTestId('image-preview-large')).toHaveAttribute('alt', new RegExp(NAME));
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();

  await form.getByTestId('ip-camera-save').click();
  const row = manager.getByTestId(`ip-camera-row-${NAME}`);
  await expect(row).toContainText('sim://e2e-door');
  await expect(row).toContainText('x86 Edge Box A');

  await row.getByRole('button', { name: `Remove ${NAME}` }).click();
  await page.getByTestId('ip-camera-remove-confirm').click();
  await expect(row).toBeHidden();
});
