/**
 * Issue 3 benchmarks on the camera page, run by tests/bench/run.ts on the same stack:
 *
 *   twelve.all_playing_ms      first click → all 12 cameras (640×480) have decoded a frame: the median of
 *                              BENCH_TWELVE_RUNS (3) opens, all closed in between (all_playing_runs_ms), with
 *                              each open's timeline (runs: cells_appeared_ms, first_frames_ms, chooser_shown_ms)
 *   twelve.decoded_fps_*       each stream's frames decoded per second over 10 s (getStats framesDecoded):
 *                              median per cell, and its worst second
 *   twelve.presented_fps_*     the same for frames presented on screen (requestVideoFrameCallback), which
 *                              Chromium caps at its 30 Hz cadence while video plays
 *   hidden.agent_stopped_ms    grid page switched away → the agents send (encode) none of those streams
 *                              (check-health `streams`; they hold them: `paused_streams`)
 *   hidden.replay_ms           page switched back → every cell decoded a new frame (resume-stream on the
 *                              held peer connections)
 *   restart.video_back_ms      agent restarted (stack.restartAgent resolves: registered, reachable) → new frame
 *   cycles                     100 open/close cycles: RTCPeerConnections not closed in the browser, streams the
 *                              agents still send or hold, JS heap after / before (after GC)
 *
 * Diagnostics for the twelve-camera open: BENCH_PROFILE=<file> writes the page's CPU profile (.cpuprofile,
 * DevTools), BENCH_TRACE=<file> a Chromium trace (chrome://tracing, Perfetto) of that span, with the
 * comma-separated BENCH_TRACE_CATEGORIES when given (e.g. toplevel,webrtc,media,disabled-by-default-devtools.timeline).
 *
 * Targets (issue 3): all 12 playing ≤ 1.5 s; each cell ≥ 25 fps median, none below 20; hidden → agent stops
 * ≤ 5 s, plays again ≤ 1 s; video back ≤ 3 s after the agent is reachable; no peer connection left open on
 * either side; heap within 10 %.
 */
import { navigate, signIn } from './page';
import type { Browser, Page } from '@playwright/test';
import type { RunningStack } from '../../src/stack';

type Edge = { callDevice: (deviceId: string, process: string, payload: unknown) => Promise<unknown> };

/** Counts the page's stream RTCPeerConnections that are not closed (installed before the app loads). */
const PC_TRACKER = `
  (() => {
    const Native = window.RTCPeerConnection;
    const all = [];
    window.RTCPeerConnection = function (...args) { const pc = new Native(...args); all.push(new WeakRef(pc)); return pc; };
    window.RTCPeerConnection.prototype = Native.prototype;
    Object.setPrototypeOf(window.RTCPeerConnection, Native);
    // Stream peer connections only: the device links (PeerJS data channels) are open on purpose.
    const open = () => all.map((r) => r.deref()).filter((pc) => pc && pc.connectionState !== 'closed' && pc.getTransceivers().some((t) => t.receiver.track.kind === 'video'));
    window.__openPeerConnections = () => open().length;
    window.__openPeerConnectionStates = () => open().map((pc) => pc.connectionState + '/' + pc.signalingState + '/' + pc.iceConnectionState);
    // Frames decoded so far by each open stream (inbound-rtp video framesDecoded, from getStats).
    window.__framesDecoded = () => Promise.all(open().map(async (pc) => {
      let n = 0;
      (await pc.getStats()).forEach((r) => { if (r.type === 'inbound-rtp' && r.kind === 'video') n = r.framesDecoded ?? 0; });
      return n;
    }));
    globalThis.__name = (f) => f;
  })();
`;

/** Opens of the twelve cameras (closed in between); all_playing_ms is their median. */
const TWELVE_RUNS = Number(process.env.BENCH_TWELVE_RUNS ?? 3);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};

/** Streams the agents send (encode), and streams they hold for hidden cells (pause-stream), summed. A device
 * whose link is down for a moment (it reconnects by itself, e.g. on a loaded machine) is asked again, for up
 * to 15 s: the bench waits for the answer, it does not fail on a transient state. */
