/**
 * A tiny store counting route chunks being loaded, so the top progress bar (§2 root shell "a progress
 * bar") shows while a lazy screen arrives. Suspense fallbacks register with `useRouteLoading()`.
 */
import { useEffect, useSyncExternalStore } from 'react';

let pending = 0;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while at least one route chunk is loading. */
export function useAnyRouteLoading(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => pending > 0,
    () => false,
  );
}

/** Marks a route chunk as loading for as long as the calling component (a Suspense fallback) is mounted. */
export function useRouteLoading(): void {
  useEffect(() => {
    pending += 1;
    notify();
    return () => {
      pending -= 1;
      notify();
    };
  }, []);
}
