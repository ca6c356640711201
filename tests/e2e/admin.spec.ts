import { test, expect, type APIRequestContext } from './fixtures';
import { ACCOUNT_DISABLED_TEXT } from '../../src/protocol/admin';
import type { RestRoute } from '../../src/protocol/route';
import { restRoutes } from '../../src/protocol/routes';
import { expectAccessible } from './axe';
import { DEMO, SECOND, apiLogin, auth, navigate, signIn } from './stack';

/**
 * The admin panel on the real stack (issue 13 "Admin panel"; §2 /admin-panel/*, §6 role admin): an admin
 * disables a user, who is then refused at sign-in and whose open session's next API call is refused, and
 * enables them again; the audit log shows both; a non-admin gets 403 from every admin endpoint and is sent to
 * / by the route guard; axe passes on each admin screen.
 */
const DISPOSABLE = { email: 'disposable@edge.local', password: 'disposable-edge-2026' };
const SOME_ID = '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11';

/** The disposable user's id, enabled (an interrupted earlier attempt may have left them disabled). */
async function enabledDisposable(request: APIRequestContext, token: string): Promise<string> {
  const res = await request.get('/api/admin/users?search=disposable%40edge.local', { headers: auth(token) });
  const user = (await res.json()).users[0] as { id: string; disabled_at: string | null };
  if (user.disabled_at) await request.post(`/api/admin/users/${user.id}/enable`, { headers: auth(token) });
  return user.id;
}

test('a non-admin gets 403 from every admin endpoint and is sent to / by the guard', async ({
  page,
  request,
}) => {
  const token = await apiLogin(request, SECOND);
  const admin = Object.entries(restRoutes as Record<string, RestRoute>).filter(([, r]) => r.auth === 'admin');
  expect(admin.length).toBeGreaterThanOrEqual(11);
  for (const [name, route] of admin) {
    const url = route.path.replace(/:[A-Za-z_]\w*/g, SOME_ID);
    const res = await request.fetch(url, {
      method: route.method,
      headers: auth(token),
      ...(route.method === 'GET' ? {} : { data: {} }),
    });
    expect(res.status(), name).toBe(403);
  }
  await signIn(page, SECOND);
  for (const path of ['/admin-panel/users', '/admin-panel/clients', '/admin-panel/audit-log']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/dashboard$/);
  }
});

test('an admin disables a user (refused at sign-in, open session refused), enables them; the audit log shows it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000); // two signed-in browsers and four axe runs on a shared machine
  const adminToken = await apiLogin(request, DEMO);
  await enabledDisposable(request, adminToken);
  // The user's open session: a signed-in tab and an access token.
  const theirs = await browser.newContext();
  const theirPage = await theirs.newPage();
  await signIn(theirPage, DISPOSABLE);
  const theirToken = await apiLogin(request, DISPOSABLE);

  await signIn(page, DEMO);
  await navigate(page, '/admin-panel/users');
  await page.getByTestId('admin-users-search').fill('disposable');
  const row = page.getByTestId(`admin-user-row-${DISPOSABLE.email}`);
  await expect(row).toBeVisible();
  await expect(page.getByTestId('admin-users-table').locator('tbody tr')).toHaveCount(1);
  await expectAccessible(page, '[data-testid="admin-users-screen"]');

  await row.getByRole('button', { name: `Actions for ${DISPOSABLE.email}` }).click();
  await page.getByTestId('admin-user-action-disable').click();
  await expect(page.getByRole('dialog')).toContainText(`Disable ${DISPOSABLE.email}?`);
  await expectAccessible(page, '[role="dialog"]');
  await page.getByTestId('admin-user-action-confirm').click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(row.getByTestId('admin-user-status')).toHaveText('Disabled');

  // Their open session's next call is refused, and their tab goes back to the login page.
  const next = await request.get('/api/user-info', { headers: auth(theirToken) });
  expect(next.status()).toBe(401);
  expect((await next.json()).message).toBe(ACCOUNT_DISABLED_TEXT);
  await theirPage.reload();
  await expect(theirPage).toHaveURL(/\/login/);
  // Signing in is refused with a clear message.
  await theirPage.getByTestId('login-email').fill(DISPOSABLE.email);
  await theirPage.getByTestId('login-password').fill(DISPOSABLE.password);
  await theirPage.getByTestId('login-terms').check();
  await theirPage.getByTestId('login-submit').click();
  await expect(theirPage.getByTestId('login-error')).toContainText(ACCOUNT_DISABLED_TEXT);

  // Enabled again, they sign in.
  await row.getByRole('button', { name: `Actions for ${DISPOSABLE.email}` }).click();
  await page.getByTestId('admin-user-action-enable').click();
  await page.getByTestId('admin-user-action-confirm').click();
  await expect(row.getByTestId('admin-user-status')).toHaveText('Active');
  await theirPage.getByTestId('login-submit').click();
  await expect(theirPage).toHaveURL(/\/dashboard$/);
  await theirs.close();

  // The audit log shows both actions and the security events between them, newest first: their sign-in once
  // enabled, the enable, their refused sign-in while disabled, the disable.
  await navigate(page, '/admin-panel/audit-log');
  const rows = page.getByTestId('admin-audit-row');
  const expected = [
    ['auth.sign_in', DISPOSABLE.email, 'password'],
    ['user.enable', DEMO.email, DISPOSABLE.email],
    ['auth.sign_in_failed', DISPOSABLE.email, 'disabled'],
    ['user.disable', DEMO.email, DISPOSABLE.email],
  ];
  for (const [i, [action, who, text]] of expected.entries()) {
    await expect(rows.nth(i)).toHaveAttribute('data-action', action!);
    await expect(rows.nth(i)).toContainText(who!);
    await expect(rows.nth(i)).toContainText(text!);
  }
  await expectAccessible(page, '[data-testid="admin-audit-screen"]');
  await page.getByTestId('admin-audit-action').click();
  await page.getByRole('option', { name: 'user.disable' }).click();
  await page.getByTestId('admin-audit-apply').click();
  await expect(rows.first()).toHaveAttribute('data-action', 'user.disable');
  for (const r of await rows.all()) await expect(r).toHaveAttribute('data-action', 'user.disable');
});