async function agentStreamCounts(
  page: Page,
  deviceIds: string[],
): Promise<{ sending: number; held: number }> {
  const out = { sending: 0, held: 0 };
  for (const id of deviceIds) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        const health = await page.evaluate(
          (deviceId) =>
            (window as unknown as { __edgeConsole: Edge }).__edgeConsole.callDevice(
              deviceId,
              'check-health',
              {},
            ) as Promise<{ streams: number; paused_streams?: number }>,
          id,
        );
        out.sending += health.streams;
        out.held += health.paused_streams ?? 0;
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await page.waitForTimeout(200);
      }
    }
  }
  return out;
}
const agentStreams = async (page: Page, deviceIds: string[]) =>
  (await agentStreamCounts(page, deviceIds)).sending;

/**
 * Clicks `clickTestId` inside the page and resolves with the ms until the grid shows exactly `expected` videos
 * that each presented a frame after the click (requestVideoFrameCallback). Cells mounted after the click (a
 * page switch renders them anew) are watched as they appear, so the measure never looks before they exist.
 */
function clickUntilAllDecode(page: Page, clickTestId: string, expected: number): Promise<number> {
  return page.evaluate(
    ([testId, n]) =>
      new Promise<number>((resolve, reject) => {
        const selector = '[data-testid^="stream-cell-"] video';
        const watched = new WeakSet<HTMLVideoElement>();
        const decoded = new WeakSet<HTMLVideoElement>();
        let done = false;
        const check = () => {
          if (done) return;
          const videos = [...document.querySelectorAll<HTMLVideoElement>(selector)];
          for (const v of videos) {
            if (watched.has(v)) continue;
            watched.add(v);
            v.requestVideoFrameCallback(() => {
              decoded.add(v);
              check();
            });
          }
          if (videos.length === n && videos.every((v) => decoded.has(v))) {
            done = true;
            observer.disconnect();
            resolve(performance.now() - t0);
          }
        };
        const observer = new MutationObserver(check);
        const button = document.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
        if (!button) return reject(new Error(`no ${testId}`));
        const t0 = performance.now();
        observer.observe(document.body, { subtree: true, childList: true });
        button.click();
        check();
        setTimeout(() => {
          if (done) return;
          observer.disconnect();
          const videos = [...document.querySelectorAll<HTMLVideoElement>(selector)];
          const playing = videos.filter((v) => decoded.has(v)).length;
          reject(
            new Error(`after 20 s: ${videos.length} videos (expected ${n}), ${playing} decoded a frame`),
          );
        }, 20_000);
      }),
    [clickTestId, expected] as const,
  );
}

/**
 * Resolves with the ms from `since` (Date.now() in the bench) until a video in a cell showing `text` presents a
 * frame; a cell whose video element is replaced while the device reconnects is followed to the new element.
 */
async function frameInCell(page: Page, text: string, since: number): Promise<number> {
  await page.evaluate(
    (label) =>
      new Promise<void>((resolve, reject) => {
        const watched = new WeakSet<HTMLVideoElement>();
        let done = false;
        const check = () => {
          if (done) return;
          for (const cell of document.querySelectorAll<HTMLElement>('[data-testid^="stream-cell-"]')) {
            if (!cell.textContent?.includes(label)) continue;
            const v = cell.querySelector('video');
            if (!v || watched.has(v)) continue;
            watched.add(v);
            v.requestVideoFrameCallback(() => {
              if (done) return;
              done = true;
              observer.disconnect();
              resolve();
            });
          }
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { subtree: true, childList: true });
        check();
        setTimeout(() => {
          if (done) return;
          observer.disconnect();
          reject(new Error(`no frame in a "${label}" cell within 30 s`));
        }, 30_000);
      }),
    text,
  );
  return Date.now() - since;
}

