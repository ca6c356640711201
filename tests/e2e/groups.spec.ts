import { test, expect, type Page } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, navigate, signIn } from './stack';

/**
 * Group filtering on the real stack (issue 16 §2 groups, "Done when"): in the groups manager opened from the
 * device list, create a group and one inside it, put a device into the inner one and filter the device table
 * by the outer one (descendants count); on the camera page, filter the camera list by a camera group and put
 * an IP camera into it; rename; delete with the confirmation naming the subgroups. Axe checks the manager and
 * both lists.
 */
const EM = '\u2003';
let parkingId = '';

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  // Start clean: groups an interrupted earlier attempt left behind (a retry would meet "already exists").
  for (const groupType of ['device', 'camera']) {
    const list = await request.get(`/api/groups?group_type=${groupType}`, { headers: auth(token) });
    for (const g of (await list.json()).groups as { id: string; name: string }[]) {
      if (g.name.startsWith('E2E ')) await request.delete(`/api/groups/${g.id}`, { headers: auth(token) });
    }
  }
  const res = await request.get('/api/ip-cameras', { headers: auth(token) });
  parkingId = (await res.json()).data.data.find(
    (c: { label: string }) => c.label === 'Parking entrance (IP)',
  ).id;
});

const manager = (page: Page) => page.getByTestId('groups-manager');
const notice = (page: Page) => page.getByTestId('groups-notice');

async function createGroup(page: Page, name: string, parent?: string) {
  await manager(page).getByTestId('groups-name').fill(name);
  if (parent) await manager(page).getByTestId('groups-parent').selectOption({ label: parent });
  await manager(page).getByTestId('groups-create').click();
  await expect(notice(page)).toHaveText('Group created.');
  await expect(manager(page).locator(`[data-group="${name}"]`)).toBeVisible();
}

test('groups: create, nest, assign, filter the device table and the camera list, rename, delete', async ({
  page,
}) => {
  await signIn(page, DEMO);
  await navigate(page, '/control-panel/devices');
  await expect(page.getByTestId('devices-table').locator('tbody tr')).not.toHaveCount(0);

  // Create a group and one inside it.
  await page.getByTestId('groups-open-device').click();
  await expect(manager(page)).toBeVisible();
  await createGroup(page, 'E2E Site');
  await createGroup(page, 'E2E Hall', 'E2E Site');

  // A duplicate name is refused with a clear message.
  await manager(page).getByTestId('groups-name').fill('E2E Site');
  await manager(page).getByTestId('groups-create').click();
  await expect(page.getByTestId('groups-error')).toHaveText('A group with this name already exists.');

  // Put a device into the inner group.
  await manager(page)
    .getByRole('checkbox', { name: /^x86 Edge Box B — / })
    .check();
  await manager(page)
    .getByTestId('groups-assign-target')
    .selectOption({ label: `${EM}E2E Hall` });
  await manager(page).getByTestId('groups-assign').click();
  await expect(notice(page)).toHaveText('Assignment saved.');
  await expect(manager(page).getByRole('checkbox', { name: /^x86 Edge Box B — / })).toHaveAccessibleName(
    'x86 Edge Box B — now in: E2E Hall',
  );
  await expectAccessible(page);

  // Rename by keyboard.
  await manager(page).getByRole('button', { name: 'Rename E2E Hall' }).click();
  const field = manager(page).getByRole('textbox', { name: 'New name of E2E Hall' });
  await field.fill('E2E Hall 1');
  await field.press('Enter');
  await expect(notice(page)).toHaveText('Group renamed.');
  await expect(manager(page).locator('[data-group="E2E Hall 1"]')).toBeVisible();

  // Move it to the top level and back inside (the choice of places leaves out the group itself).
  const moveTo = manager(page).getByRole('combobox', { name: 'Move E2E Hall 1 to' });
  await expect(moveTo.locator('option')).not.toContainText(['E2E Hall 1']);
  await moveTo.selectOption({ label: 'Top level' });
  await manager(page).getByRole('button', { name: 'Move E2E Hall 1 to' }).click();
  await expect(notice(page)).toHaveText('Group moved.');
  await expect(moveTo).toHaveValue('');
  await moveTo.selectOption({ label: 'E2E Site' });
  await manager(page).getByRole('button', { name: 'Move E2E Hall 1 to' }).click();
  await expect(notice(page)).toHaveText('Group moved.');
  await expect(moveTo).not.toHaveValue('');
  await page.keyboard.press('Escape');
  await expect(manager(page)).toBeHidden();

  // Filter the device table by the outer group: the device in its subgroup is listed, alone.
  await page.getByTestId('group-filter-device').selectOption({ label: 'E2E Site' });
  const rows = page.getByTestId('devices-table').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('x86 Edge Box B');
  await expectAccessible(page);
  await page.getByTestId('group-filter-device').selectOption({ label: 'All groups' });
  await expect(rows).not.toHaveCount(1);

  // The camera list: an empty camera group hides the IP camera; assigned to it, it is listed again.
  await navigate(page, '/control-panel/cameras');
  const parking = page.getByTestId(`ip-camera-open-${parkingId}`);
  await expect(parking).toBeVisible();
  await page.getByTestId('groups-open-camera').click();
  await createGroup(page, 'E2E Cams');
  await page.keyboard.press('Escape');
  await page.getByTestId('group-filter-camera').selectOption({ label: 'E2E Cams' });
  await expect(parking).toBeHidden();
  await page.getByTestId('groups-open-camera').click();
  await manager(page)
    .getByRole('checkbox', { name: /^Parking entrance \(IP\) — / })
    .check();
  await manager(page).getByTestId('groups-assign-target').selectOption({ label: 'E2E Cams' });
  await manager(page).getByTestId('groups-assign').click();
  await expect(notice(page)).toHaveText('Assignment saved.');
  await page.keyboard.press('Escape');
  await expect(parking).toBeVisible();
  await expectAccessible(page);

  // Delete the camera group: the filter falls back to all.
  await page.getByTestId('groups-open-camera').click();
  await manager(page).getByRole('button', { name: 'Delete E2E Cams' }).click();
  await page.getByTestId('groups-confirm-delete').click();
  await expect(notice(page)).toHaveText('Group deleted.');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('group-filter-camera')).toHaveValue('');

  // Delete the device group: the confirmation says its subgroup goes too; the device stays, ungrouped.
  await navigate(page, '/control-panel/devices');
  await page.getByTestId('groups-open-device').click();
  await manager(page).getByRole('button', { name: 'Delete E2E Site' }).click();
  await expect(page.getByTestId('groups-confirm')).toContainText('Its subgroups (1) are deleted too.');
  await expectAccessible(page);
  await page.getByTestId('groups-confirm-delete').click();
  await expect(notice(page)).toHaveText('Group deleted.');
  await expect(manager(page).locator('[data-group="E2E Hall 1"]')).toHaveCount(0);
  await expect(manager(page).getByRole('checkbox', { name: /^x86 Edge Box B — / })).toHaveAccessibleName(
    'x86 Edge Box B — now in: No group',
  );
});
