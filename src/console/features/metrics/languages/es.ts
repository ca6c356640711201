import type { MetricsTranslation } from './en';

/** The metrics feature's texts in Spanish. */
export const es: MetricsTranslation = {
  tab: 'Métricas',
  title: 'Métricas',
  rangeLabel: 'Periodo',
  ranges: { '1h': 'Última hora', '6h': 'Últimas 6 horas', '24h': 'Últimas 24 horas' },
  live: 'Valores en vivo',
  paused: 'Los valores en vivo se pausan mientras la página está oculta.',
  loading: 'Leyendo el historial…',
  loadFailed: 'No se pudo leer el historial: {{error}}',
  retry: 'Reintentar',
  liveFailed: 'No se pudieron leer los valores en vivo: {{error}}',
  samples: '{{count}} muestras guardadas en el dispositivo',
  charts: {
    cpu: 'CPU',
    memory: 'Memoria',
    temperature: 'Temperatura',
    gpuUtil: 'Uso de {{name}}',
    gpuMemory: 'Memoria de {{name}}',
  },
  units: { percent: '%', celsius: '°C' },
  chartName: '{{name}} ({{unit}}), {{range}}: promedio por intervalo con su mínimo y máximo',
  summary: 'Ahora {{current}}, mínimo {{min}}, máximo {{max}}',
  noData: 'No hay muestras en este periodo.',
  none: '–',
  score: 'Puntuación del dispositivo',
  scoreHint: '100 − (0,5 × memoria GPU % + 0,3 × uso de GPU + 0,2 × CPU %)',
  settings: {
    title: 'Historial en el dispositivo',
    save: 'Guardar un historial en el dispositivo',
    interval: 'Intervalo de muestreo (segundos)',
    retention: 'Conservar durante (horas)',
    submit: 'Guardar',
    saved: 'Guardado.',
    failed: 'No se pudieron guardar los ajustes: {{error}}',
    errors: {
      interval: 'Introduzca segundos enteros de 1 a 3600.',
      retention: 'Introduzca horas enteras de 1 a 168.',
      tooMany: 'Un historial guarda como máximo 172.800 muestras: elija un intervalo mayor o menos horas.',
    },
  },
};
