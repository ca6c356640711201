import { test, expect } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, navigate, signIn } from './stack';

/**
 * The download page on the real stack (§2 /download; §8 "Generated!"): the newest agent release the server
 * publishes (version and sha256 as GET agent-releases/latest answers), what x86 and Jetson devices need, and
 * a new device named on the page: the server creates it with its token and the page shows the one-line
 * install command, copied from the keyboard; the command is real — its script is served by this server and
 * its token is accepted by the release route the script calls. The device is deleted afterwards. Axe passes.
 */
test('a device named on the download page gets a working install command', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const token = await apiLogin(request, DEMO);
  const latest = (await (await request.get('/api/agent-releases/latest', { headers: auth(token) })).json())
    .release;
  const name = `E2E Box ${Date.now()}`;

  await signIn(page, DEMO);
  await navigate(page, '/download');
  await expect(page.getByTestId('download-version')).toHaveAttribute('data-version', latest.version);
  await expect(page.getByTestId('download-sha256')).toHaveText(latest.sha256);
  await expect(page.getByTestId('download-requirements-jetson')).toContainText('JetPack');
  await expect(page.getByTestId('download-requirements-x86')).toContainText('ffmpeg');
  await expect(page.getByTestId('download-requirements-x86')).toContainText('Node.js 20.19.0');
  await expectAccessible(page, '[data-testid="download-screen"]');

  // An empty name is refused on the page.
  await page.getByTestId('download-create').click();
  await expect(page.getByText('Enter a name for the device.')).toBeVisible();
  await page.getByTestId('download-name').fill(name);
  await page.getByTestId('download-kind').selectOption('jetson');
  await page.getByTestId('download-create').click();
  const created = page.getByTestId('download-created');
  await expect(created).toContainText(name);
  const curl = (await page.getByTestId('download-curl').textContent())!;
  const origin = new URL(page.url()).origin;
  expect(curl).toMatch(
    new RegExp(`^curl -fsSL ${origin}/api/download/install\\.sh \\| AGENT_TOKEN='[^']+' sh$`),
  );
  await expect(page.getByTestId('download-npm')).toContainText('--backend host --kind jetson');
  await expectAccessible(page, '[data-testid="download-screen"]');

  await page.getByTestId('copy-curl').focus();
  await page.keyboard.press('Enter');
  await expect(created).toContainText('Copied to the clipboard.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(curl);

  // The command works against this server: the script is served, the token opens the release route.
  const script = await request.get('/api/download/install.sh');
  expect(script.status()).toBe(200);
  expect(await script.text()).toContain(`SERVER='${origin}'`);
  const deviceToken = /AGENT_TOKEN='([^']+)'/.exec(curl)![1]!;
  const asDevice = await request.get('/api/agent-releases/latest', {
    headers: { Authorization: `Token ${deviceToken}` },
  });
  expect(asDevice.status()).toBe(200);

  // The device is listed; remove it again.
  const devices = await (
    await request.get(`/api/get_devices/?per_page=50&search=${encodeURIComponent(name)}`, {
      headers: auth(token),
    })
  ).json();
  const device = devices.res.find((d: { label: string }) => d.label === name);
  expect(device).toBeTruthy();
  const removed = await request.delete('/api/device', { headers: auth(token), data: { ids: [device.id] } });
  expect(removed.status()).toBe(200);
  await page.getByTestId('download-another').click();
  await expect(page.getByTestId('download-form')).toBeVisible();
});
