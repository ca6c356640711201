import { test, expect, type Page } from './fixtures';
import { expectAccessible } from './axe';
import { SECOND, apiLogin, auth, connectDevices, listDevices, navigate, signIn } from './stack';

/**
 * The profile on the real stack (spec §2 Profile children; §5 "Profile update sends the password only when
 * provided"; §7 PUT user, usage/all_stream_limits; §8 "Generated!" / "New token is copied to clipboard."; issue
 * 13): name and bio saved and seen after a reload (and in the header at once), a wrong current password
 * refused on its field, a picture uploaded and shown in the header, an API key created and used from the test
 * (read route 200, write route 403 with a read-only key, 401 once revoked), storage usage grown by that upload
 * and network usage grown by a real request through the device tunnel (Jupyter on the user's sim device), axe
 * on every profile screen. Runs as the second seeded user, whose profile it restores at the end.
 */
const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function profileScreen(page: Page, path: string, testId: string) {
  await navigate(page, path);
  await expect(page.getByTestId(testId)).toBeVisible();
}

test.afterAll(async ({ request }) => {
  const token = await apiLogin(request, SECOND);
  await request.put('/api/user', {
    headers: auth(token),
    data: { username: 'Second User', bio: null, image: null },
  });
});

test('personal information: save, reload, wrong current password, picture in the header', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const name = `Second ${Date.now()}`;
  await signIn(page, SECOND);
  await profileScreen(page, '/profile/personal-information', 'personal-screen');
  await expect(page.getByTestId('profile-username')).toHaveValue(/.+/);
  await expectAccessible(page);

  // An empty name is refused on the form, inline.
  await page.getByTestId('profile-username').fill('  ');
  await page.getByTestId('profile-save').click();
  await expect(page.getByText('Enter your name.')).toBeVisible();

  await page.getByTestId('profile-username').fill(name);
  await page.getByTestId('profile-bio').fill('Watches the loading dock.');
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('profile-saved')).toBeVisible();
  // The header shows the new name without a reload.
  await expect(page.getByTestId('header-profile-name')).toHaveText(name);

  await page.reload();
  await expect(page.getByTestId('profile-username')).toHaveValue(name);
  await expect(page.getByTestId('profile-bio')).toHaveValue('Watches the loading dock.');
  await expect(page.getByTestId('header-profile-name')).toHaveText(name);

  // A new address needs the current password; a wrong one is refused by the server, on its field.
  await page.getByTestId('profile-email').fill('second-moved@edge.local');
  await page.getByTestId('profile-save').click();
  await expect(
    page.getByText('Enter your current password to change the address or the password.'),
  ).toBeVisible();
  await page.getByTestId('profile-current-password').fill('not-my-password');
  await page.getByTestId('profile-save').click();
  await expect(page.getByText('The current password is not correct.')).toBeVisible();
  await expectAccessible(page);
  await page.reload();
  await expect(page.getByTestId('profile-email')).toHaveValue(SECOND.email);

  // The picture: uploaded (purpose 'avatar'), shown on the page and in the header, served by the server.
  await page
    .getByTestId('profile-avatar-input')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG_1x1 });
  await expect(page.getByTestId('header-avatar')).toHaveAttribute(
    'data-src',
    /^\/api\/avatars\/[0-9a-f-]+\?v=[0-9a-f]{12}$/,
  );
  const src = (await page.getByTestId('header-avatar').getAttribute('data-src'))!;
  const served = await page.request.get(src);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toBe('image/png');
  expect(Buffer.from(await served.body()).equals(PNG_1x1)).toBe(true);

  // Storage usage counts it (real rows), as a chart and a table.
  await profileScreen(page, '/profile/storage-data-usage', 'storage-screen');
  await expect(page.getByTestId('storage-category-avatar')).toHaveAttribute(
    'data-bytes',
    String(PNG_1x1.length),
  );
  expect(Number(await page.getByTestId('storage-total').getAttribute('data-bytes'))).toBeGreaterThanOrEqual(
    PNG_1x1.length,
  );
  await expect(page.getByTestId('storage-chart')).toHaveAttribute('data-points', '30');
  expect(Number(await page.getByTestId('storage-chart').getAttribute('data-max'))).toBeGreaterThan(0);
  await expectAccessible(page);
});

