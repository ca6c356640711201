/**
 * Issue 13 licences, pricing and payments on the real stack (offline test provider, embedded SMTP catcher):
 * pricing readable signed out (the test provider named); a declined test card shows the provider's message
 * and creates nothing; checkout with a new card, saved → a licence appears in My licences and a receipt in the
 * mailbox; the saved card is offered next time; an admin grants and revokes a licence on /admin-panel/licences
 * and both are in the audit log; a non-admin gets 403 from the admin licence calls. axe on every screen.
 */
import { expect, test, type Page } from './fixtures';
import { expectAccessible } from './axe';
import { apiLogin, auth, DEMO, listDevices, navigate, SECOND, signIn } from './stack';

test.describe.configure({ mode: 'serial' });

/** Goes through the plan and address steps of /checkout for Device Pro (monthly) on Second Box. */
async function toCardStep(page: Page, deviceId: string) {
  await navigate(page, `/checkout?plan=device-pro-monthly&device=${deviceId}`);
  const state = page.getByTestId('checkout-state');
  await expect(state).toHaveAttribute('data-state', 'plan', { timeout: 30_000 }); // a loaded machine is slow to fetch chunks
  await expect(page.getByTestId('checkout-summary')).toContainText('Second Box');
  await page.getByTestId('checkout-next').click();
  await expect(state).toHaveAttribute('data-state', 'address');
}

test('pricing is readable signed out and names the offline test provider', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByTestId('pricing-plan-free')).toContainText('16 concurrent streams per device');
  await expect(page.getByTestId('pricing-plan-device-pro-monthly')).toContainText('32 concurrent streams');
  await expect(page.getByTestId('pricing-provider')).toContainText('offline test provider');
  await expect(page.getByRole('link', { name: /Sign in to buy Device Pro \(monthly\)/ })).toBeVisible();
  await expectAccessible(page);
});

test('a declined card shows a clear error and creates nothing; a new saved card pays and the licence appears', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000); // seven axe runs on a shared machine
  const token = await apiLogin(request, SECOND);
  const box = (await listDevices(request, token)).res.find((d) => d.label === 'Second Box')!;
  const licencesBefore = (await (await request.get('/api/billing/licences', { headers: auth(token) })).json())
    .licences.length as number;
  await signIn(page, SECOND);

  await toCardStep(page, box.device_id);
  // Going on with nothing typed shows each missing field.
  await page.getByTestId('checkout-next').click();
  await expect(page.getByLabel('Full name')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await page.getByLabel('Full name').fill('Second User');
  await page.getByLabel('Street address').fill('2 Lens Road');
  await page.getByLabel('City').fill('Berlin');
  await page.getByLabel('Country').fill('Germany');
  await page.getByLabel('Save this address for next time').check();
  await page.getByLabel('Name of this address (e.g. Office)').fill('Office');
  await page.getByTestId('checkout-next').click();
  const state = page.getByTestId('checkout-state');
  await expect(state).toHaveAttribute('data-state', 'card');
  await expect(page.getByTestId('checkout-test-cards')).toContainText('4000 0000 0000 0002');
  await expectAccessible(page);

  // Declined: the provider's message, nothing stored.
  const year = String(new Date().getFullYear() + 2);
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByLabel('Expiry month (MM)').fill('12');
  await page.getByLabel('Expiry year (YY or YYYY)').fill(year);
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByLabel(/Save this card/).check();
  await page.getByTestId('checkout-pay').click();
  await expect(page.getByTestId('checkout-declined')).toContainText('Your card was declined.');
  await expectAccessible(page);
  const after = await (await request.get('/api/billing/licences', { headers: auth(token) })).json();
  expect(after.licences).toHaveLength(licencesBefore);
  expect((await (await request.get('/api/get-payment-cards', { headers: auth(token) })).json()).res).toEqual(
    [],
  );
  expect((await (await request.get('/api/get-user-address', { headers: auth(token) })).json()).res).toEqual(
    [],
  );

  // Another card: paid, licence and card saved (last 4 only).
  await page.getByRole('button', { name: 'Change the card' }).click();
  await expect(state).toHaveAttribute('data-state', 'card');
  await expect(page.getByLabel('Card number')).toHaveValue('');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByTestId('checkout-pay').click();
  await expect(page.getByTestId('checkout-paid')).toContainText('Payment received');
  await expectAccessible(page);
  const cards = (await (await request.get('/api/get-payment-cards', { headers: auth(token) })).json()).res;
  expect(cards).toEqual([expect.objectContaining({ last4: '4242', default: true })]);

  await page.getByRole('link', { name: 'See my licences' }).click();
  await expect(page).toHaveURL(/\/profile\/my-licences$/);
  const rows = page.locator('[data-testid^="licence-"]');
  await expect(rows).toHaveCount(licencesBefore + 1);
  await expect(rows.first()).toContainText('Device Pro (monthly)');
  await expect(rows.first()).toContainText(`Second Box (${box.device_id})`);
  await expect(rows.first()).toContainText('32 concurrent streams');
  await expect(rows.first()).toHaveAttribute('data-state', /active|expiring|scheduled/);
  await expectAccessible(page);

  // Next time the saved card and address are offered first.
  await toCardStep(page, box.device_id);
  await expect(page.getByRole('radio', { name: /Office: 2 Lens Road, Berlin, Germany/ })).toBeChecked();
  await page.getByTestId('checkout-next').click();
  await expect(page.getByRole('radio', { name: /Visa •••• 4242/ })).toBeChecked();
});

