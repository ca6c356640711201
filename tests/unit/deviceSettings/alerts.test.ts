/**
 * The metric alerts (src/agent/deviceSettings/alerts.ts): which metrics are over their thresholds, and the
 * settings part reporting a metric once when it goes over (link event 'settings.metricAlert'), again only
 * after it was back under; nothing while the alerts are off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Backend, Usages } from '../../../src/agent/backends/types';
import {
  createDeviceSettings,
  DEFAULT_SETTINGS,
  exceeded,
  type DeviceSettings,
} from '../../../src/agent/deviceSettings';
import { silentLogger } from '../../../src/agent/log';
import { SETTINGS_EVENTS } from '../../../src/protocol/deviceSettings';

const usage = (over: Partial<Usages> = {}): Usages => ({
  cpu: 20,
  memory_used_mb: 1000,
  memory_total_mb: 8000,
  gpus: [{ name: 'GPU', utilisation: 10, memory_used_mb: 0, memory_total_mb: 1000 }],
  temperature_c: 45,
  ...over,
});

const dirs: string[] = [];
const parts: DeviceSettings[] = [];
afterEach(async () => {
  for (const p of parts.splice(0)) await p.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('metric alerts', () => {
  it('finds the metrics over their thresholds', () => {
    const t = DEFAULT_SETTINGS.metricsAlert;
    expect(exceeded(usage(), t, 1)).toEqual([]);
    const over = exceeded(
      usage({
        cpu: 95,
        memory_used_mb: 7600,
        gpus: [
          { name: 'a', utilisation: 30, memory_used_mb: 0, memory_total_mb: 1 },
          { name: 'b', utilisation: 99, memory_used_mb: 0, memory_total_mb: 1 },
        ],
        temperature_c: 85,
      }),
      t,
      1,
    );
    expect(over.map((a) => [a.metric, a.value, a.threshold])).toEqual([
      ['cpu', 95, 90],
      ['gpu', 99, 90],
      ['memory', 95, 90],
      ['temperature', 85, 80],
    ]);
    expect(exceeded(usage({ gpus: [], temperature_c: null, memory_total_mb: 0 }), t, 1)).toEqual([]);
  });

  it('the part reports a metric once when it goes over, again after it was back under', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'settings-alerts-'));
    dirs.push(dir);
    let now = usage({ cpu: 95 });
    const events: { name: string; data: unknown }[] = [];
    const part = createDeviceSettings({
      mode: 'sim',
      backend: { kind: 'x86', usages: async () => now } as unknown as Backend,
      deviceId: 'dev-1',
      label: 'Sim',
      stateDir: dir,
      log: silentLogger,
      broadcast: (name, data) => events.push({ name, data }),
    });
    parts.push(part);
    await part.all();
    expect((await part.checkAlerts()).map((a) => a.metric)).toEqual(['cpu']);
    expect(events).toContainEqual({
      name: SETTINGS_EVENTS.metricAlert,
      data: expect.objectContaining({ metric: 'cpu', value: 95, threshold: 90 }),
    });
    expect(await part.checkAlerts()).toEqual([]);
    now = usage();
    expect(await part.checkAlerts()).toEqual([]);
    now = usage({ cpu: 97 });
    expect((await part.checkAlerts()).map((a) => a.metric)).toEqual(['cpu']);
    // A higher threshold: 97 % is fine; alerts off: nothing is checked.
    await part.changeMetricsAlert({ ...DEFAULT_SETTINGS.metricsAlert, cpuPercent: 98 });
    expect(await part.checkAlerts()).toEqual([]);
    now = usage({ cpu: 99 });
    await part.changeMetricsAlert({ ...DEFAULT_SETTINGS.metricsAlert, enabled: false });
    expect(await part.checkAlerts()).toEqual([]);
  });
});
