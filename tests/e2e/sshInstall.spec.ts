import { test, expect, type Page } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, listDevices, navigate, signIn } from './stack';
import { canRunTestHost, startTestHost, type TestHost } from '../sshd';

/**
 * The SSH install on the real stack (issue 12; spec §3/§4 "SSH install", §7 connect-ssh / ssh-command, §8 SSH
 * texts, §2 unload warning) against Debian's OpenSSH server started by this spec on a loopback port with a
 * throwaway user (tests/sshd.ts; stand-ins for docker, sudo and reboot in that user's ~/bin): install with a
 * password (Docker installed, restart confirmed) and with a key file, the groups completing and the new device
 * coming online by itself; a wrong password; a host key that changed (refused, then forgotten); a failing step
 * that stops the install with the dialog and is retried from that step; the unload warning and cancel while
 * installing. Axe runs on the form, the connected state, the running groups and the restart dialog.
 */
test.describe.configure({ mode: 'serial' });
test.skip(!canRunTestHost(), 'the SSH test host needs root and /usr/sbin/sshd');

const PANEL = 'main';
const labels: string[] = [];
let hosts: TestHost[] = [];

test.afterAll(async ({ request }) => {
  for (const h of hosts) await h.dispose();
  hosts = [];
  const token = await apiLogin(request, DEMO);
  const ids = (await listDevices(request, token)).res
    .filter((d) => labels.includes(d.label))
    .map((d) => d.id);
  if (ids.length) await request.delete('/api/device', { headers: auth(token), data: { ids } });
});

async function host(options: Parameters<typeof startTestHost>[0]) {
  const h = await startTestHost(options);
  hosts.push(h);
  return h;
}

async function openForm(page: Page) {
  await signIn(page, DEMO);
  await navigate(page, '/control-panel/devices');
  await page.getByTestId('ssh-install-add').click();
  await expect(page).toHaveURL(/\/control-panel\/devices\/ssh-install$/);
}

async function fill(page: Page, h: TestHost, label: string, secret: { password: string } | { key: string }) {
  labels.push(label);
  const label_ = page.getByTestId('ssh-label');
  if (await label_.isEnabled()) await label_.fill(label);
  await page.getByTestId('ssh-hostname').fill(h.host);
  await page.getByTestId('ssh-port').fill(String(h.port));
  await page.getByTestId('ssh-username').fill(h.user);
  if ('password' in secret) {
    await page.getByTestId('ssh-password').fill(secret.password);
  } else {
    await page.getByText('Private key', { exact: true }).click();
    await page.locator('input[type="file"]').setInputFiles({
      name: 'id_ed25519',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(secret.key),
    });
  }
  await page.getByTestId('ssh-connect').click();
}

async function closeDialog(page: Page, title: string | RegExp) {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await dialog.getByTestId('dialog-ok').click();
  await expect(dialog).toBeHidden();
}

const step = (page: Page, p: string) => page.getByTestId(`ssh-step-${p}`);

async function online(page: Page, label: string): Promise<boolean> {
  const token = await apiLogin(page.request, DEMO);
  const device = (await listDevices(page.request, token)).res.find((d) => d.label === label);
  if (!device) return false;
  const res = await page.request.get('/api/get-online-devices', { headers: auth(token) });
  return ((await res.json()) as { onlineDevices: string[] }).onlineDevices.includes(device.device_id);
}

test('install with a password: docker installed, restart confirmed, the device comes online', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const h = await host({ docker: false });
  await openForm(page);
  await expectAccessible(page, PANEL);
  await fill(page, h, 'SSH e2e password', { password: h.password });
  await expect(page.getByText('Successfully connected via SSH')).toBeVisible();
  await expect(page.getByTestId('ssh-fingerprint')).toContainText(h.fingerprint());
  await expect(page.getByTestId('ssh-status')).toHaveText('Connected');
  await expectAccessible(page, PANEL);
  await page.getByTestId('ssh-install').click();
  await expect(page.getByTestId('ssh-status')).toHaveText('Installing');
  // Live output of the docker install (the stand-in prints a line every 0.35 s).
  await expect(page.getByTestId('ssh-output-install-docker')).toContainText(
    '# Executing docker install script',
  );
  await expectAccessible(page, PANEL);
  await expect(page.getByTestId('ssh-group-requirements')).toHaveAttribute('data-status', 'ok', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('ssh-group-download')).toHaveAttribute('data-status', 'ok', {
    timeout: 30_000,
  });
  const restart = page.getByRole('dialog', { name: 'Restart SSH e2e password?' });
  await expect(restart).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page, '[role="dialog"]');
  await restart.getByTestId('ssh-restart-confirm').click();
  await closeDialog(page, 'Installation successful');
  await expect(page.getByTestId('ssh-group-registration')).toHaveAttribute('data-status', 'ok');
  await expect(step(page, 'restart-device')).toHaveAttribute('data-status', 'ok');
  await expect(step(page, 'start-client')).toHaveAttribute('data-status', 'skipped');
  await expect(step(page, 'check-gpu').getByTestId('ssh-step-elapsed-check-gpu')).toHaveText(/\d+\.\d s/);
  expect(h.sudoLog()).toContain('systemctl reboot');
  // The simulated reboot starts the client again; it registers by itself.
  await expect.poll(() => online(page, 'SSH e2e password'), { timeout: 60_000 }).toBe(true);
  await page.getByTestId('ssh-open-device').click();
  await expect(page).toHaveURL(/\/control-panel\/devices\?device=/);
});

