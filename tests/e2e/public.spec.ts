/**
 * Issue 13 public pages on the real stack: the five policy pages and /policies readable signed out, with their
 * links between them; the contact form checks its fields, stores and mails the message (seen in the demo
 * admin's development mailbox, addressed to CONTACT_MAIL_TO's default); signed in it starts with the account's
 * e-mail. axe on every screen.
 */
import { expect, test } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, navigate, SECOND, signIn } from './stack';

const RUN = Date.now().toString(36);

test.describe.configure({ mode: 'serial' });

test('the policies are readable signed out', async ({ page }) => {
  await page.goto('/policies');
  await expect(page).toHaveURL(/\/policies\/privacy-policy$/);
  const policy = page.getByTestId('policy');
  await expect(policy.getByRole('heading', { level: 1 })).toHaveText('Privacy policy');
  await expect(policy).toContainText('never the password itself');
  await expectAccessible(page);
  for (const [slug, title] of [
    ['cookie-policy', 'Cookie policy'],
    ['terms-conditions', 'Terms and conditions'],
    ['user-guidelines', 'User guidelines'],
    ['legal-guidelines', 'Legal guidelines'],
  ] as const) {
    await policy.getByRole('link', { name: title }).click();
    await expect(page).toHaveURL(new RegExp(`/policies/${slug}$`));
    await expect(policy).toHaveAttribute('data-policy', slug);
    await expect(policy.getByRole('heading', { level: 1 })).toHaveText(title);
    await expectAccessible(page);
  }
});

test('the contact form checks, stores and mails a message', async ({ page, browser }) => {
  await page.goto('/contact');
  const form = page.getByTestId('contact');
  await form.getByRole('button', { name: 'Send message' }).click();
  await expect(form.getByLabel('Your name')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Your name')).toBeFocused();
  await expectAccessible(page);
  await form.getByLabel('Your name').fill('Visitor');
  await form.getByLabel('Your e-mail address').fill('not-an-address');
  await form.getByLabel('Subject').fill(`Volume pricing ${RUN}`);
  await form.getByLabel('Message').fill('short');
  await form.getByRole('button', { name: 'Send message' }).click();
  await expect(form.getByText('Enter a valid e-mail address.')).toBeVisible();
  await expect(form.getByText('Write at least 10 characters.')).toBeVisible();
  await form.getByLabel('Your e-mail address').fill(`visitor-${RUN}@example.test`);
  await form.getByLabel('Message').fill('We run 40 Jetsons: is there a volume price?');
  await form.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByTestId('contact-sent')).toContainText(`visitor-${RUN}@example.test`);
  await expectAccessible(page);

  // The mail reached the configured address (the embedded catcher's mailbox, read by the demo admin).
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, DEMO);
  await navigate(admin, '/dev/mailbox');
  const mail = admin.getByTestId('mailbox-message').filter({ hasText: `Contact: Volume pricing ${RUN}` });
  await expect(async () => {
    await admin.getByTestId('mailbox-refresh').click();
    await expect(mail.first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(mail.first()).toContainText('support@edge.local');
  await expect(mail.first()).toContainText(`From: Visitor <visitor-${RUN}@example.test>`);
  await expect(mail.first()).toContainText('We run 40 Jetsons');
});

test('signed in, the contact form and the pricing page show in the main layout', async ({ page }) => {
  await signIn(page, SECOND);
  await navigate(page, '/contact');
  await expect(page.getByTestId('contact').getByLabel('Your e-mail address')).toHaveValue(SECOND.email);
  await expectAccessible(page);
  await navigate(page, '/pricing');
  await expect(page.getByRole('link', { name: 'Buy Device Pro (monthly)' })).toHaveAttribute(
    'href',
    '/checkout?plan=device-pro-monthly',
  );
  await expectAccessible(page);
});
