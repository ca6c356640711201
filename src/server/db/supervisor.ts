/**
 * Keeps the database coming back (issue 15 "PostgreSQL killed and restarted under load"):
 *   - embedded PostgreSQL (spawned by this server): when the postmaster dies without being stopped, it is
 *     started again in the same cluster on the same port, after 250 ms, then with doubling waits up to 10 s
 *     until it starts; the pool's new connections reach it again, no server restart;
 *   - both kinds (embedded, DATABASE_URL): while the database is down, it is probed every 2 s, so the outage
 *     ends (one log line) and readiness turns back without waiting for traffic. The pool itself reconnects
 *     on the next query: node-postgres drops a client whose connection broke.
 */
import type { DatabaseStatus } from './availability';
import type { EmbeddedDatabase } from './embedded';

/** First wait (ms) before starting a dead embedded PostgreSQL again; doubles per failed start. */
export const RESTART_BACKOFF_FIRST_MS = 250;
/** Longest wait (ms) between two start attempts. */
export const RESTART_BACKOFF_MAX_MS = 10_000;
/** Period (ms) of the probe while the database is down. */
export const OUTAGE_PROBE_MS = 2_000;

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/** A running supervisor; `stop()` ends its loops (call before closing the database). */
export interface Supervisor {
  stop(): void;
  /** Times embedded PostgreSQL was started again (tests read it). */
  readonly restarts: number;
}

/**
 * Waits `ms`, or less when `signal` aborts. Its 'abort' listener goes when the wait ends either way: the loops
 * sleep on one signal for the server's whole life, and a listener left per sleep grew without end (Node's
 * MaxListenersExceededWarning "11 abort listeners" 22 s after start).
 */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Starts supervising. `embedded` is null for an external server (DATABASE_URL): then only the probe runs.
 * `probe` resolves true when PostgreSQL answers (and updates `status`); never rejects.
 */
export function superviseDatabase(opts: {
  embedded: EmbeddedDatabase | null;
  status: DatabaseStatus;
  probe: () => Promise<boolean>;
  log: Logger;
}): Supervisor {
  const { embedded, status, probe, log } = opts;
  const abort = new AbortController();
  let restarts = 0;

  async function restartLoop(db: EmbeddedDatabase): Promise<void> {
    while (!abort.signal.aborted) {
      const how = await db.died();
      if (how === null || abort.signal.aborted) return;
      status.markDown(new Error(`embedded PostgreSQL exited (${how})`));
      log.warn(`embedded PostgreSQL exited (${how}); starting it again`);
      let wait = RESTART_BACKOFF_FIRST_MS;
      for (let attempt = 1; !abort.signal.aborted; attempt++) {
        await sleep(wait, abort.signal);
        if (abort.signal.aborted) return;
        try {
          await db.restart();
          restarts += 1;
          log.info(`embedded PostgreSQL started again on 127.0.0.1:${db.port} (attempt ${attempt})`);
          await probe();
          break;
        } catch (err) {
          if (abort.signal.aborted) return;
          const reason = err instanceof Error ? err.message.split('\n')[0]!.slice(0, 200) : String(err);
          wait = Math.min(wait * 2, RESTART_BACKOFF_MAX_MS);
          log.warn(
            `embedded PostgreSQL did not start (attempt ${attempt}: ${reason}); next try in ${wait} ms`,
          );
        }
      }
    }
  }

  async function probeLoop(): Promise<void> {
    while (!abort.signal.aborted) {
      await sleep(OUTAGE_PROBE_MS, abort.signal);
      if (!abort.signal.aborted && !status.up) await probe();
    }
  }

  if (embedded) void restartLoop(embedded);
  void probeLoop();
  return {
    stop: () => abort.abort(),
    get restarts() {
      return restarts;
    },
  };
}
