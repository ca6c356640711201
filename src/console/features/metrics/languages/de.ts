import type { MetricsTranslation } from './en';

/** The metrics feature's texts in German. */
export const de: MetricsTranslation = {
  tab: 'Metriken',
  title: 'Metriken',
  rangeLabel: 'Zeitraum',
  ranges: { '1h': 'Letzte Stunde', '6h': 'Letzte 6 Stunden', '24h': 'Letzte 24 Stunden' },
  live: 'Live-Werte',
  paused: 'Live-Werte pausieren, solange die Seite verborgen ist.',
  loading: 'Verlauf wird gelesen…',
  loadFailed: 'Der Verlauf konnte nicht gelesen werden: {{error}}',
  retry: 'Erneut versuchen',
  liveFailed: 'Live-Werte konnten nicht gelesen werden: {{error}}',
  samples: '{{count}} Messwerte auf dem Gerät gespeichert',
  charts: {
    cpu: 'CPU',
    memory: 'Arbeitsspeicher',
    temperature: 'Temperatur',
    gpuUtil: '{{name}} Auslastung',
    gpuMemory: '{{name}} Speicher',
  },
  units: { percent: '%', celsius: '°C' },
  chartName: '{{name}} ({{unit}}), {{range}}: Mittelwert je Intervall mit Minimum und Maximum',
  summary: 'Jetzt {{current}}, Minimum {{min}}, Maximum {{max}}',
  noData: 'Keine Messwerte in diesem Zeitraum.',
  none: '–',
  score: 'Gerätewert',
  scoreHint: '100 − (0,5 × GPU-Speicher % + 0,3 × GPU-Auslastung + 0,2 × CPU %)',
  settings: {
    title: 'Verlauf auf dem Gerät',
    save: 'Verlauf auf dem Gerät speichern',
    interval: 'Messintervall (Sekunden)',
    retention: 'Aufbewahren (Stunden)',
    submit: 'Speichern',
    saved: 'Gespeichert.',
    failed: 'Die Einstellungen konnten nicht gespeichert werden: {{error}}',
    errors: {
      interval: 'Ganze Sekunden von 1 bis 3600 eingeben.',
      retention: 'Ganze Stunden von 1 bis 168 eingeben.',
      tooMany:
        'Ein Verlauf hält höchstens 172.800 Messwerte: längeres Intervall oder kürzere Aufbewahrung wählen.',
    },
  },
};
