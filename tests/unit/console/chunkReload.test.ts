/**
 * §2 "A failed page-chunk load reloads the page after 3 s", issue 15 "Server restarted: … without a reload"
 * (src/console/shell/chunkReload.ts): the reload waits until the server answers; a failed asset that loads
 * again then (the failure was the outage) reloads nothing; an asset that is gone (a new deployment) reloads
 * after the notice; a lazy screen's or feature's failure (kept by React.lazy / the loader) always reloads.
 * `window` and `fetch` are stand-ins: the server's answers are scripted per URL.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FAILED_CHUNK_RELOAD_MS } from '../../../src/protocol/constants';

const ASSET = 'http://127.0.0.1:1/assets/Toasts-abc.js';
let up: Record<string, boolean>;
let reloads = 0;

beforeEach(() => {
  vi.useFakeTimers();
  vi.resetModules();
  reloads = 0;
  up = { '/': false, [ASSET]: true };
  vi.stubGlobal('window', { location: { reload: () => (reloads += 1) }, addEventListener: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (!up[url]) throw new TypeError('Failed to fetch');
      return { ok: true } as Response;
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const load = () => import('../../../src/console/shell/chunkReload');
const tick = () => vi.advanceTimersByTimeAsync(FAILED_CHUNK_RELOAD_MS);

describe('chunk reload', () => {
  it('finds the URL in a failed preload', async () => {
    const { failedAssetUrl } = await load();
    expect(failedAssetUrl(new TypeError(`Failed to fetch dynamically imported module: ${ASSET}`))).toBe(
      ASSET,
    );
    expect(failedAssetUrl(new Error('Unable to preload CSS for /assets/x-1.css'))).toBe('/assets/x-1.css');
    expect(failedAssetUrl('nothing here')).toBeUndefined();
  });

  it('an asset that failed while the server was away and loads again reloads nothing', async () => {
    const { scheduleChunkReload } = await load();
    const notice = vi.fn();
    scheduleChunkReload(ASSET, notice);
    await tick();
    await tick();
    expect(reloads).toBe(0); // the server is still away
    up['/'] = true;
    await tick();
    await tick();
    expect(reloads).toBe(0);
    expect(notice).not.toHaveBeenCalled();
    // Not stuck: a later failure is scheduled again (and this asset is gone now).
    up[ASSET] = false;
    scheduleChunkReload(ASSET, notice);
    await tick();
    expect(notice).toHaveBeenCalledTimes(1);
    expect(reloads).toBe(0);
    await tick();
    expect(reloads).toBe(1);
  });

  it('a lazy screen’s failure reloads once the server answers, even with its asset there', async () => {
    const { scheduleChunkReload } = await load();
    scheduleChunkReload(ASSET, () => undefined); // vite:preloadError, first
    scheduleChunkReload(); // then lazyScreen's catch
    await tick();
    expect(reloads).toBe(0);
    up['/'] = true;
    await tick();
    expect(reloads).toBe(1);
  });
});
