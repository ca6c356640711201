/** Metric alert toasts (deviceSettings.machine.ts `settings.metricAlert`): zod- and xstate-free, for the texts. */

/** A metric of the device's alert settings (agent alerts.ts MetricAlert.metric). */
export type AlertMetric = 'cpu' | 'gpu' | 'memory' | 'temperature';

/**
 * English texts of a metric alert toast ({{device}}, {{value}}, {{threshold}} interpolated); the console shows
 * `deviceSettings.metricAlert.<key>` in the user's language.
 */
export const METRIC_ALERT_TEXTS = {
  title: 'Metric alert: {{device}}',
  cpu: 'CPU use is {{value}} %, over the alert threshold of {{threshold}} %.',
  gpu: 'GPU use is {{value}} %, over the alert threshold of {{threshold}} %.',
  memory: 'Memory use is {{value}} %, over the alert threshold of {{threshold}} %.',
  temperature: 'Temperature is {{value}} °C, over the alert threshold of {{threshold}} °C.',
} as const;
