/**
 * Issue 10's inference measures (BENCH_ONLY=inference, and in `npm run bench`), on a `sim` device in Chromium:
 *
 *   click_to_first_detection_ms  click Start on /jobs → the first detection drawn over the camera's video
 *                                (the camera's cell is open on the camera page; the bench moves there right
 *                                after the click, as a user would), p50/p95 over ROUNDS starts, with each
 *                                §4 stage's time (console-seen ms, p50) and the whole handshake
 *   iou_vs_truth                 drawn boxes against the object's pixels in the frame they were drawn on
 *                                (tests/e2e/inferenceAlignment.ts), median and p10 over SAMPLE_FRAMES frames
 *   metadata_to_drawn_ms         a frame's metadata arriving → its boxes drawn, p50/p95
 *   other_frame_boxes            share of drawn boxes with IoU < 0.5 (boxes drawn on the wrong frame)
 * Targets: first detection p50 ≤ 1.5 s; median IoU ≥ 0.9; metadata-to-drawn p50 ≤ 50 ms.
 */
import type { Browser } from '@playwright/test';
import { alignmentSamples, median, sceneColors } from '../e2e/inferenceAlignment';
import { navigate, signIn } from './page';
import { stats } from './stats';

const ROUNDS = 5;
const SAMPLE_FRAMES = 90;
const STEPS = ['file-check', 'build-model', 'prepare-model', 'warm-up', 'start-inference'] as const;

export async function benchInference(
  browser: Browser,
  url: string,
  who: { email: string; password: string },
  device: { deviceId: string; label: string },
) {
  const context = await browser.newContext();
  await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  const page = await context.newPage();
  // The page's warnings and errors on stderr: why a start or an overlay did not come, if one does not.
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error')
      process.stderr.write(`page ${m.type()}: ${m.text()}\n`);
  });
  await signIn(page, url, who);
  const cellSel = () => '[data-testid^="stream-cell-"]:has([data-testid="inference-canvas"])';
  const firstMs: number[] = [];
  const stageMs: Record<string, number[]> = Object.fromEntries(STEPS.map((s) => [s, []]));
  const handshakeMs: number[] = [];

  for (let round = 0; round <= ROUNDS; round++) {
    const name = `bench-${Date.now()}-${round}`;
    await navigate(page, '/jobs');
    await page.getByTestId('jobs-add').click();
    await page.getByTestId('job-name').fill(name);
    await page.getByTestId('job-device').selectOption({ label: device.label });
    await page.locator('[data-testid="job-camera"]:not([disabled])').waitFor();
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="job-camera"]') as HTMLSelectElement | null)?.value === 'cam-1',
    );
    const t0 = await page.evaluate(() => {
      (document.querySelector('[data-testid="job-submit"]') as HTMLButtonElement).click();
      return performance.now();
    });
    const row = page.getByTestId(`job-row-${name}`);
    if (round === 0) {
      // Warm-up round: open the camera's cell through View (it stays open for the rounds that follow).
      await page
        .locator(`[data-testid="job-row-${name}"][data-state="started"]`)
        .waitFor({ timeout: 60_000 });
      await row.getByTestId('job-view').click();
    } else {
      await navigate(page, '/control-panel/cameras');
    }
    // The first drawn frame of this job (the overlay keeps its log on the canvas).
    const overlay = page.locator('[data-testid="inference-overlay"]');
    process.stderr.write(`inference bench: round ${round} started, waiting for the overlay\n`);
    await overlay.waitFor({ timeout: 60_000 }).catch(async (err: unknown) => {
      const rowText = await page
        .locator('main')
        .innerText()
        .catch(() => '');
      throw new Error(
        `round ${round}: no overlay (${String(err).slice(0, 80)}); page: ${rowText.slice(0, 600)}`,
      );
    });
    const jobId = await overlay.getAttribute('data-job');
    const firstDrawn = await page.waitForFunction(
      (job) => {
        const overlay = document.querySelector(`[data-testid="inference-overlay"][data-job="${job}"]`);
        const canvas = overlay?.querySelector('canvas') as
          (HTMLCanvasElement & { inferenceLog?: { drawnAt: number; boxes: unknown[] }[] }) | null;
        return canvas?.inferenceLog?.find((f) => f.boxes.length > 0)?.drawnAt ?? false;
      },
      jobId,
      { timeout: 60_000, polling: 50 },
    );
    const drawnAt = (await firstDrawn.jsonValue()) as number;
    if (round > 0) firstMs.push(Math.round(drawnAt - t0));
    if (round === ROUNDS) break;
    // Stage times from the start's progress, then stop and delete the job.
    await navigate(page, '/jobs');
    await page.locator(`[data-testid="job-row-${name}"][data-state="started"]`).waitFor();
    const progress = page.locator(`[data-testid="job-row-${name}"] + tr [data-testid="job-progress"]`);
    if (round > 0) {
      handshakeMs.push(Number(await progress.getAttribute('data-total')));
      for (const s of STEPS)
        stageMs[s]!.push(Number(await progress.locator(`[data-step="${s}"]`).getAttribute('data-elapsed')));
    }
    await row.getByTestId('job-stop').click();
    await page.locator(`[data-testid="job-row-${name}"][data-state="stopped"]`).waitFor();
    await row.getByTestId('job-delete').click();
    await page.getByTestId('jobs-confirm-delete').click();
    await row.waitFor({ state: 'detached' });
  }

  // The last job runs on: alignment and latency on the camera page.
  await page.locator(cellSel()).waitFor();
  const cellId = await page.locator(cellSel()).getAttribute('data-testid');
  const { samples, presented, drawnFrames } = await alignmentSamples(
    page,
    `[data-testid="${cellId}"]`,
    sceneColors(device.deviceId, 1),
    SAMPLE_FRAMES,
    60_000,
  );
  const ious = samples.map((s) => s.iou).sort((a, b) => a - b);
  const matched = await page
    .locator(`${cellSel()} [data-testid="inference-canvas"]`)
    .evaluate((c) => ({ matched: Number(c.dataset.matched), unmatched: Number(c.dataset.unmatched) }));
  await context.close();
  const first = stats(firstMs);
  const latency = stats(samples.map((s) => s.latencyMs));
  const iouMedian = Math.round(median(ious) * 1000) / 1000;
  return {
    click_to_first_detection_ms: {
      ...first,
      stages_ms_p50: Object.fromEntries(STEPS.map((s) => [s, median(stageMs[s]!)])),
      handshake_ms_p50: median(handshakeMs),
      rounds: firstMs,
    },
    iou_vs_truth: {
      median: iouMedian,
      p10: Math.round((ious[Math.floor(ious.length * 0.1)] ?? NaN) * 1000) / 1000,
      boxes: ious.length,
      frames: drawnFrames,
      presented,
    },
    metadata_to_drawn_ms: latency,
    other_frame_boxes: ious.length
      ? Math.round((ious.filter((x) => x < 0.5).length / ious.length) * 1000) / 1000
      : null,
    frames_matched: matched,
    met: {
      first_detection_p50_le_1500: first.p50 <= 1500,
      iou_median_ge_0_9: iouMedian >= 0.9,
      metadata_to_drawn_p50_le_50: latency.p50 <= 50,
    },
  };
}