export async function benchCameraPage(
  browser: Browser,
  stack: RunningStack,
  url: string,
  who: { email: string; password: string },
) {
  const context = await browser.newContext({ viewport: { width: 1600, height: 2400 } });
  await context.addInitScript(() => localStorage.setItem('edge.debug', '1'));
  await context.addInitScript({ content: PC_TRACKER });
  const page = await context.newPage();
  const nav = (to: string) => navigate(page, to);

  await signIn(page, url, who);
  const byLabel = (label: string) => stack.agents.find((a) => a.label === label)!.deviceId;
  const gate = byLabel('Jetson Orin Gate');
  const boxA = byLabel('x86 Edge Box A');
  const boxB = byLabel('x86 Edge Box B');
  const all = [gate, boxA, boxB];
  await nav('/control-panel/devices');
  for (const id of all) {
    const state = page.getByTestId(`device-connection-${id}`);
    await state.waitFor();
    if ((await state.getAttribute('data-state')) === 'notConnected')
      await page.getByTestId(`device-connect-${id}`).click();
    await page.locator(`[data-testid="device-connection-${id}"][data-state="open"]`).waitFor();
  }
  await nav('/control-panel/cameras');
  for (const id of all) await page.locator(`[data-testid^="camera-open-${id}-"]`).nth(3).waitFor();
  await page.locator('[data-testid^="ip-camera-open-"]').first().waitFor();

  // Twelve cameras: Box B's four, the Gate's and Box A's own three each, the IP camera, and the camera the
  // Gate and Box A share (through the chooser). Clicked inside the page, as fast as a user could.
  const ids = await page.evaluate(
    ([g, a, b]) => {
      const of = (d: string) =>
        [...document.querySelectorAll(`[data-testid^="camera-open-${d}-"]`)].map((e) =>
          e.getAttribute('data-testid')!,
        );
      const ip = document.querySelector('[data-testid^="ip-camera-open-"]')!.getAttribute('data-testid')!;
      return {
        own: [...of(b), ...of(g).slice(1), ...of(a).slice(1), ip],
        shared: of(g)[0]!,
        pick: `camera-chooser-pick-${g}`,
      };
    },
    [gate, boxA, boxB] as const,
  );
  /** Clicks the twelve cameras at once (the shared one through the chooser); the timeline in ms. */
  const openTwelve = () =>
    page.evaluate(
      ({ own, shared, pick }) =>
        new Promise<{ total: number; cellsAt: number[]; framesAt: number[]; chooserAt: number }>(
          (resolve, reject) => {
            const t0 = performance.now();
            const seen = new Set<HTMLVideoElement>();
            const cellsAt: number[] = [];
            const framesAt: number[] = [];
            let chooserAt = NaN;
            const watch = () => {
              for (const v of document.querySelectorAll<HTMLVideoElement>(
                '[data-testid^="stream-cell-"] video',
              )) {
                if (seen.has(v)) continue;
                seen.add(v);
                cellsAt.push(performance.now() - t0);
                v.requestVideoFrameCallback(() => {
                  framesAt.push(performance.now() - t0);
                  if (framesAt.length !== 12) return;
                  observer.disconnect();
                  resolve({ total: framesAt[11]!, cellsAt, framesAt, chooserAt });
                });
              }
              const pickButton = document.querySelector<HTMLElement>(`[data-testid="${pick}"]`);
              if (pickButton && !pickButton.dataset.clicked) {
                chooserAt = performance.now() - t0;
                pickButton.dataset.clicked = '1';
                pickButton.click();
              }
            };
            const observer = new MutationObserver(watch);
            observer.observe(document.body, { subtree: true, childList: true });
            for (const id of own) document.querySelector<HTMLElement>(`[data-testid="${id}"]`)!.click();
            document.querySelector<HTMLElement>(`[data-testid="${shared}"]`)!.click();
            setTimeout(() => reject(new Error(`only ${framesAt.length} of 12 playing after 30 s`)), 30_000);
          },
        ),
      ids,
    );
  /** Closes every cell and waits until the agents neither send nor hold a stream. */
  const closeAllCells = async () => {
    await page.evaluate(() => {
      for (const b of document.querySelectorAll<HTMLElement>('[data-testid="stream-close"]')) b.click();
    });
    await page.locator('[data-testid^="stream-cell-"]').first().waitFor({ state: 'detached' });
    for (let i = 0; i < 100; i++) {
      const n = await agentStreamCounts(page, all);
      if (n.sending + n.held === 0) break;
      await page.waitForTimeout(100);
    }
    await page.waitForTimeout(1_000);
  };

  // The first open is profiled or traced when asked (BENCH_PROFILE, BENCH_TRACE).
  const cdp = process.env.BENCH_PROFILE ? await context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  if (process.env.BENCH_TRACE)
    await browser.startTracing(page, {
      path: process.env.BENCH_TRACE,
      screenshots: false,
      ...(process.env.BENCH_TRACE_CATEGORIES
        ? { categories: process.env.BENCH_TRACE_CATEGORIES.split(',') }
        : {}),
    });
  const runs: Awaited<ReturnType<typeof openTwelve>>[] = [];
  for (let run = 0; run < TWELVE_RUNS; run++) {
    if (run > 0) await closeAllCells();
    const twelve = await openTwelve();
    runs.push(twelve);
    // Progress on stderr (stdout carries the JSON document).
    process.stderr.write(
      `camera page: 12 playing in ${Math.round(twelve.total)} ms ${JSON.stringify(twelve)}\n`,
    );
    if (run > 0) continue;
    if (process.env.BENCH_TRACE) await browser.stopTracing();
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      (await import('node:fs')).writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
    }
  }
  const allPlayingMs = median(runs.map((r) => r.total));

  // Frames per second per cell, counted each second for 10 s.
  const perCellPerSecond = await page.evaluate(
    () =>
      new Promise<number[][]>((resolve) => {
        const videos = [
          ...document.querySelectorAll<HTMLVideoElement>('[data-testid^="stream-cell-"] video'),
        ];
        const counts = videos.map(() => 0);
        const series: number[][] = videos.map(() => []);
        videos.forEach((v, i) => {
          const tick = () => {
            counts[i]!++;
            v.requestVideoFrameCallback(tick);
          };
          v.requestVideoFrameCallback(tick);
        });
        let seconds = 0;
        const timer = setInterval(() => {
          counts.forEach((c, i) => series[i]!.push(c));
          counts.fill(0);
          if (++seconds === 10) {
            clearInterval(timer);
            resolve(series);
          }
        }, 1000);
      }),
  );
  const fpsMedians = perCellPerSecond.map(median);

  // Frames decoded per second per stream over 10 s (the "each cell decodes ≥ 25 fps"); the figures
  // above count frames presented (requestVideoFrameCallback), which Chromium caps at its 30 Hz display cadence.
  const decodedPerSecond = await page.evaluate(async () => {
    const read = () => (window as unknown as { __framesDecoded: () => Promise<number[]> }).__framesDecoded();
    let last = await read();
    const series: number[][] = last.map(() => []);
    for (let second = 0; second < 10; second++) {
      await new Promise((r) => setTimeout(r, 1000));
      const now = await read();
      now.forEach((n, i) => series[i]?.push(n - (last[i] ?? n)));
      last = now;
    }
    return series;
  });

  // Hidden cells: the 13th camera opens page 2, so page 1's twelve are hidden; the agents stop them.
  const before = await agentStreams(page, all);
  await page.locator(`[data-testid^="camera-open-${boxA}-"]`).first().click();
  await page.getByTestId(`camera-chooser-pick-${boxA}`).click();
  await page.getByTestId('stream-page-2').click();
  const hiddenT0 = Date.now();
  let agentStoppedMs = NaN;
  while (Date.now() - hiddenT0 < 15_000) {
    if ((await agentStreams(page, all)) <= 1) {
      agentStoppedMs = Date.now() - hiddenT0;
      break;
    }
    await page.waitForTimeout(100);
  }
  const whileHidden = await agentStreamCounts(page, all);
  const replayMs = await clickUntilAllDecode(page, 'stream-page-1', 12);

  // Agent restarted: Box B stops (its four cells and the IP camera reconnect), comes back, video returns.
  await stack.stopAgent(boxB);
  await page.waitForTimeout(2_000);
  await stack.restartAgent(boxB);
  const reachableAt = Date.now();
  const videoBackMs = await frameInCell(page, 'x86 Edge Box B', reachableAt);

  // Close everything, then 100 open/close cycles of one camera.
  await page.evaluate(() => {
    for (const b of document.querySelectorAll<HTMLElement>('[data-testid="stream-close"]')) b.click();
  });
  await page
    .getByTestId('stream-page-2')
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
  await page.evaluate(() => {
    for (const b of document.querySelectorAll<HTMLElement>('[data-testid="stream-close"]')) b.click();
  });
  await page.locator('[data-testid^="stream-cell-"]').first().waitFor({ state: 'detached' });
  const heap = () =>
    page.evaluate(async () => {
      for (let i = 0; i < 3; i++) {
        (window as unknown as { gc?: () => void }).gc?.();
        await new Promise((r) => setTimeout(r, 100));
      }
      return (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize;
    });
  const camera = (await page
    .locator(`[data-testid^="camera-open-${boxB}-"]`)
    .first()
    .getAttribute('data-testid'))!;
  const cycle = () =>
    page.evaluate(
      (testId) =>
        new Promise<void>((resolve, reject) => {
          const watch = () => {
            const v = document.querySelector<HTMLVideoElement>('[data-testid^="stream-cell-"] video');
            if (!v) return;
            observer.disconnect();
            v.requestVideoFrameCallback(() => {
              document.querySelector<HTMLElement>('[data-testid="stream-close"]')!.click();
              const gone = new MutationObserver(() => {
                if (!document.querySelector('[data-testid^="stream-cell-"]')) {
                  gone.disconnect();
                  resolve();
                }
              });
              gone.observe(document.body, { subtree: true, childList: true });
            });
          };
          const observer = new MutationObserver(watch);
          observer.observe(document.body, { subtree: true, childList: true });
          document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)!.click();
          setTimeout(() => reject(new Error('cycle stuck for 20 s')), 20_000);
        }),
      camera,
    );
  for (let i = 0; i < 5; i++) await cycle(); // warm-up: code, caches
  const heapBefore = await heap();
  for (let i = 0; i < 100; i++) await cycle();
  await page.waitForTimeout(1_000);
  const heapAfter = await heap();
  const openPcs = await page.evaluate(() =>
    (window as unknown as { __openPeerConnections: () => number }).__openPeerConnections(),
  );
  const openPcStates = await page.evaluate(() =>
    (window as unknown as { __openPeerConnectionStates: () => string[] }).__openPeerConnectionStates(),
  );
  const agentLeft = await agentStreamCounts(page, all);
  await context.close();

  return {
    twelve: {
      /** Median over the TWELVE_RUNS opens. */
      all_playing_ms: Math.round(allPlayingMs),
      all_playing_runs_ms: runs.map((r) => Math.round(r.total)),
      /** Each open's timeline: click → cell placed (the opener admitted it), → its first decoded frame,
       * → the chooser's pick button for the shared camera; ms, in order. */
      runs: runs.map((r) => ({
        cells_appeared_ms: r.cellsAt.map(Math.round),
        first_frames_ms: r.framesAt.map(Math.round),
        chooser_shown_ms: Math.round(r.chooserAt),
      })),
      decoded_fps_median_per_cell: decodedPerSecond.map(median),
      decoded_fps_min_second_per_cell: decodedPerSecond.map((s) => Math.min(...s)),
      presented_fps_median_per_cell: fpsMedians,
      presented_fps_min_second_per_cell: perCellPerSecond.map((s) => Math.min(...s)),
    },
    hidden: {
      streams_before: before,
      agent_stopped_ms: agentStoppedMs,
      /** Streams the agents sent and held while page 1 was hidden (page 2's camera is sent). */
      while_hidden: whileHidden,
      replay_ms: Math.round(replayMs),
    },
    restart: { video_back_ms: videoBackMs },
    cycles: {
      n: 100,
      browser_peer_connections_open: openPcs,
      browser_peer_connections_open_states: openPcStates,
      agent_streams_open: agentLeft.sending + agentLeft.held,
      heap_ratio: Math.round((heapAfter / heapBefore) * 1000) / 1000,
    },
  };
}
