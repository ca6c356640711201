import { test, expect } from './fixtures';
import { DEMO, SECOND, signIn } from './stack';

test.describe('signed out', () => {
  test('an auth route sends the visitor to /login', async ({ page }) => {
    await page.goto('/control-panel/devices');
    await expect(page).toHaveURL(/\/login/);
  });

  test('/ goes to /dashboard and from there to /login', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login/);
  });

  test('an unknown path goes to /404', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/404$/);
  });

  test('environment-detail stays reachable without login', async ({ page }) => {
    await page.goto('/environment-detail');
    await expect(page).toHaveURL(/\/environment-detail/);
  });
});

test.describe('signed in', () => {
  test('/login sends a signed-in user to /dashboard, and the session survives a reload', async ({ page }) => {
    await signIn(page, DEMO);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a deep link to a lazily loaded screen shows the page naming it, never a blank one', async ({
    page,
  }) => {
    test.setTimeout(120_000); // two full page loads on a busy machine
    await signIn(page, DEMO);
    // Every route of the table has its screen now (the last placeholders, the faces screens, are built); a
    // full page load straight onto one loads its feature's chunk and names the page.
    await page.goto('/blacklist-faces');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/blacklist faces/i, {
      timeout: 30_000,
    });
  });

  test('a non-admin on an admin route goes to /', async ({ page }) => {
    await signIn(page, SECOND);
    await page.goto('/admin-panel');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('an admin reaches /admin-panel, which redirects to /admin-panel/dockers', async ({ page }) => {
    await signIn(page, DEMO);
    await page.goto('/admin-panel');
    await expect(page).toHaveURL(/\/admin-panel\/dockers$/);
  });

  test('/profile redirects to /profile/personal-information', async ({ page }) => {
    await signIn(page, DEMO);
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/profile\/personal-information$/);
  });

  test('a URL containing "events" goes to /events', async ({ page }) => {
    await signIn(page, DEMO);
    await page.goto('/alarm-events-archive');
    await expect(page).toHaveURL(/\/events$/);
  });

  test('sign out clears the session and returns to /login', async ({ page }) => {
    await signIn(page, DEMO);
    await page.getByRole('button', { name: DEMO.email }).click();
    await page.getByRole('menuitem', { name: /sign out|log ?out/i }).click();
    await expect(page).toHaveURL(/\/login/);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login/);
  });
});