test('the receipt is in the development mailbox', async ({ page }) => {
  await signIn(page, DEMO);
  await navigate(page, '/dev/mailbox');
  const receipt = page
    .getByTestId('mailbox-message')
    .filter({ hasText: SECOND.email })
    .filter({ hasText: 'Your receipt: Device Pro (monthly)' });
  await expect(async () => {
    await page.getByTestId('mailbox-refresh').click();
    await expect(receipt.first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(receipt.first()).toContainText('no money moved');
});

test('an admin grants and revokes a licence, both in the audit log; others are refused', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const second = await apiLogin(request, SECOND);
  expect((await request.get('/api/admin/licences', { headers: auth(second) })).status()).toBe(403);
  expect(
    (
      await request.post('/api/admin/licences', {
        headers: auth(second),
        data: { email: SECOND.email, plan_id: 'priority-support' },
      })
    ).status(),
  ).toBe(403);

  await signIn(page, DEMO);
  await navigate(page, '/admin-panel/licences');
  await expect(page.getByTestId('admin-licences')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Grant a licence' }).click();
  const form = page.getByTestId('admin-licences-grant');
  await form.getByLabel('User’s e-mail').fill(SECOND.email);
  await form.getByLabel(/^Plan/).selectOption('priority-support');
  await form.getByLabel(/Days/).fill('30');
  await expectAccessible(page);
  await form.getByRole('button', { name: 'Grant', exact: true }).click();
  await expect(page.getByTestId('admin-licences-status')).toContainText('Licence granted.');

  const admin = await apiLogin(request, DEMO);
  const grantedId = async () => {
    const log = await (
      await request.get('/api/admin/audit-log?action=licence.grant', { headers: auth(admin) })
    ).json();
    return (log.entries as Array<{ target_id: string; details: { user?: string } }>).find(
      (e) => e.details.user === SECOND.email,
    )?.target_id;
  };
  await expect.poll(grantedId).toBeTruthy();
  const granted = (await grantedId())!;
  const row = page.getByTestId(`admin-licence-${granted}`);
  await expect(row).toContainText('Priority support');
  await row.getByRole('button', { name: /Revoke Priority support of second@edge.local/ }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Revoke this licence?');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Revoke now' }).click();
  await expect(page.getByTestId('admin-licences-status')).toContainText('Licence revoked.');
  await expect(row).toHaveAttribute('data-state', 'revoked');

  const revokes = await (
    await request.get('/api/admin/audit-log?action=licence.revoke', { headers: auth(admin) })
  ).json();
  expect((revokes.entries as Array<{ target_id: string }>).map((e) => e.target_id)).toContain(granted);

  // The holder sees it as revoked.
  const mine = await (await request.get('/api/billing/licences', { headers: auth(second) })).json();
  expect(mine.licences).toContainEqual(expect.objectContaining({ id: granted, state: 'revoked' }));
});
