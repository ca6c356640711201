/**
 * The metrics feature's texts in English (§2 language 'en'), the complete set the other languages must give
 * (MetricsTranslation).
 */
export const en = {
  tab: 'Metrics',
  title: 'Metrics',
  rangeLabel: 'Time range',
  ranges: { '1h': 'Last hour', '6h': 'Last 6 hours', '24h': 'Last 24 hours' },
  live: 'Live values',
  paused: 'Live values pause while the page is hidden.',
  loading: 'Reading the history…',
  loadFailed: 'The history could not be read: {{error}}',
  retry: 'Try again',
  liveFailed: 'Live values could not be read: {{error}}',
  samples: '{{count}} samples kept on the device',
  charts: {
    cpu: 'CPU',
    memory: 'Memory',
    temperature: 'Temperature',
    gpuUtil: '{{name}} utilisation',
    gpuMemory: '{{name}} memory',
  },
  units: { percent: '%', celsius: '°C' },
  chartName: '{{name}} ({{unit}}), {{range}}: average per interval with its lowest and highest values',
  summary: 'Now {{current}}, lowest {{min}}, highest {{max}}',
  noData: 'No samples in this range.',
  none: '–',
  score: 'Device score',
  scoreHint: '100 − (0.5 × GPU memory % + 0.3 × GPU utilisation + 0.2 × CPU %)',
  settings: {
    title: 'History on the device',
    save: 'Keep a history on the device',
    interval: 'Sample interval (seconds)',
    retention: 'Keep for (hours)',
    submit: 'Save',
    saved: 'Saved.',
    failed: 'The settings could not be saved: {{error}}',
    errors: {
      interval: 'Enter whole seconds from 1 to 3600.',
      retention: 'Enter whole hours from 1 to 168.',
      tooMany: 'A history keeps at most 172,800 samples: choose a longer interval or a shorter retention.',
    },
  },
};

type Texts<T> = { [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };
/** What every language gives: the same keys as English. */
export type MetricsTranslation = Texts<typeof en>;
