/**
 * Issue 13 accounts on the real stack (embedded SMTP catcher, /dev/mailbox read by the demo admin in a second
 * browser context): register → mail in the mailbox → confirm → sign in; forgot → reset → sign in with the new
 * password (a used link → /expired); enrol TOTP and sign in with a code (a wrong code refused), codes computed
 * with otpauth from the key the page shows; axe on every screen. Each run uses a fresh address (users stay).
 */
import { expect, test, type Browser, type Page } from './fixtures';
import { Secret, TOTP } from 'otpauth';
import { expectAccessible } from './axe';
import { DEMO, signIn } from './stack';

const RUN = Date.now().toString(36);
const USER = { email: `reg-${RUN}@edge.local`, username: `Reg ${RUN}`, password: 'first-pass-2026' };
const NEW_PASSWORD = 'second-pass-2026';

/** The demo admin's mailbox page in a context of its own. */
async function openMailbox(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, DEMO);
  await page.goto('/dev/mailbox');
  await expect(page.getByTestId('mailbox')).toBeVisible();
  return page;
}

/** The first link of the newest mail to `to` whose subject matches, refreshing the mailbox until it is there. */
async function linkFromMailbox(mailbox: Page, to: string, subject: RegExp): Promise<string> {
  const message = mailbox.getByTestId('mailbox-message').filter({ hasText: to }).filter({ hasText: subject });
  await expect(async () => {
    await mailbox.getByTestId('mailbox-refresh').click();
    await expect(message.first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  const href = await message.first().getByTestId('mailbox-link').first().getAttribute('href');
  expect(href).toBeTruthy();
  return new URL(href!).pathname;
}

async function fillLogin(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-terms').check();
  await page.getByTestId('login-submit').click();
}

const totpCode = (secret: string, stepOffset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepOffset * 30_000 });

test.describe.configure({ mode: 'serial' });

test('register → mail in the mailbox → confirm → sign in', async ({ page, browser }) => {
  await page.goto('/register');
  await expect(page.getByTestId('register-form')).toBeVisible();
  await expectAccessible(page);
  // The terms agreement is required.
  await page.getByTestId('register-email').fill(USER.email);
  await page.getByTestId('register-username').fill(USER.username);
  await page.getByTestId('register-password').fill(USER.password);
  await page.getByTestId('register-submit').click();
  await expect(page.getByTestId('register-terms')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await page.getByTestId('register-terms').check();
  await page.getByTestId('register-submit').click();
  await expect(page).toHaveURL(/\/success-register$/);
  await expect(page.getByTestId('success-register')).toContainText(USER.email);
  await expectAccessible(page);

  // Not confirmed yet: login status 1 shows the confirm-mail dialog.
  await fillLogin(page, USER.email, USER.password);
  await expect(page.getByRole('dialog')).toContainText(/confirm/i);
  await expectAccessible(page);

  const mailbox = await openMailbox(browser);
  await expectAccessible(mailbox);
  const confirmPath = await linkFromMailbox(mailbox, USER.email, /Confirm your e-mail/);
  expect(confirmPath).toMatch(/^\/confirm-mail\//);
  await mailbox.context().close();

  await page.goto(confirmPath);
  await expect(page.getByTestId('confirm-mail-done')).toContainText(USER.email);
  await expectAccessible(page);
  await signIn(page, USER);
});

test('forgot → reset → sign in with the new password; the used link is expired', async ({
  page,
  browser,
}) => {
  await page.goto('/forgot-password');
  await expect(page.getByTestId('forgot-form')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('forgot-email').fill(USER.email);
  await page.getByTestId('forgot-submit').click();
  await expect(page.getByTestId('forgot-sent')).toContainText(USER.email);
  await expectAccessible(page);

  const mailbox = await openMailbox(browser);
  const resetPath = await linkFromMailbox(mailbox, USER.email, /Reset your password/);
  await mailbox.context().close();
  expect(resetPath).toMatch(/^\/forgot-password\//);

  await page.goto(resetPath);
  await expect(page.getByTestId('reset-form')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('reset-password').fill(NEW_PASSWORD);
  await page.getByTestId('reset-repeat').fill('something-else');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-repeat')).toHaveAttribute('aria-invalid', 'true');
  await page.getByTestId('reset-repeat').fill(NEW_PASSWORD);
  await page.getByTestId('reset-submit').click();
  await expect(page).toHaveURL(/\/success$/);
  await expectAccessible(page);

  await fillLogin(page, USER.email, USER.password);
  await expect(page.getByTestId('login-error')).toHaveText('The login detail is incorrect');
  await signIn(page, { email: USER.email, password: NEW_PASSWORD });

  // The link was single use.
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(resetPath);
  await fresh.getByTestId('reset-password').fill('third-pass-2026');
  await fresh.getByTestId('reset-repeat').fill('third-pass-2026');
  await fresh.getByTestId('reset-submit').click();
  await expect(fresh).toHaveURL(/\/expired$/);
  await fresh.context().close();
});

test('enrol TOTP, then sign in with a code (a wrong code refused)', async ({ page, browser }) => {
  await signIn(page, { email: USER.email, password: NEW_PASSWORD });
  await page.goto('/profile/account-information');
  await expect(page.getByTestId('two-factor-off')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('two-factor-start').click();
  const secret = (await page.getByTestId('two-factor-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('two-factor-code').fill(totpCode(secret));
  await page.getByTestId('two-factor-confirm').click();
  await expect(page.getByTestId('two-factor-codes').getByRole('listitem')).toHaveCount(10);
  await expectAccessible(page);
  await page.getByTestId('two-factor-codes-done').click();
  await expect(page.getByTestId('two-factor-on')).toContainText('10');

  const other = await (await browser.newContext()).newPage();
  await fillLogin(other, USER.email, NEW_PASSWORD);
  await expect(other).toHaveURL(/\/verification-code$/);
  await expect(other.getByTestId('verify-form')).toBeVisible();
  await expectAccessible(other);
  const valid = new Set([-1, 0, 1].map((o) => totpCode(secret, o)));
  const wrong = ['000000', '111111', '222222'].find((c) => !valid.has(c))!;
  await other.getByTestId('verify-code').fill(wrong);
  await other.getByTestId('verify-submit').click();
  await expect(other.getByTestId('verify-error')).toHaveText('The verification code is incorrect');
  await expectAccessible(other);
  // The enrolment used the current step; the next one is accepted (each step once).
  await other.getByTestId('verify-code').fill(totpCode(secret, 1));
  await other.getByTestId('verify-submit').click();
  await expect(other).toHaveURL(/\/dashboard$/);
  await other.context().close();
});
