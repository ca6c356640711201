/**
 * The `peer` package (1.0.2) runs two housekeeping loops (dead-peer check every 300 ms, queued-message expiry)
 * with setTimeout and offers no way to stop them, so a closed server would keep its process alive forever.
 * `runWithTrackedTimers` runs a function so that every setTimeout it makes — and every one those timers'
 * callbacks make, synchronously — is tracked, unref'd and stoppable. The global is swapped only for the
 * duration of those synchronous calls, so no other code ever sees it.
 */

type TimeoutFn = (cb: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => NodeJS.Timeout;

export interface TrackedTimers<T> {
  result: T;
  /** Cancels every pending tracked timer; their loops end. */
  stop(): void;
}

/** `onError` receives what a tracked timer's callback throws (instead of an uncaught exception). */
export function runWithTrackedTimers<T>(fn: () => T, onError: (err: unknown) => void): TrackedTimers<T> {
  const realSetTimeout = globalThis.setTimeout as unknown as TimeoutFn;
  const live = new Set<NodeJS.Timeout>();
  let stopped = false;

  const within = <R>(f: () => R): R => {
    const previous = globalThis.setTimeout;
    globalThis.setTimeout = tracked as unknown as typeof setTimeout;
    try {
      return f();
    } finally {
      globalThis.setTimeout = previous;
    }
  };
  const tracked: TimeoutFn = (cb, ms, ...args) => {
    const timer = realSetTimeout(() => {
      live.delete(timer);
      if (stopped) return;
      try {
        within(() => cb(...args));
      } catch (err) {
        onError(err);
      }
    }, ms);
    timer.unref();
    live.add(timer);
    return timer;
  };

  const result = within(fn);
  return {
    result,
    stop() {
      stopped = true;
      for (const t of live) clearTimeout(t);
      live.clear();
    },
  };
}
