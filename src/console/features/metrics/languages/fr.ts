import type { MetricsTranslation } from './en';

/** The metrics feature's texts in French. */
export const fr: MetricsTranslation = {
  tab: 'Métriques',
  title: 'Métriques',
  rangeLabel: 'Période',
  ranges: { '1h': 'Dernière heure', '6h': 'Dernières 6 heures', '24h': 'Dernières 24 heures' },
  live: 'Valeurs en direct',
  paused: 'Les valeurs en direct s’arrêtent tant que la page est masquée.',
  loading: 'Lecture de l’historique…',
  loadFailed: 'L’historique n’a pas pu être lu : {{error}}',
  retry: 'Réessayer',
  liveFailed: 'Les valeurs en direct n’ont pas pu être lues : {{error}}',
  samples: '{{count}} mesures conservées sur l’appareil',
  charts: {
    cpu: 'CPU',
    memory: 'Mémoire',
    temperature: 'Température',
    gpuUtil: 'Utilisation de {{name}}',
    gpuMemory: 'Mémoire de {{name}}',
  },
  units: { percent: '%', celsius: '°C' },
  chartName: '{{name}} ({{unit}}), {{range}} : moyenne par intervalle avec ses valeurs minimale et maximale',
  summary: 'Maintenant {{current}}, minimum {{min}}, maximum {{max}}',
  noData: 'Aucune mesure sur cette période.',
  none: '–',
  score: 'Score de l’appareil',
  scoreHint: '100 − (0,5 × mémoire GPU % + 0,3 × utilisation GPU + 0,2 × CPU %)',
  settings: {
    title: 'Historique sur l’appareil',
    save: 'Conserver un historique sur l’appareil',
    interval: 'Intervalle de mesure (secondes)',
    retention: 'Conserver pendant (heures)',
    submit: 'Enregistrer',
    saved: 'Enregistré.',
    failed: 'Les réglages n’ont pas pu être enregistrés : {{error}}',
    errors: {
      interval: 'Saisissez un nombre entier de secondes de 1 à 3600.',
      retention: 'Saisissez un nombre entier d’heures de 1 à 168.',
      tooMany:
        'Un historique garde au plus 172 800 mesures : choisissez un intervalle plus long ou une durée plus courte.',
    },
  },
};