test('install with a key file: docker present, no restart, the client started and online', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const h = await host({ docker: true });
  await openForm(page);
  await fill(page, h, 'SSH e2e key', { key: h.privateKey });
  await expect(page.getByTestId('ssh-status')).toHaveText('Connected');
  await page.getByTestId('ssh-install').click();
  await closeDialog(page, 'Installation successful');
  for (const g of ['requirements', 'download', 'registration'])
    await expect(page.getByTestId(`ssh-group-${g}`)).toHaveAttribute('data-status', 'ok');
  await expect(step(page, 'install-docker')).toHaveAttribute('data-status', 'skipped');
  await expect(step(page, 'restart-device')).toHaveAttribute('data-status', 'skipped');
  await expect(step(page, 'start-client')).toHaveAttribute('data-status', 'ok');
  expect(await online(page, 'SSH e2e key')).toBe(true);
});

test('a wrong password, then a host key that changed: refused until forgotten', async ({ page }) => {
  const h = await host({ docker: true });
  await openForm(page);
  await fill(page, h, 'SSH e2e hostkey', { password: 'not-the-password' });
  await expect(page.getByTestId('ssh-connect-error')).toContainText('SSH_AUTH_FAILED');
  await expect(page.getByTestId('ssh-connect-error')).toContainText('SSH connection has been failed.');
  await expectAccessible(page, PANEL);
  await fill(page, h, 'SSH e2e hostkey', { password: h.password });
  await expect(page.getByTestId('ssh-status')).toHaveText('Connected');
  const first = h.fingerprint();
  await page.getByTestId('ssh-disconnect').click();
  await expect(page.getByText('Disconnected.').first()).toBeVisible();
  await h.changeHostKey();
  await page.getByTestId('ssh-another').click();
  await fill(page, h, 'SSH e2e hostkey 2', { password: h.password });
  const error = page.getByTestId('ssh-connect-error');
  await expect(error).toContainText('SSH_HOST_KEY_CHANGED');
  await expect(error).toContainText(first);
  await expect(error).toContainText(h.fingerprint());
  await page.getByTestId('ssh-forget-host-key').click();
  await expect(error).toBeHidden();
  await fill(page, h, 'SSH e2e hostkey 2', { password: h.password });
  await expect(page.getByTestId('ssh-fingerprint')).toContainText(h.fingerprint());
  await expect(page.getByTestId('ssh-fingerprint')).toContainText('pinned now');
  await page.getByTestId('ssh-disconnect').click();
});

test('a failing step stops the install with the dialog and is retried from that step', async ({ page }) => {
  test.setTimeout(120_000);
  const h = await host({ docker: true });
  h.runAsUser('mkdir -p "$HOME/.local/share/edge-agent" && chmod 0500 "$HOME/.local/share/edge-agent"');
  await openForm(page);
  await fill(page, h, 'SSH e2e retry', { password: h.password });
  await page.getByTestId('ssh-install').click();
  const dialog = page.getByRole('dialog', { name: 'Installation to SSH e2e retry has failed' });
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await expect(dialog).toContainText('download-client');
  await dialog.getByTestId('dialog-ok').click();
  await expect(page.getByTestId('ssh-step-error-download-client')).toContainText('Error SSH_STEP_FAILED');
  await expect(page.getByTestId('ssh-group-download')).toHaveAttribute('data-status', 'failed');
  await expect(step(page, 'install-client')).toHaveAttribute('data-status', 'pending');
  await expectAccessible(page, PANEL);
  h.runAsUser('chmod 0700 "$HOME/.local/share/edge-agent"');
  await page.getByTestId('ssh-retry').click();
  await closeDialog(page, 'Installation successful');
  await expect(page.getByTestId('ssh-group-download')).toHaveAttribute('data-status', 'ok');
  await expect(step(page, 'check-gpu')).toHaveAttribute('data-status', 'ok');
});

test('the unload warning while installing, and cancel mid-install', async ({ page }) => {
  const h = await host({ docker: false });
  await openForm(page);
  await fill(page, h, 'SSH e2e cancel', { password: h.password });
  await page.getByTestId('ssh-install').click();
  await expect(page.getByTestId('ssh-output-install-docker')).toContainText('apt-get');
  const seen: string[] = [];
  page.once('dialog', (d) => {
    seen.push(d.type());
    void d.dismiss();
  });
  await page.close({ runBeforeUnload: true }).catch(() => undefined);
  await expect.poll(() => seen).toEqual(['beforeunload']);
  expect(page.isClosed()).toBe(false);
  await page.getByTestId('ssh-cancel').click();
  await expect(page.getByTestId('ssh-canceled')).toBeVisible();
  await expect(step(page, 'install-docker')).toHaveAttribute('data-status', 'canceled');
  await expect(page.getByTestId('ssh-status')).toHaveText('Finished');
  // Nothing runs any more: leaving is not warned about.
  let warned = false;
  page.once('dialog', (d) => {
    warned = true;
    void d.accept();
  });
  await page.close({ runBeforeUnload: true });
  expect(warned).toBe(false);
});
