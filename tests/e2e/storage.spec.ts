import { test, expect, type Page } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, connectDevices, listDevices, signIn, waitAllOnline } from './stack';

/**
 * Storage on the real stack (issue 16 "Storage"; §7 get-total-storage-info, get-occupied-storage-of-directory,
 * the three image kinds, delete of product data; §3 Storage item): the sim Jetson's storage part, the device
 * link's progress messages and the console's storage and directoryScan machines, all real. The device page's
 * Storage tab shows the 64 GB eMMC with its usage, scans a folder with progress into a largest-folders chart,
 * cancels a scan, lists the three image kinds, and deletes the recordings only once confirmed; axe passes on
 * the tab and on the confirmation dialog.
 */
let jetson = '';

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  jetson = (await listDevices(request, token)).res.find((d) => d.label === 'Jetson Orin Gate')!.device_id;
});

/** Client-side navigation to the device page's Storage tab (a reload would close the device link). */
async function openStorageTab(page: Page, deviceId: string) {
  const url = `/control-panel/devices?device=${encodeURIComponent(deviceId)}&tab=storage`;
  await page.evaluate((p) => {
    history.pushState({}, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, url);
  await expect(page.getByTestId('storage-tab')).toBeVisible();
}

/** Records every text the scan's progress line shows (a MutationObserver sees each render). */
async function recordProgress(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __scanProgress: string[] }).__scanProgress = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="storage-scan-progress"]')) {
        const text = el.textContent ?? '';
        if (seen[seen.length - 1] !== text) seen.push(text);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

test('Storage tab: disks, a folder scan with progress, the image kinds and a confirmed delete', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO);
  await connectDevices(page, [jetson]);
  await openStorageTab(page, jetson);

  // Disks: the sim Jetson's 64 GB eMMC, its usage as a named bar and as text.
  const disks = page.getByTestId('storage-filesystems');
  await expect(disks.locator('tr[data-mount="/"]')).toContainText('/dev/mmcblk0p1');
  await expect(disks.locator('tr[data-mount="/"]')).toContainText(/of 53\.9 GiB used \(\d+ %\)/);
  await expect(page.getByRole('progressbar', { name: 'Used space on /' })).toBeVisible();
  const usedBefore = await disks.locator('tr[data-mount="/"] td').nth(2).innerText();

  // §3 Storage item: the three image kinds with RepoTags and Size.
  await expect(page.getByTestId('storage-images-product')).toContainText('edge/python:3.11');
  await expect(page.getByTestId('storage-images-inference-engine')).toContainText(
    'nvcr.io/nvidia/deepstream-l4t:6.3-triton-multiarch',
  );
  await expect(page.getByTestId('storage-images-companion')).toContainText('redis:7-alpine');
  await expectAccessible(page);

  // A scan of '/': progress while the device walks, then the largest folders.
  await recordProgress(page);
  await page.getByLabel('Folder', { exact: true }).fill('/');
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  const scan = page.getByTestId('storage-scan').first();
  await expect(scan).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  const progress = await page.evaluate(
    () => (window as unknown as { __scanProgress: string[] }).__scanProgress,
  );
  expect(progress.length).toBeGreaterThan(1);
  const files = progress.map((text) => Number(/^([\d,]+) files/.exec(text)![1]!.replace(/,/g, '')));
  expect(files).toEqual([...files].sort((a, b) => a - b));
  const chart = scan.getByTestId('storage-largest');
  await expect(chart.getByRole('rowheader').first()).toHaveText('var');
  await expect(chart.locator('caption')).toHaveText('Largest folders in /');
  await expectAccessible(page);

  // A scan canceled on the way (the newest scan is listed first).
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  const second = page.getByTestId('storage-scan').first();
  await second.getByRole('button', { name: 'Cancel the scan of /' }).click();
  await expect(second).toHaveAttribute('data-status', 'canceled');

  // Delete of product data asks first; Cancel deletes nothing.
  const recordings = page.getByTestId('storage-product-data').locator('tr[data-folder="recordings"]');
  const sizeBefore = await recordings.locator('td').nth(1).innerText();
  expect(sizeBefore).toMatch(/GiB$/);
  await page.getByRole('button', { name: 'Delete Recordings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Recordings?' });
  await expect(dialog).toContainText('/var/lib/edge-agent/product-data/recordings');
  await expectAccessible(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(recordings.locator('td').nth(1)).toHaveText(sizeBefore);

  // Confirmed: the recordings are gone and the disk has that space back.
  await page.getByRole('button', { name: 'Delete Recordings' }).click();
  await dialog.getByTestId('storage-delete-confirm').click();
  await expect(page.getByTestId('storage-deleted')).toContainText(`freed`);
  await expect(recordings.locator('td').nth(1)).toHaveText('0 B');
  await expect(disks.locator('tr[data-mount="/"] td').nth(2)).not.toHaveText(usedBefore);
  await expectAccessible(page);
});
