/**
 * Issue 16's logs measure: a sim device's log followed at RATE lines/s (1,000) for FOLLOW_MS (~5 s) on /logs.
 * Reported: lines the device sent (its reply to `log` after endLogProcess) against lines the console received
 * (the logTail machine's next sequence number) and lines proven lost; line-to-screen delay (the time in the
 * line, written by the agent when it generates it, → the row appearing in the page, seen by a
 * MutationObserver; same machine, same clock), p50 / p95 / max; and the page's responsiveness (long tasks
 * over 50 ms seen by a PerformanceObserver, and the worst delay of a 50 ms timer). Targets: no line lost,
 * line-to-screen p50 ≤ 50 ms.
 */
import type { Browser } from '@playwright/test';
import { connectDevice, navigate, signIn } from './page';
import { stats } from './stats';

const RATE = Number(process.env.BENCH_LOG_RATE ?? 1000);
const FOLLOW_MS = Number(process.env.BENCH_LOG_FOLLOW_MS ?? 5000);

export interface LogsBench {
  rate_lines_per_s: number;
  follow_ms: number;
  lines_sent: number;
  lines_received: number;
  lines_lost: number;
  line_to_screen_ms: { p50: number; p95: number; max: number; n: number };
  /** The line's time → the logTail machine holding it (link and machine, before rendering), ms. */
  line_to_machine_ms: { p50: number; p95: number; max: number; n: number };
  responsiveness: { long_tasks: number; long_task_max_ms: number; timer_late_max_ms: number };
  met: { no_line_lost: boolean; line_to_screen_p50_le_50ms: boolean };
}

type Edge = {
  callDevice: (deviceId: string, process: string, payload: unknown) => Promise<unknown>;
  system: { system: { get: (id: string) => { getSnapshot: () => unknown } | undefined } };
};

/**
 * Runs the measure in a new page of `browser`, signed in as `who`, on the sim device `deviceId`.
 * @throws Error when the log does not start or end within 30 s.
 */
export async function benchLogs(
  browser: Browser,
  url: string,
  who: { email: string; password: string },
  deviceId: string,
): Promise<LogsBench> {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('edge.debug', '1'));
  await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  // Sim devices write this many lines per second to every log the console opens (features/logs/actors.ts).
  await context.addInitScript(`globalThis.__edgeLogSimRate = ${RATE};`);
  const page = await context.newPage();
  try {
    await signIn(page, url, who);
    const go = (to: string) => navigate(page, to);
    await connectDevice(page, deviceId);
    await go('/logs');
    await page.getByTestId('logs-device').selectOption(deviceId);
    await page.getByTestId('logs-topic').selectOption('client');
    await page.getByTestId('logs-subtopic').selectOption('agent');
    await page.getByTestId('logs-count').fill('0');

    // Observers first: every row added to the viewer, the page's long tasks, a 50 ms timer's lateness.
    await page.evaluate(() => {
      const w = window as unknown as { __logBench: { delays: number[]; longTasks: number[]; late: number } };
      w.__logBench = { delays: [], longTasks: [], late: 0 };
      const b = w.__logBench;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) b.longTasks.push(e.duration);
      }).observe({ type: 'longtask', buffered: false });
      let expected = performance.now() + 50;
      setInterval(() => {
        const now = performance.now();
        b.late = Math.max(b.late, now - expected);
        expected = now + 50;
      }, 50);
      const observer = new MutationObserver((records) => {
        const now = Date.now();
        for (const r of records) {
          r.addedNodes.forEach((n) => {
            if (!(n instanceof HTMLElement) || n.dataset.testid !== 'log-row') return;
            const text = (n as HTMLElement).textContent ?? '';
            const at = Date.parse(text.slice(0, 24));
            if (Number.isFinite(at)) b.delays.push(now - at);
          });
        }
      });
      const watch = () => {
        const rows = document.querySelector('[data-testid="logs-rows"]');
        if (rows) observer.observe(rows, { childList: true, subtree: true });
        else requestAnimationFrame(watch);
      };
      watch();
    });
    await page.getByTestId('logs-open').click();
    await page.locator('[data-testid="logs-viewer"][data-status="following"]').waitFor({ timeout: 30_000 });
    // Apart: line → the console's logTail machine (the link and the machine, without rendering).
    await page.evaluate(() => {
      const w = window as unknown as { __edgeConsole: Edge; __logBench: { machine: number[] } };
      w.__logBench.machine = [];
      const logs = w.__edgeConsole.system.system.get('logs')!.getSnapshot() as {
        context: { logs: Array<{ id: string; ref: { subscribe: (f: (s: unknown) => void) => unknown } }> };
      };
      let seen = -1;
      logs.context.logs
        .find((l) => l.id === 'page')!
        .ref.subscribe((snap) => {
          const now = Date.now();
          const lines = (snap as { context: { lines: Array<{ seq: number; text: string }> } }).context.lines;
          for (let i = lines.length - 1; i >= 0 && lines[i]!.seq > seen; i--) {
            const at = Date.parse(lines[i]!.text.slice(0, 24));
            if (Number.isFinite(at)) w.__logBench.machine.push(now - at);
          }
          seen = lines.at(-1)?.seq ?? seen;
        });
    });
    await page.waitForTimeout(FOLLOW_MS);

    // Stop on the device itself, so the `log` call answers with the number of lines it sent.
    const uuid = await page.getByTestId('logs-viewer').getAttribute('data-uuid');
    await page.evaluate(
      ([deviceId, uuid]) =>
        (window as unknown as { __edgeConsole: Edge }).__edgeConsole.callDevice(deviceId, 'endLogProcess', {
          uuid,
        }),
      [deviceId, uuid] as const,
    );
    await page.locator('[data-testid="logs-viewer"][data-status="ended"]').waitFor({ timeout: 30_000 });
    const result = await page.evaluate(() => {
      const w = window as unknown as {
        __edgeConsole: Edge;
        __logBench: { delays: number[]; longTasks: number[]; late: number; machine: number[] };
      };
      const logs = w.__edgeConsole.system.system.get('logs')!.getSnapshot() as {
        context: { logs: Array<{ id: string; ref: { getSnapshot: () => unknown } }> };
      };
      const tail = logs.context.logs.find((l) => l.id === 'page')!.ref.getSnapshot() as {
        context: { nextSeq: number; lost: number; sent: number | null };
      };
      return { ...tail.context, ...w.__logBench };
    });
    const sent = result.sent ?? NaN;
    const screen = stats(result.delays);
    return {
      rate_lines_per_s: RATE,
      follow_ms: FOLLOW_MS,
      lines_sent: sent,
      lines_received: result.nextSeq,
      lines_lost: result.lost,
      line_to_screen_ms: screen,
      line_to_machine_ms: stats(result.machine),
      responsiveness: {
        long_tasks: result.longTasks.length,
        long_task_max_ms: Math.round(Math.max(0, ...result.longTasks)),
        timer_late_max_ms: Math.round(result.late),
      },
      met: {
        no_line_lost: result.lost === 0 && result.nextSeq === sent,
        line_to_screen_p50_le_50ms: screen.p50 <= 50,
      },
    };
  } finally {
    await context.close();
  }
}