test('API keys: created and shown once, read 200, write 403 with a read-only key, revoked 401; device tokens; stream limits', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const keyName = `e2e read ${Date.now()}`;
  await signIn(page, SECOND);
  await profileScreen(page, '/profile/keys-secrets', 'keys-screen');
  await expect(page.getByTestId('device-tokens')).toContainText('Second Box');
  await expectAccessible(page);

  await page.getByTestId('api-key-create').click();
  await expect(page.getByText('Enter a name for the key.')).toBeVisible();
  await page.getByTestId('api-key-name').fill(keyName);
  await page.getByTestId('api-key-scope').selectOption('read');
  await page.getByTestId('api-key-expiry').selectOption('30');
  await page.getByTestId('api-key-create').click();
  const secret = (await page.getByTestId('api-key-secret').textContent())!.trim();
  expect(secret).toMatch(/^edk_[A-Za-z0-9_-]{43}$/);
  await page.getByTestId('api-key-copy').click();
  await expect(page.getByText('New token is copied to clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await expectAccessible(page);
  await page.getByTestId('api-key-done').click();
  await expect(page.getByTestId('api-key-secret')).toHaveCount(0);

  // The key from the test: a read route answers, a write route is refused for a read-only key.
  const asKey = { Authorization: `Token ${secret}` };
  const read = await request.get('/api/user-info', { headers: asKey });
  expect(read.status()).toBe(200);
  expect((await read.json()).user_info.email).toBe(SECOND.email);
  const devices = await request.get('/api/get_devices/?per_page=5', { headers: asKey });
  expect(devices.status()).toBe(200);
  const write = await request.put('/api/user', {
    headers: asKey,
    data: { bio: 'written by a read-only key' },
  });
  expect(write.status()).toBe(403);
  expect((await write.json()).code).toBe('Api_key_scope');

  // Its last use shows after a reload of the list; then it is revoked (asked first) and refused with 401.
  await page.reload();
  const row = page.getByTestId(`api-key-row-${keyName}`);
  await expect(page.getByTestId(`api-key-used-${keyName}`)).not.toHaveText('Never');
  await page.getByTestId(`api-key-revoke-${keyName}`).click();
  await expect(page.getByRole('dialog')).toContainText(keyName);
  await expectAccessible(page);
  await page.getByTestId('api-key-revoke-confirm').click();
  await expect(row).toHaveAttribute('data-state', 'revoked');
  const after = await request.get('/api/user-info', { headers: asKey });
  expect(after.status()).toBe(401);
  expect((await after.json()).code).toBe('Api_key_revoked');

  // Stream limits per device as bars (§7 usage/all_stream_limits).
  const token = await apiLogin(request, SECOND);
  const box = (await listDevices(request, token)).res.find((d) => d.label === 'Second Box')!;
  await profileScreen(page, '/profile/stream-management', 'streams-screen');
  await expect(page.getByTestId(`stream-bar-${box.device_id}`)).toHaveAttribute('data-limit', /\d+/);
  await expectAccessible(page);
});

test('network usage grows with a real request through the device tunnel', async ({ page, request }) => {
  test.setTimeout(180_000);
  const token = await apiLogin(request, SECOND);
  const box = (await listDevices(request, token)).res.find((d) => d.label === 'Second Box')!;
  const before = await request.get('/api/usage/network?days=1', { headers: auth(token) });
  const sum = (rows: { bytes_from_device: number }[]) => rows.reduce((a, r) => a + r.bytes_from_device, 0);
  const start = sum((await before.json()).rows);

  await signIn(page, SECOND);
  await profileScreen(page, '/profile/network-data-usage', 'network-screen');
  await expect(page.getByTestId('network-turn')).toContainText('no TURN relay runs here');
  await expectAccessible(page);

  // A Jupyter container on the user's sim device, opened through the console's tunnel proxy.
  await connectDevices(page, [box.device_id]);
  await navigate(page, '/containers/pytorch-jupyter');
  await page.getByTestId('create-tag').selectOption('2.3-x86');
  await page.getByTestId('create-device').selectOption(box.device_id);
  await page.getByTestId('create-submit').click();
  await page.getByTestId('download-offer-download').click();
  await expect(page.getByTestId(`create-progress-${box.device_id}`)).toHaveAttribute(
    'data-step',
    'succeeded',
    {
      timeout: 90_000,
    },
  );
  const containerRow = page.locator('[data-testid^="environment-container-"]');
  await expect(containerRow).toHaveCount(1);
  const shortId = (await containerRow.getAttribute('data-testid'))!.replace('environment-container-', '');
  const [jupyter] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByTestId(`container-open-jupyter-${shortId}`).click(),
  ]);
  await expect(jupyter.getByRole('heading', { level: 1 })).toContainText('Simulated JupyterLab');
  await jupyter.close();

  // The server counts the relayed bytes per device and day, written every 10 s.
  await navigate(page, '/profile/network-data-usage');
  const total = page.getByTestId('network-total');
  await expect
    .poll(
      async () => {
        await page.getByTestId('network-refresh').click();
        await expect(page.getByTestId('network-refresh')).toBeEnabled();
        return Number(await total.getAttribute('data-from'));
      },
      { timeout: 40_000, intervals: [2_000] },
    )
    .toBeGreaterThan(start);
  expect(Number(await page.getByTestId('network-chart').getAttribute('data-max'))).toBeGreaterThan(0);
  await expect(page.getByTestId(`network-row-${box.device_id}`).first()).toBeVisible();
  await expectAccessible(page);

  // Leave the device as it was: stop and remove the container.
  await navigate(page, '/control-panel/containers');
  const listed = page.getByTestId(`container-row-${shortId}`);
  await page.getByTestId(`container-stop-${shortId}`).click();
  await expect(listed).toContainText(/exited/i, { timeout: 20_000 });
  await page.getByTestId(`container-remove-${shortId}`).click();
  await page.getByTestId('confirm-remove-ok').click();
  await expect(listed).toHaveCount(0, { timeout: 20_000 });
});
