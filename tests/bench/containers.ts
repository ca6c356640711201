/**
 * Issue 8's console measure: how soon the containers page shows a container's state after the device reports
 * it (target: each state within 100 ms). On a sim device, a container of `edge/python:3.11` (already on every
 * sim device) is created, then started and stopped CYCLES times through device commands; for each change the
 * page records when the agent's `containers.changed` event carrying the new State arrives on the device link
 * (window.__edgeConsole.onDeviceEvent) and when the containers table's row shows it (`data-state`, seen by a
 * MutationObserver). Reported: those delays (ms) and, apart, the whole command → shown time. The container
 * is removed afterwards. The link's own transit (agent → browser, loopback) is in command_rtt_ms, not here.
 */
import type { Browser, Page } from '@playwright/test';
import { connectDevice, navigate, signIn } from './page';

const CYCLES = Number(process.env.BENCH_CONTAINER_CYCLES ?? 10);

export interface ContainersBench {
  /** Event carrying the new State arrived → the row shows it, ms. */
  state_shown_after_report_ms: { p50: number; p95: number; max: number; n: number };
  /** docker-start / docker-stop sent → the row shows the new State, ms (device work included). */
  command_to_shown_ms: { p50: number; p95: number; max: number; n: number };
  met: { each_state_shown_le_100ms: boolean };
}

type Edge = {
  callDevice: (deviceId: string, process: string, payload: unknown) => Promise<unknown>;
  onDeviceEvent: (listener: (deviceId: string, name: string, data: unknown) => void) => () => void;
};

const summary = (samples: number[]) => {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
  const round = (x: number) => Math.round(x * 10) / 10;
  return { p50: round(at(0.5)), p95: round(at(0.95)), max: round(s.at(-1) ?? NaN), n: s.length };
};

/** One state change: sends `process` and resolves with [event → shown, command → shown] in ms. */
function changeAndTime(page: Page, deviceId: string, id: string, process: string, state: string) {
  return page.evaluate(
    ([deviceId, id, process, state]) =>
      new Promise<[number, number]>((resolve, reject) => {
        const edge = (window as unknown as { __edgeConsole: Edge }).__edgeConsole;
        const short = id.slice(0, 12);
        const selector = `[data-testid="container-row-${short}"][data-state="${state}"]`;
        let reportedAt: number | null = null;
        const t0 = performance.now();
        const off = edge.onDeviceEvent((from, name, data) => {
          if (from !== deviceId || name !== 'containers.changed' || reportedAt !== null) return;
          const list = (data as { containers?: Array<{ Id: string; State: string }> }).containers ?? [];
          if (list.some((c) => c.Id === id && c.State === state)) reportedAt = performance.now();
        });
        const timer = setTimeout(() => {
          observer.disconnect();
          off();
          reject(new Error(`${selector} not shown within 20 s`));
        }, 20_000);
        const check = () => {
          if (!document.querySelector(selector)) return;
          const shownAt = performance.now();
          observer.disconnect();
          off();
          clearTimeout(timer);
          if (reportedAt === null) reject(new Error(`${state} shown before any report of it`));
          else resolve([shownAt - reportedAt, shownAt - t0]);
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
        edge.callDevice(deviceId, process, { id }).catch((err: unknown) => reject(err as Error));
      }),
    [deviceId, id, process, state] as const,
  );
}

/**
 * Runs the measure in a new page of `browser`, signed in as `who`, on the device `deviceId` (a sim device).
 * @throws Error when a state is not shown within 20 s.
 */
export async function benchContainers(
  browser: Browser,
  url: string,
  who: { email: string; password: string },
  deviceId: string,
): Promise<ContainersBench> {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('edge.debug', '1'));
  await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  const page = await context.newPage();
  try {
    await signIn(page, url, who);
    const go = (to: string) => navigate(page, to);
    await connectDevice(page, deviceId);
    await go('/control-panel/containers');
    await page.getByTestId('containers-table').waitFor();

    const created = (await page.evaluate(
      ([deviceId]) =>
        (window as unknown as { __edgeConsole: Edge }).__edgeConsole.callDevice(deviceId, 'docker-create', {
          image: 'edge/python:3.11',
          envName: 'python',
        }),
      [deviceId] as const,
    )) as { container: { Id: string } };
    const id = created.container.Id;
    await page.locator(`[data-testid="container-row-${id.slice(0, 12)}"]`).waitFor();

    const shown: number[] = [];
    const total: number[] = [];
    for (let i = 0; i < CYCLES; i++) {
      for (const [process, state] of [
        ['docker-start', 'running'],
        ['docker-stop', 'exited'],
      ] as const) {
        const [afterReport, afterCommand] = await changeAndTime(page, deviceId, id, process, state);
        shown.push(afterReport);
        total.push(afterCommand);
      }
    }
    await page.evaluate(
      ([deviceId, id]) =>
        (window as unknown as { __edgeConsole: Edge }).__edgeConsole.callDevice(deviceId, 'docker-remove', {
          id,
        }),
      [deviceId, id] as const,
    );
    const state = summary(shown);
    return {
      state_shown_after_report_ms: state,
      command_to_shown_ms: summary(total),
      met: { each_state_shown_le_100ms: state.max <= 100 },
    };
  } finally {
    await context.close();
  }
}
