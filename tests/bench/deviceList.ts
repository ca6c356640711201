/**
 * Issue 16's device-list measures with 100,000 devices (BENCH_ONLY=device_list runs only these):
 *
 *   api_ms.<case>      GET /api/get_devices/ as the fleet's owner, sequential requests after a warm-up, p50/p95
 *                      (server + PostgreSQL + JSON over loopback): first page, a deep page, the last page,
 *                      each sort column both ways, a search that matches ~10 devices and one that matches none
 *   page_change_ms     the devices table in Chromium: click "next page" → the next page's first row is on
 *                      screen (MutationObserver), p50/p95 — with the table's default page size (§9) and with 50 rows
 *
 * Targets: every api case p95 ≤ 20 ms; page change p95 ≤ 100 ms. BENCH_PROFILE=<file> writes the page's CPU
 * profile (.cpuprofile, DevTools) of the 50-row page changes. The 100,000 devices are seeded in one
 * statement (Seed.fleet) for an account of their own; none of them connects.
 */
import type { Browser, Page } from '@playwright/test';
import type { RunningStack } from '../../src/stack';
import { navigate, signIn } from './page';
import { stats, type Stats } from './stats';
import { writeFileSync } from 'node:fs';

const FLEET = { email: 'fleet@edge.local', password: 'fleet-edge-2026' };
const DEVICES = Number(process.env.BENCH_FLEET_DEVICES ?? 100_000);
const SAMPLES = Number(process.env.BENCH_LIST_SAMPLES ?? 40);
const PAGE_SAMPLES = Number(process.env.BENCH_PAGE_SAMPLES ?? 20);
const PER_PAGE = 50;

export interface DeviceListBench {
  devices: number;
  seed_s: number;
  api_ms: Record<string, Stats>;
  page_change_ms: { default_per_page: Stats; per_page_50: Stats };
  met: { api_p95_le_20ms: boolean; page_change_p95_le_100ms: boolean };
}

async function timeGets(url: string, token: string, query: string): Promise<Stats> {
  const get = async () => {
    const res = await fetch(`${url}/api/get_devices/?${query}`, {
      headers: { Authorization: `Token ${token}` },
    });
    if (res.status !== 200) throw new Error(`get_devices ${query}: HTTP ${res.status}`);
    return (await res.json()) as { total_items: number };
  };
  for (let i = 0; i < 5; i++) await get();
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now();
    await get();
    samples.push(performance.now() - t0);
  }
  return stats(samples);
}

export async function benchDeviceList(browser: Browser, stack: RunningStack): Promise<DeviceListBench> {
  const { id: ownerId } = await stack.server.seed.ensureUser(FLEET);
  const t0 = performance.now();
  await stack.server.seed.fleet(ownerId, DEVICES);
  const seedS = Math.round((performance.now() - t0) / 100) / 10;

  const login = await fetch(`${stack.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(FLEET),
  });
  const token = ((await login.json()) as { token: string }).token;
  const lastPage = Math.ceil(DEVICES / PER_PAGE);
  const cases: Record<string, string> = {
    first_page: `per_page=${PER_PAGE}&page=1`,
    deep_page: `per_page=${PER_PAGE}&page=${Math.ceil(lastPage / 2)}`,
    last_page: `per_page=${PER_PAGE}&page=${lastPage}`,
  };
  for (const by of ['label', 'client_name', 'created_at', 'is_active'])
    for (const as of ['asc', 'desc'])
      cases[`sort_${by}_${as}`] = `per_page=${PER_PAGE}&order_by=${by}&order_as=${as}`;
  cases.search_some = `per_page=${PER_PAGE}&search=${encodeURIComponent('device 04217')}`;
  cases.search_none = `per_page=${PER_PAGE}&search=no-such-device`;
  const apiMs: Record<string, Stats> = {};
  for (const [name, query] of Object.entries(cases)) apiMs[name] = await timeGets(stack.url, token, query);

  const context = await browser.newContext();
  // tsx (esbuild, keepNames) wraps named functions in __name(); functions sent to the page need it too.
  await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  const page = await context.newPage();
  const pageChange: Record<'default_per_page' | 'per_page_50', number[]> = {
    default_per_page: [],
    per_page_50: [],
  };
  try {
    await signIn(page, stack.url, FLEET);
    await navigate(page, '/control-panel/devices');
    await page.locator('[data-testid^="device-row-"]').first().waitFor();
    for (const size of ['default_per_page', 'per_page_50'] as const) {
      if (size === 'per_page_50') {
        await page.getByTestId('devices-per-page').selectOption(String(PER_PAGE));
        await page
          .locator('[data-testid^="device-row-"]')
          .nth(PER_PAGE - 1)
          .waitFor();
      }
      // Diagnostics: BENCH_PROFILE=<file> writes the page's CPU profile (.cpuprofile) of the 50-row changes.
      const cdp =
        size === 'per_page_50' && process.env.BENCH_PROFILE ? await context.newCDPSession(page) : null;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      for (let i = 0; i < PAGE_SAMPLES; i++) pageChange[size].push(await nextPageMs(page));
      if (cdp) {
        const { profile } = await cdp.send('Profiler.stop');
        writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
      }
    }
  } finally {
    await context.close();
  }
  const pageStats = {
    default_per_page: stats(pageChange.default_per_page),
    per_page_50: stats(pageChange.per_page_50),
  };
  return {
    devices: DEVICES,
    seed_s: seedS,
    api_ms: apiMs,
    page_change_ms: pageStats,
    met: {
      api_p95_le_20ms: Object.values(apiMs).every((s) => s.p95 <= 20),
      page_change_p95_le_100ms: pageStats.default_per_page.p95 <= 100 && pageStats.per_page_50.p95 <= 100,
    },
  };
}

/** Clicks "next page" and resolves with the ms until another device heads the table. */
function nextPageMs(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const rows = () => [...document.querySelectorAll('[data-testid^="device-row-"]')];
        const before = rows()[0]?.getAttribute('data-testid');
        const next = document.querySelector<HTMLElement>(
          '[data-testid="devices-pagination"] button[aria-label]:last-of-type',
        );
        if (!next) return reject(new Error('no next-page button'));
        const t0 = performance.now();
        const observer = new MutationObserver(() => {
          const first = rows()[0]?.getAttribute('data-testid');
          if (first && first !== before) {
            observer.disconnect();
            resolve(performance.now() - t0);
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
        next.click();
        setTimeout(() => reject(new Error('the next page did not show')), 20_000);
      }),
  );
}
