/**
 * Lazy route screens and device tabs (React.lazy) with §2 "A failed page-chunk load reloads the page after 3 s"
 * (FAILED_CHUNK_RELOAD_MS). A screen whose chunk cannot be fetched renders a visible message and the page
 * reloads itself; Vite's `vite:preloadError` (a failed static-asset preload) does the same (chunkReload.ts).
 *
 * `preload()` fetches the chunk ahead of its first render (the device page preloads its tabs). A screen whose
 * chunk is already loaded when it first renders is rendered directly, without suspending: React holds a
 * revealed Suspense boundary's content back for a moment after its fallback showed, which a click on an
 * already-fetched tab should not pay.
 */
import { lazy, useState, type ComponentType } from 'react';
import { ChunkLoadFailed } from './ChunkLoadFailed';
import { scheduleChunkReload } from './chunkReload';

/** A lazily loaded screen: a component, and `preload()` that fetches its chunk (never rejects). */
export type LazyScreen<P extends object> = ComponentType<P> & { preload(): Promise<void> };

/** Wraps a dynamic import of a module whose default export is a screen component. */
export function lazyScreen<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): LazyScreen<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const start = () =>
    (loading ??= (async (): Promise<{ default: ComponentType<P> }> => {
      try {
        const mod = await load();
        // Vite's preload helper resolves undefined when a 'vite:preloadError' listener prevented the default.
        if (!mod?.default) throw new Error('route chunk resolved without a component');
        loaded = mod.default;
        return mod;
      } catch (error) {
        console.error('route chunk failed to load', error);
        scheduleChunkReload();
        return { default: ChunkLoadFailed as ComponentType<P> };
      }
    })());
  const Lazy = lazy(start);

  function Screen(props: P) {
    // Decided once per mount: switching between the two would remount the screen and lose its state.
    const [Direct] = useState(() => loaded);
    return Direct ? <Direct {...props} /> : <Lazy {...props} />;
  }
  Screen.preload = () => start().then(() => undefined);
  return Screen;
}