test('clients, inferences, engines and engine back-ends screens (axe); inference-url follows the table', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000); // five axe runs on a shared machine
  await signIn(page, DEMO);
  await navigate(page, '/admin-panel/clients');
  // The demo fleet and the seeded users' boxes, with their owners; the demo's devices connect.
  await expect(page.getByTestId('admin-clients-table')).toContainText('second@edge.local');
  await expect(page.getByTestId('admin-clients-table')).toContainText('Online');
  await expectAccessible(page, '[data-testid="admin-clients-screen"]');

  await navigate(page, '/admin-panel/engines/inferences');
  await expect(page.getByTestId('admin-inferences-table')).toBeVisible();
  await expect(page.getByTestId('admin-inferences-total')).toContainText('in all');
  await expectAccessible(page, '[data-testid="admin-inferences-screen"]');

  await navigate(page, '/admin-panel/engines');
  await expectAccessible(page, '[data-testid="admin-engines-screen"]');
  await page.getByRole('link', { name: 'Engine back-ends' }).first().click();
  await expect(page.getByTestId('admin-backend-row-jetpack-5.1')).toContainText(
    'edge/inference-engine:l4t-r35.4',
  );
  await expectAccessible(page, '[data-testid="admin-backends-screen"]');

  // A new row for JetPack 7.0 answers inference-url, then goes.
  const token = await apiLogin(request, SECOND);
  const ask = async () =>
    (
      await (
        await request.post('/api/inference-url', {
          headers: auth(token),
          data: { jetpack_version: '7.0.1', driver_version: null },
        })
      ).json()
    ).data;
  expect(await ask()).toBe(false);
  await page.getByTestId('admin-backends-add').click();
  await page.getByRole('textbox', { name: 'Version' }).fill('7.0');
  await page.getByRole('textbox', { name: 'Engine image' }).fill('edge/inference-engine:l4t-r38.0');
  await expectAccessible(page, '[role="dialog"]');
  await page.getByTestId('admin-backend-save').click();
  const added = page.getByTestId('admin-backend-row-jetpack-7.0');
  await expect(added).toBeVisible();
  expect(await ask()).toBe('edge/inference-engine:l4t-r38.0');
  await added.getByRole('button', { name: 'Remove JetPack 7.0' }).click();
  await page.getByTestId('admin-backend-remove-confirm').click();
  await expect(added).toBeHidden();
  expect(await ask()).toBe(false);
});
