import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type Page } from './fixtures';
import * as tar from 'tar';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, connectDevices, listDevices, signIn, waitAllOnline } from './stack';

/**
 * The client update on the real stack (issue 16 §1 "Software"; §4 client update; §8 update failures; §9
 * restart 10 s after confirm): the demo admin publishes an agent release over REST (a small gzip tar bundle as
 * the raw body), a sim x86 box's software part asks the server for it, and the Software tab drives the
 * update. With the sim's free disk set under 1 GB (its knob file in the device's state directory) the update
 * is refused before downloading with the §8 storage text; with room it downloads with a progress bar, offers
 * the restart, counts 10 s down, the device goes off the air and comes back running the new version. Axe
 * passes on the tab in each state.
 */
const VERSION = '0.9.0';
/** The tab alone: the shell's toast notices (shared, not this feature's) are checked by their own specs. */
const TAB = '[data-testid="software-tab"]';
let boxB = '';

/** The sim device's knob file (src/agent/software/sim.ts SIM_KNOBS_FILE in its state directory). */
function setSimKnobs(deviceId: string, knobs: Record<string, unknown>) {
  const dir = path.join(os.tmpdir(), 'edge-agent-sim', deviceId);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'software-sim.json'), JSON.stringify(knobs));
}

async function bundleBytes(): Promise<Buffer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'e2e-bundle-'));
  try {
    writeFileSync(path.join(dir, 'release.json'), JSON.stringify({ version: VERSION }));
    const chunks: Buffer[] = [];
    for await (const c of tar.create({ gzip: true, cwd: dir, portable: true }, [
      'release.json',
    ]) as AsyncIterable<Buffer>)
      chunks.push(c);
    return Buffer.concat(chunks);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test.beforeAll(async ({ request }) => {
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  boxB = (await listDevices(request, token)).res.find((d) => d.label === 'x86 Edge Box B')!.device_id;
  const res = await request.post(`/api/agent-releases?version=${VERSION}&notes=Faster%20stream%20start`, {
    headers: { ...auth(token), 'content-type': 'application/octet-stream' },
    data: await bundleBytes(),
  });
  expect([200, 409]).toContain(res.status());
});

test.afterAll(() => setSimKnobs(boxB, {}));

/** Client-side navigation to the device page's Software tab (a reload would close the device link). */
async function openSoftwareTab(page: Page, deviceId: string) {
  const url = `/control-panel/devices?device=${encodeURIComponent(deviceId)}&tab=software`;
  await page.evaluate((p) => {
    history.pushState({}, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, url);
  await expect(page.getByTestId('software-tab')).toBeVisible();
}

test('Software tab: an update refused for lack of storage, then one that succeeds and restarts', async ({
  page,
}) => {
  test.setTimeout(150_000);
  setSimKnobs(boxB, { free_bytes: 512 * 1024 ** 2, download_ms: 3000 });
  await signIn(page, DEMO);
  await connectDevices(page, [boxB]);
  await openSoftwareTab(page, boxB);

  // The client version and the newest release with its notes.
  const current = page.getByTestId('software-current');
  await expect(current).toHaveAttribute('data-version', /^\d+\.\d+\.\d+/);
  const before = await current.getAttribute('data-version');
  expect(before).not.toBe(VERSION);
  await expect(page.getByTestId('software-latest')).toHaveAttribute('data-version', VERSION);
  await expect(page.getByTestId('software-latest')).toContainText('Faster stream start');
  await expect(page.getByText(`Update available: version ${VERSION}`)).toBeVisible();

  // The stream engine and companion service checks answer.
  await page.getByTestId('software-check-stream-engine').click();
  await expect(page.getByTestId('software-result-stream-engine')).toContainText('tritonserver');
  await page.getByTestId('software-check-companion-restart').click();
  await expect(page.getByTestId('software-result-companion-restart')).toContainText('Restart needed');
  await expectAccessible(page);

  // Under 1 GB free: refused before downloading, with the §8 storage text.
  await page.getByTestId('software-update').click();
  const status = page.getByTestId('software-update-status');
  await expect(status).toHaveAttribute('data-step', 'failed');
  await expect(status).toHaveAttribute('data-error-type', 'notEnoughStorage');
  await expect(status).toContainText('Not enough storage: the device has under 1GB free.');
  await expect(page.getByTestId('software-progress')).toHaveCount(0);
  // The whole page, the failure toast included (its description is dimmed text: 4.5:1 since the theme fix).
  await expectAccessible(page);
  await page.getByTestId('software-dismiss').click();
  await expect(status).toBeHidden();

  // With room: download with progress, the restart offer, the 10 s countdown, off the air and back.
  setSimKnobs(boxB, { free_bytes: 50 * 1024 ** 3, download_ms: 3000 });
  await page.getByTestId('software-update').click();
  await expect(page.getByTestId('software-progress')).toBeVisible();
  await expect(status).toHaveAttribute('data-step', 'awaitingRestartConfirm', { timeout: 30_000 });
  await expect(status).toContainText(`Version ${VERSION} is installed.`);
  await expectAccessible(page, TAB);
  await page.getByTestId('software-restart').click();
  await expect(status).toHaveAttribute('data-step', 'countdown');
  await expect(page.getByTestId('software-countdown')).toBeVisible();
  await expectAccessible(page, TAB);
  await expect(status).toHaveAttribute('data-step', /sending|waitingOffline|waitingOnline|verifying|done/, {
    timeout: 20_000,
  });
  await expect(status).toHaveAttribute('data-step', 'done', { timeout: 90_000 });
  await expect(status).toContainText(`The client now runs version ${VERSION}.`);
  await expect(current).toHaveAttribute('data-version', VERSION);
  await expect(page.getByText('The client is up to date.')).toBeVisible();
});
