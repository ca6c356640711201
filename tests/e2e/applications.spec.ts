import { test, expect } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, navigate, signIn } from './stack';

/**
 * Applications on the real stack (§2 /applications; §3 data, page_info, features, selectedModelInfo; §7 POST
 * applications, GET features; §9 default threshold 0.3): the demo's seeded application is listed; a new
 * application is created from the demo people detector (its classes and input size shown as the selected
 * model's info, the threshold prefilled with 0.3, one class and a tracker chosen), read back through §7 POST
 * applications with pages -1, edited, and deleted after a confirmation. Axe passes on the list and the form.
 */
test('an application created from a model, edited and deleted', async ({ page, request }) => {
  const name = `E2E cars ${Date.now()}`;
  await signIn(page, DEMO);
  await navigate(page, '/applications');
  await expect(page.getByTestId('application-row-Lobby people counter')).toContainText(
    'demo-people-detector v1',
  );
  await expectAccessible(page, '[data-testid="applications-screen"]');

  await page.getByTestId('applications-add').click();
  const form = page.getByTestId('application-form');
  await expect(form).toBeVisible();
  await expect(page.getByTestId('app-threshold')).toHaveValue('0.3');
  await page.getByTestId('app-model').selectOption({ label: 'demo-people-detector' });
  await expect(page.getByTestId('app-model-info')).toContainText('person, bicycle, car');
  await expect(page.getByTestId('app-model-info')).toContainText('640×640');
  await expect(page.getByTestId('app-version')).toHaveValue(/.+/);
  // Saving without a name keeps the form, with the field marked.
  await page.getByTestId('app-save').click();
  await expect(form.getByText('Required')).toBeVisible();
  await page.getByTestId('app-name').fill(name);
  await form.getByRole('checkbox', { name: 'car', exact: true }).check();
  await page.getByTestId('app-tracker').selectOption('sort');
  await expectAccessible(page, '[role="dialog"]');
  await page.getByTestId('app-save').click();
  await expect(form).toBeHidden();

  const row = page.getByTestId(`application-row-${name}`);
  await expect(row).toContainText('demo-people-detector v1');
  await expect(row).toContainText('car');
  await expect(row).toContainText('SORT');
  await expect(row.getByTestId('app-row-threshold')).toHaveText('0.3');

  // The server has it, with the §9 default threshold.
  const token = await apiLogin(request, DEMO);
  const listed = await (
    await request.post('/api/applications', { headers: auth(token), data: { pages: -1 } })
  ).json();
  const saved = listed.app.find((a: { name: string }) => a.name === name);
  expect(saved).toMatchObject({
    threshold: 0.3,
    classes: ['car'],
    tracker: 'sort',
    model_name: 'demo-people-detector',
  });
  expect(listed.page_info.total_items).toBe(listed.app.length);

  // Edit the threshold.
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  await expect(page.getByTestId('app-model-info')).toContainText('person, bicycle, car');
  await expect(page.getByTestId('app-name')).toHaveValue(name);
  await page.getByTestId('app-threshold').fill('0.55');
  await page.getByTestId('app-save').click();
  await expect(row.getByTestId('app-row-threshold')).toHaveText('0.55');

  // Delete it (clean up).
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await expect(page.getByTestId('applications-confirm')).toContainText(name);
  await expectAccessible(page, '[role="dialog"]');
  await page.getByTestId('applications-confirm').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(row).toBeHidden();
});
