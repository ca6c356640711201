/**
 * Lazy route screens (React.lazy) with §2 "A failed page-chunk load reloads the page after 3 s"
 * (FAILED_CHUNK_RELOAD_MS). A screen whose chunk cannot be fetched renders a visible message and the page
 * reloads itself; Vite's `vite:preloadError` (a failed static-asset preload) does the same (chunkReload.ts).
 */
import { lazy, type ComponentType } from 'react';
import { ChunkLoadFailed } from './ChunkLoadFailed';
import { scheduleChunkReload } from './chunkReload';

/** Wraps a dynamic import of a module whose default export is a screen component. */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(async (): Promise<{ default: ComponentType<P> }> => {
    try {
      const mod = await load();
      // Vite's preload helper resolves undefined when a 'vite:preloadError' listener prevented the default.
      if (!mod?.default) throw new Error('route chunk resolved without a component');
      return mod;
    } catch (error) {
      console.error('route chunk failed to load', error);
      scheduleChunkReload();
      return { default: ChunkLoadFailed as ComponentType<P> };
    }
  });
}
