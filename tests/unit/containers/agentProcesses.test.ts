import { afterEach, describe, expect, it } from 'vitest';
import { fitLogLines, LOG_LINE_MAX_CHARS, LOG_REPLY_MAX_BYTES } from '../../../src/agent/commands/containers';
import type { ContainerEngine } from '../../../src/agent/containers/engine';
import { ProcessTracker, throttle } from '../../../src/agent/containers/processes';
import { createSimEngine, SIM_MAX_CONTAINERS } from '../../../src/agent/containers/sim';

const engines: ContainerEngine[] = [];
const sim = () => {
  const e = createSimEngine({
    deviceId: 'd',
    deviceName: 'D',
    kind: 'jetson',
    hasGpu: false,
    timeScale: 0.01,
  });
  engines.push(e);
  return e;
};
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

describe('ProcessTracker', () => {
  it('lists ended processes only while they are recent', async () => {
    const tracker = new ProcessTracker({
      device: 'd',
      engine: sim(),
      broadcast: () => undefined,
      keepEndedMs: 40,
    });
    await tracker.run(
      'create',
      { docker: 'edge/python:3.11', envName: 'py', gpu: false, message: 'x' },
      async () => 1,
    );
    expect(tracker.list()).toHaveLength(1);
    expect(tracker.busy('py')).toBe(false);
    await new Promise((r) => setTimeout(r, 80));
    expect(tracker.list()).toEqual([]);
  });

  it('records a failed action with the §8 text and lets the next one run', async () => {
    const tracker = new ProcessTracker({ device: 'd', engine: sim(), broadcast: () => undefined });
    const meta = { docker: 'edge/python:3.11', envName: 'py', gpu: false, message: 'Starting' };
    await expect(
      tracker.run('start', meta, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(tracker.list()[0]).toMatchObject({ error: 'Container action failed: boom', message: 'Starting' });
    await expect(tracker.run('start', meta, async () => 'again')).resolves.toBe('again');
  });

  it('pushes the container list only when it changed', async () => {
    const e = sim();
    const events: string[] = [];
    const tracker = new ProcessTracker({ device: 'd', engine: e, broadcast: (name) => events.push(name) });
    await tracker.refreshContainers();
    await tracker.refreshContainers();
    await e.create({ image: 'edge/python:3.11', envName: 'py', jupyterPort: null, gpu: false });
    await tracker.refreshContainers();
    await tracker.refreshContainers();
    expect(events).toEqual(['containers.changed', 'containers.changed']);
  });
});

describe('throttle', () => {
  it('delivers the first value at once, folds the rest into one trailing call, flushes on demand', async () => {
    const got: number[] = [];
    const t = throttle((v: number) => got.push(v), 50);
    t.push(1);
    t.push(2);
    t.push(3);
    expect(got).toEqual([1]);
    await new Promise((r) => setTimeout(r, 80));
    expect(got).toEqual([1, 3]);
    t.push(4);
    t.push(5);
    t.flush();
    // 4 is folded into 5 unless the event loop stalled past the interval in between.
    expect(got.slice(0, 2)).toEqual([1, 3]);
    expect(got[got.length - 1]).toBe(5);
    expect(got).not.toContain(2);
  });
});

describe('limits that keep replies within one link message', () => {
  it('keeps the newest log lines that fit and cuts long lines', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i} ${'x'.repeat(100)}`);
    const fitted = fitLogLines(lines);
    expect(fitted[fitted.length - 1]).toBe(lines[999]);
    expect(fitted.length).toBeLessThan(1000);
    expect(Buffer.byteLength(JSON.stringify(fitted))).toBeLessThanOrEqual(LOG_REPLY_MAX_BYTES + 2);
    expect(fitLogLines(['y'.repeat(5000)])[0]).toHaveLength(LOG_LINE_MAX_CHARS);
  });

  it('holds at most SIM_MAX_CONTAINERS simulated containers', async () => {
    const e = sim();
    for (let i = 0; i < SIM_MAX_CONTAINERS; i++) {
      await e.create({ image: 'edge/python:3.11', envName: 'py', jupyterPort: null, gpu: false });
    }
    await expect(
      e.create({ image: 'edge/python:3.11', envName: 'py', jupyterPort: null, gpu: false }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });
});
