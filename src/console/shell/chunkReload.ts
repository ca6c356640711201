/**
 * §2 §9: a failed page-chunk load reloads the page after FAILED_CHUNK_RELOAD_MS (3 s); a failed
 * static-asset load also reloads. One reload is scheduled at a time.
 *
 * Issue 15 "Server restarted: browsers … reconnect without a reload": a chunk that failed because the server
 * was away (restarting) or the browser offline would reload onto the browser's error page and lose the console,
 * so the reload waits until the server answers again (checked every FAILED_CHUNK_RELOAD_MS). A failed asset
 * whose URL is known (Vite's `vite:preloadError`: a toast's or a feature's chunk) is then fetched again: still
 * there, the failure was the outage and the next import fetches it (Chromium does not keep a failed dynamic
 * import), so the page is not reloaded; gone (a new deployment renamed the chunks), the page reloads.
 */
import { FAILED_CHUNK_RELOAD_MS } from '../../protocol/constants';

let scheduled: ReturnType<typeof setTimeout> | null = null;
/** A failure that only a reload mends (a lazy screen or feature keeps its failed chunk) is among those pending. */
let mustReload = false;

/** fetch(url, HEAD) answers 2xx. Never rejects. */
const answers = (url: string) =>
  fetch(url, { method: 'HEAD', cache: 'no-store' }).then(
    (r) => r.ok,
    () => false,
  );

/**
 * Schedules one page reload in FAILED_CHUNK_RELOAD_MS (idempotent), once the server answers. `asset`: the URL
 * of the asset that failed; if it loads once the server answers, nothing is reloaded. Without `asset` (a lazy
 * screen or feature, which keeps its failure) the page reloads in any case. `beforeReload` runs when
 * the page is about to reload (a notice), FAILED_CHUNK_RELOAD_MS before it does.
 */
export function scheduleChunkReload(asset?: string, beforeReload?: () => void): void {
  if (!asset) mustReload = true;
  if (scheduled !== null) return;
  const reload = () => {
    if (mustReload) return window.location.reload();
    beforeReload?.();
    scheduled = setTimeout(() => window.location.reload(), FAILED_CHUNK_RELOAD_MS);
  };
  const attempt = () => {
    scheduled = setTimeout(() => {
      void answers('/').then(async (up) => {
        if (!up) return attempt();
        if (!mustReload && asset && (await answers(asset))) {
          scheduled = null; // the outage is over and the asset is there: the next import fetches it
          return;
        }
        reload();
      });
    }, FAILED_CHUNK_RELOAD_MS);
  };
  attempt();
}

/** The URL in a failed preload's error ("Failed to fetch dynamically imported module: <url>", "… CSS for <url>"). */
export function failedAssetUrl(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /(?:https?:\/\/[^\s'"]+|\/assets\/[^\s'"]+)/.exec(message)?.[0];
}

/**
 * Installs the `vite:preloadError` handler (a failed static-asset preload) once at start-up. `onReload` runs
 * (a notice) when the page is about to reload because the asset is gone.
 */
export function installAssetReload(onReload: () => void): void {
  window.addEventListener('vite:preloadError', (event) => {
    // Not preventDefault(): the failed import still rejects, so lazyScreen shows its message too.
    const asset = failedAssetUrl((event as Event & { payload?: unknown }).payload);
    scheduleChunkReload(asset, onReload);
  });
}
