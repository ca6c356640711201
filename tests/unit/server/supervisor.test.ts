/**
 * The database supervisor's loops (src/server/db/supervisor.ts) sleep on one abort signal for the server's
 * whole life: each sleep must leave no listener behind (Node warned "11 abort listeners" 22 s after start).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DatabaseStatus } from '../../../src/server/db/availability';
import { OUTAGE_PROBE_MS, superviseDatabase } from '../../../src/server/db/supervisor';

afterEach(() => {
  vi.useRealTimers();
});

describe('database supervisor', () => {
  it('probes for minutes without a MaxListenersExceededWarning, and stops at once', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    vi.useFakeTimers();
    try {
      const status = new DatabaseStatus();
      let probes = 0;
      const supervisor = superviseDatabase({
        embedded: null,
        status,
        probe: async () => {
          probes += 1;
          return false;
        },
        log: { info: () => {}, warn: () => {} },
      });
      status.markDown(new Error('connection refused'));
      await vi.advanceTimersByTimeAsync(60 * OUTAGE_PROBE_MS);
      expect(probes).toBe(60);
      supervisor.stop();
      await vi.advanceTimersByTimeAsync(OUTAGE_PROBE_MS);
      expect(probes).toBe(60);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => process.nextTick(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
