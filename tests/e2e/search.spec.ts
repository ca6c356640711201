import { test, expect } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, listDevices, signIn, waitAllOnline } from './stack';

/**
 * Quick search in the shell on the real stack (spec §5 "minimum 2 characters, 200 ms debounce"; issue 16
 * §2): one character searches nothing, two find the demo's devices and cameras, a hit opens by keyboard,
 * and a miss says so.
 */
let boxB = '';

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  boxB = (await listDevices(request, token)).res.find((d) => d.label === 'x86 Edge Box B')!.device_id;
});

test('finds a device from 2 characters and opens it by keyboard; a miss says so', async ({ page }) => {
  let searches = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/search?')) searches += 1;
  });
  await signIn(page, DEMO);
  const box = page.getByTestId('quick-search');
  await expect(box).toHaveAccessibleName('Search devices and cameras');
  await box.fill('x');
  await expect(page.getByTestId('quick-search-results')).toBeHidden();
  expect(searches).toBe(0);

  await box.fill('box b');
  const hit = page.getByTestId(`quick-hit-${boxB}`);
  await expect(hit).toBeVisible();
  await expect(hit).toContainText('x86 Edge Box B');
  await expectAccessible(page);
  await box.press('ArrowDown');
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/control-panel/devices\\?device=${boxB}$`));
  await expect(page.getByTestId('device-page').getByRole('heading', { level: 1 })).toHaveText(
    'x86 Edge Box B',
  );
  await expect(box).toHaveValue('');

  await box.fill('no such thing');
  await expect(page.getByTestId('quick-search-results')).toContainText('Nothing matches “no such thing”.');
  await box.press('Escape');
  await expect(box).toHaveValue('');
});
