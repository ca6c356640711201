/**
 * The metric alerts of alert-metrics-settings-info (spec §7 change-check-device-metrics-info), for real: while
 * enabled, every intervalS seconds the device's usage (Backend.usages: CPU %, memory, GPU utilisation %,
 * temperature °C) is compared with the thresholds; a metric that goes over its threshold is reported once
 * (link event SETTINGS_EVENTS.metricAlert `MetricAlert`, and a warning in the agent's log) until it is back
 * under it.
 */
import type { Usages } from '../backends/types';
import { errorMessage, type Logger } from '../log';
import type { MetricsAlertInput } from '../../protocol/deviceSettings';

/** One metric over its threshold. value and threshold: % (cpu, gpu, memory) or °C (temperature); at: ms epoch. */
export interface MetricAlert {
  metric: 'cpu' | 'gpu' | 'memory' | 'temperature';
  value: number;
  threshold: number;
  at: number;
}

/** The metrics of `usage` over their thresholds (GPU: the busiest GPU; memory: used / total, %). */
export function exceeded(usage: Usages, t: MetricsAlertInput, at: number): MetricAlert[] {
  const out: MetricAlert[] = [];
  const check = (metric: MetricAlert['metric'], value: number | null, threshold: number) => {
    if (value !== null && Number.isFinite(value) && value > threshold) {
      out.push({ metric, value: Math.round(value * 10) / 10, threshold, at });
    }
  };
  check('cpu', usage.cpu, t.cpuPercent);
  check('gpu', usage.gpus.length ? Math.max(...usage.gpus.map((g) => g.utilisation)) : null, t.gpuPercent);
  check(
    'memory',
    usage.memory_total_mb > 0 ? (100 * usage.memory_used_mb) / usage.memory_total_mb : null,
    t.memoryPercent,
  );
  check('temperature', usage.temperature_c, t.temperatureC);
  return out;
}

export interface AlertWatcherDeps {
  usages(): Promise<Usages>;
  report(alert: MetricAlert): void;
  log: Logger;
}

/** Checks the metrics on a timer while enabled; `apply` takes new settings (restarting the timer). */
export class MetricAlertWatcher {
  private timer: NodeJS.Timeout | null = null;
  private settings: MetricsAlertInput | null = null;
  /** Metrics over their threshold at the last check (reported once each). */
  private readonly over = new Set<MetricAlert['metric']>();
  private closed = false;

  constructor(private readonly deps: AlertWatcherDeps) {}

  apply(settings: MetricsAlertInput): void {
    this.stop();
    if (this.closed) return;
    this.settings = settings;
    if (!settings.enabled) {
      this.over.clear();
      return;
    }
    this.timer = setInterval(() => void this.check(), settings.intervalS * 1000);
    this.timer.unref();
  }

  /** One check now; answers the metrics newly over their threshold (those reported). */
  async check(): Promise<MetricAlert[]> {
    const settings = this.settings;
    if (!settings?.enabled) return [];
    let usage: Usages;
    try {
      usage = await this.deps.usages();
    } catch (err) {
      this.deps.log.warn('settings: metrics could not be read for the alerts', { error: errorMessage(err) });
      return [];
    }
    const now = exceeded(usage, settings, Date.now());
    const fresh = now.filter((a) => !this.over.has(a.metric));
    this.over.clear();
    for (const a of now) this.over.add(a.metric);
    for (const a of fresh) {
      this.deps.log.warn(`settings: ${a.metric} over its alert threshold`, { ...a });
      this.deps.report(a);
    }
    return fresh;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stops for good (later `apply` calls start nothing). */
  close(): void {
    this.closed = true;
    this.stop();
  }
}
