/**
 * §2 §9: a failed page-chunk load reloads the page after FAILED_CHUNK_RELOAD_MS (3 s); a failed
 * static-asset load also reloads. One reload is scheduled at a time.
 */
import { FAILED_CHUNK_RELOAD_MS } from '../../protocol/constants';

let scheduled: ReturnType<typeof setTimeout> | null = null;

/**
 * Schedules one page reload in FAILED_CHUNK_RELOAD_MS (idempotent). Issue 15: a chunk that failed because the
 * server is away (restarting) or the browser offline would reload onto the browser's error page and lose the
 * console; the reload waits until the server answers again (checked every FAILED_CHUNK_RELOAD_MS).
 */
export function scheduleChunkReload(): void {
  if (scheduled !== null) return;
  const attempt = () => {
    scheduled = setTimeout(() => {
      fetch('/', { method: 'HEAD', cache: 'no-store' }).then(
        (r) => (r.ok ? window.location.reload() : attempt()),
        () => attempt(),
      );
    }, FAILED_CHUNK_RELOAD_MS);
  };
  attempt();
}

/** Installs the `vite:preloadError` handler (a failed static-asset preload) once at start-up. */
export function installAssetReload(onFailure: () => void): void {
  window.addEventListener('vite:preloadError', () => {
    // Not preventDefault(): the failed import still rejects, so lazyScreen shows its message too.
    onFailure();
    scheduleChunkReload();
  });
}
