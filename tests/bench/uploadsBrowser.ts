/**
 * The browser part of the uploads bench (tests/bench/uploads.ts): Chromium on the built console served by the
 * bench server. The user signs in; a 1 GiB file is picked in a file input (Playwright hands Chromium the path,
 * so the page holds a disk-backed File) and given to the uploads actor (`uploads.add`, as useStartUpload does,
 * through `window.__edgeConsole` — local storage 'edge.debug' = '1'). Until the upload ends, every 250 ms: the
 * page's JS heap used (CDP Runtime.getHeapUsage) and the RSS of every Chromium renderer process (/proc).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium';
import { signIn } from './page';

const mb = (bytes: number) => Math.round((bytes / 1e6) * 10) / 10;

/** Sum of the RSS of Chromium's renderer processes (bytes), read from /proc. */
function rendererRss(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer')) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      total += Number(rss ?? 0) * 1024;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

export async function benchUploadsInBrowser(
  url: string,
  user: { email: string; password: string },
  file: string,
): Promise<{ flat: boolean } & Record<string, unknown>> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text().slice(0, 300));
    });
    page.on('pageerror', (e) => problems.push(e.message.slice(0, 300)));
    await page.addInitScript(() => localStorage.setItem('edge.debug', '1'));
    await signIn(page, url, user);
    const cdp = await page.context().newCDPSession(page);
    const heap = async () => ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
    // A plain script: functions compiled by tsx carry esbuild's `__name` helper, which the page lacks.
    await page.evaluate(`(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'bench-upload';
      input.setAttribute('aria-label', 'bench file');
      document.body.append(input);
      window.__benchDone = null;
      input.addEventListener('change', () => {
        const start = () => {
          const uploads = window.__edgeConsole.system.system.get('uploads');
          if (!uploads) return setTimeout(start, 50);
          uploads.on('upload.done', () => { window.__benchDone = 'done'; });
          uploads.on('upload.failed', (e) => { window.__benchDone = 'failed: ' + JSON.stringify(e); });
          uploads.send({ type: 'uploads.add', file: input.files[0], purpose: 'bench', meta: {} });
        };
        start();
      });
    })()`);
    await cdp.send('HeapProfiler.collectGarbage');
    const heapStart = await heap();
    const rssStart = rendererRss();
    let heapPeak = heapStart;
    let rssPeak = rssStart;
    const t0 = Date.now();
    await page.setInputFiles('#bench-upload', file);
    let outcome: string | null = null;
    while (!outcome && Date.now() - t0 < 3 * 60_000) {
      await new Promise((r) => setTimeout(r, 250));
      heapPeak = Math.max(heapPeak, await heap());
      rssPeak = Math.max(rssPeak, rendererRss());
      outcome = (await page.evaluate('window.__benchDone')) as string | null;
    }
    const seconds = (Date.now() - t0) / 1000;
    const heapGrowth = heapPeak - heapStart;
    const rssGrowth = rssPeak - rssStart;
    return {
      outcome: outcome ?? 'timed out',
      seconds_hash_and_upload: Math.round(seconds * 10) / 10,
      js_heap_start_mb: mb(heapStart),
      js_heap_peak_mb: mb(heapPeak),
      renderer_rss_start_mb: mb(rssStart),
      renderer_rss_peak_mb: mb(rssPeak),
      flat: outcome === 'done' && heapGrowth <= 64e6 && rssGrowth <= 64e6,
      ...(outcome === 'done' ? {} : { page_errors: problems.slice(0, 5) }),
    };
  } finally {
    await browser.close();
  }
}
