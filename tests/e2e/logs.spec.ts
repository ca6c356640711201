import { test, expect, type Page } from './fixtures';
import { expectAccessible } from './axe';
import {
  DEMO,
  apiLogin,
  resetLayout,
  connectDevices,
  listDevices,
  navigate,
  signIn,
  waitAllOnline,
} from './stack';

/**
 * Logs on the real stack (issue 16 "Logs"; §7 log, endLogProcess; §3 Log info; §9 default log count 10): a
 * sim device's logs part, the device link's progress batches and the console's logTail machine, all real.
 * A log is shown with the default 10 lines, followed live (new lines arrive with consecutive sequence numbers,
 * none lost), paused and followed again, searched, downloaded, and stopped; /logs passes axe in each state.
 */
let boxB = '';

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  // A camera page saved by an earlier test would reopen its devices' links at sign-in: start with none open.
  await resetLayout(request, token);
  boxB = (await listDevices(request, token)).res.find((d) => d.label === 'x86 Edge Box B')!.device_id;
});

const received = async (page: Page) =>
  Number(await page.getByTestId('logs-shown').getAttribute('data-received'));

test('/logs: a sim device log followed live, paused, searched, downloaded and stopped', async ({ page }) => {
  test.setTimeout(120_000);
  // The debug global (window.__edgeConsole) lets the test ask the device directly.
  await page.addInitScript(() => localStorage.setItem('edge.debug', '1'));
  await signIn(page, DEMO);
  await navigate(page, '/logs');
  await expect(page.getByTestId('logs-no-device')).toBeVisible();
  await expectAccessible(page);

  await connectDevices(page, [boxB]);
  await navigate(page, '/logs');
  await expect(page.getByTestId('logs-device')).toHaveValue(boxB);
  // §3 Log info: the sim device's topics and subtopics.
  await expect(page.getByTestId('logs-topic').locator('option')).toHaveText([
    'client',
    'stream-engine',
    'inference',
    'system',
  ]);
  await page.getByTestId('logs-topic').selectOption('stream-engine');
  await expect(page.getByTestId('logs-subtopic').locator('option').first()).not.toHaveText('–');
  await expect(page.getByTestId('logs-count')).toHaveValue('10');
  await expect(page.getByTestId('logs-follow')).toBeChecked();
  await expectAccessible(page);

  // Show: the last 10 lines (§9), then new lines as the device writes them.
  await page.getByTestId('logs-open').click();
  const viewer = page.getByTestId('logs-viewer');
  await expect(viewer).toHaveAttribute('data-status', 'following');
  const rows = page.getByTestId('log-row');
  await expect.poll(() => rows.count()).toBeGreaterThan(10);
  await expect(rows.first()).toContainText('stream-engine[');
  // The rows (windowed: only those in view are in the page) carry consecutive sequence numbers.
  const seqs = await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-seq'))));
  expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
  await expect(page.getByTestId('logs-lost')).toHaveCount(0);
  await expectAccessible(page);

  // Pause: the view stays put while lines keep arriving; follow again shows them.
  await page.getByTestId('logs-pause').click();
  await expect(viewer).toHaveAttribute('data-status', 'paused');
  const lastSeq = async () => Number(await rows.last().getAttribute('data-seq'));
  const lastAtPause = await lastSeq();
  const receivedAtPause = await received(page);
  await expect.poll(() => received(page)).toBeGreaterThan(receivedAtPause + 2);
  expect(await lastSeq()).toBe(lastAtPause);
  await page.getByTestId('logs-resume').click();
  await expect(viewer).toHaveAttribute('data-status', 'following');
  await expect.poll(lastSeq).toBeGreaterThan(receivedAtPause);

  // Search filters the rows shown.
  await page.getByTestId('logs-search').fill('kbit/s');
  await expect.poll(() => rows.count()).toBeGreaterThan(0);
  for (const text of await rows.allTextContents()) expect(text).toContain('kbit/s');
  await page.getByTestId('logs-search').fill('');

  // Download: the buffer as a .log file.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('logs-download').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/-stream-engine-.+\.log$/);

  // Stop: endLogProcess; the device stops sending, nothing more arrives.
  await page.getByTestId('logs-stop').click();
  await expect(viewer).toHaveAttribute('data-status', 'ended');
  await expect(page.getByTestId('logs-status')).toContainText('Stopped');
  // The device no longer follows it: a second endLogProcess of the same log finds nothing.
  const uuid = await viewer.getAttribute('data-uuid');
  expect(uuid).toMatch(/^page-\d+-1$/);
  const again = await page.evaluate(
    ([deviceId, uuid]) =>
      (
        window as unknown as {
          __edgeConsole: { callDevice: (d: string, p: string, x: unknown) => Promise<unknown> };
        }
      ).__edgeConsole.callDevice(deviceId, 'endLogProcess', { uuid }),
    [boxB, uuid] as const,
  );
  expect(again).toEqual({ ended: false });
  await expect(page.getByTestId('logs-lost')).toHaveCount(0);
  await expectAccessible(page);

  // Without follow: exactly the count, then done.
  await page.getByTestId('logs-follow').uncheck();
  await page.getByTestId('logs-count').fill('25');
  await page.getByTestId('logs-open').click();
  await expect(viewer).toHaveAttribute('data-status', 'ended');
  await expect(rows).toHaveCount(25);
});

test('the device page’s Logs tab reads that device’s log', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, DEMO);
  await connectDevices(page, [boxB]);
  await navigate(page, `/control-panel/devices?device=${boxB}&tab=logs`);
  const tab = page.getByTestId('logs-tab');
  await expect(tab).toBeVisible();
  await expect(tab.getByTestId('logs-topic').locator('option').first()).toHaveText('client');
  await tab.getByTestId('logs-follow').uncheck();
  await tab.getByTestId('logs-open').click();
  await expect(tab.getByTestId('logs-viewer')).toHaveAttribute('data-status', 'ended');
  // §9: the default count, 10 lines.
  await expect(tab.getByTestId('log-row')).toHaveCount(10);
  await expect(tab.getByTestId('log-row').first()).toContainText('client[agent]');
  await expectAccessible(page);
});
