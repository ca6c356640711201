import { test, expect, type Page } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, connectDevices, listDevices, signIn, waitAllOnline } from './stack';

/**
 * Power on the real stack (issue 16 §1 "Power"; §7 restartDevice, check-sudo-saved, check-sudo,
 * remove-saved-sudo; §5 sudo dialog texts; §8 "Success"): a sim x86 box's power part, the device link and the
 * console's power machines, all real. A reboot is confirmed, the sudo dialog refuses an empty and a wrong
 * password with the §5 texts, takes the sim password (default 'edge-sim'), shows §8 "Success", and the device
 * goes off the air and comes back online by itself; axe passes on the tab and on both dialogs.
 */
let boxA = '';

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  boxA = (await listDevices(request, token)).res.find((d) => d.label === 'x86 Edge Box A')!.device_id;
});

/** Client-side navigation to the device page's Power tab (a reload would close the device link). */
async function openPowerTab(page: Page, deviceId: string) {
  const url = `/control-panel/devices?device=${encodeURIComponent(deviceId)}&tab=power`;
  await page.evaluate((p) => {
    history.pushState({}, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, url);
  await expect(page.getByTestId('power-tab')).toBeVisible();
}

test('Power tab: reboot of a sim device with the sudo dialog, Success, and the device back by itself', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signIn(page, DEMO);
  await connectDevices(page, [boxA]);
  await openPowerTab(page, boxA);

  // Saved sudo password: a previous run may have saved one on the sim device (its state persists): remove it.
  const saved = page.getByTestId('power-sudo-saved');
  await expect(saved).toHaveAttribute('data-saved', /^(true|false)$/);
  if ((await saved.getAttribute('data-saved')) === 'true') {
    await page.getByRole('button', { name: 'Remove the saved sudo password' }).click();
  }
  await expect(saved).toHaveAttribute('data-saved', 'false');
  await expect(saved).toHaveText('No');
  await expectAccessible(page);

  // Reboot → confirmation dialog.
  await page.getByTestId('power-reboot').click();
  const confirm = page.getByRole('dialog', { name: 'Reboot the device?' });
  await expect(confirm).toBeVisible();
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Confirm' }).click();

  // The sudo dialog (§5): empty, then wrong, then the sim's password — submitted with the keyboard.
  const sudo = page.getByRole('dialog', { name: 'Sudo password' });
  await expect(sudo).toBeVisible();
  const password = sudo.getByLabel('Password', { exact: true });
  await password.press('Enter');
  await expect(sudo).toContainText('Password field can not be empty');
  await password.fill('not-the-password');
  await password.press('Enter');
  await expect(sudo).toContainText('Invalid Password.');
  await expect(password).toHaveValue('');
  await expectAccessible(page);
  await password.fill('edge-sim');
  await password.press('Enter');
  await expect(sudo).toBeHidden();

  // §8 "Success" ("may take a few minutes"), the device off the air, then back online by itself.
  await expect(page.getByText('Success', { exact: true }).first()).toBeVisible();
  const status = page.getByTestId('power-status');
  await expect(status).toHaveAttribute('data-step', /waitingOffline|waitingOnline|done/);
  await expect(status).toHaveAttribute('data-step', 'done', { timeout: 90_000 });
  await expect(status).toContainText('Done: the device is back online.');
  await expect(page.getByTestId('power-reboot')).toBeEnabled();
  // The link is open again: the device answers (its saved-sudo state is read again).
  await expect(saved).toHaveAttribute('data-saved', 'false');
  await page.getByTestId('power-dismiss').click();
  await expect(status).toBeHidden();
});

test('Power tab: a wrong sudo password is refused and cancel leaves the device alone', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, DEMO);
  await connectDevices(page, [boxA]);
  await openPowerTab(page, boxA);
  await expect(page.getByTestId('power-sudo-saved')).toHaveAttribute('data-saved', 'false');

  await page.getByTestId('power-shutdown').click();
  await page
    .getByRole('dialog', { name: 'Shut down the device?' })
    .getByRole('button', { name: 'Confirm' })
    .click();
  const sudo = page.getByRole('dialog', { name: 'Sudo password' });
  await sudo.getByLabel('Password', { exact: true }).fill('wrong-one');
  await sudo.getByRole('button', { name: 'Continue' }).click();
  await expect(sudo).toContainText('Invalid Password.');
  await page.keyboard.press('Escape');
  await expect(sudo).toBeHidden();
  await expect(page.getByTestId('power-status')).toHaveAttribute('data-step', 'cancelled');
  await expect(page.getByTestId('power-shutdown')).toBeEnabled();
});
