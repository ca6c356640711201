import type { MetricsTranslation } from './en';

/** The metrics feature's texts in Japanese. */
export const jp: MetricsTranslation = {
  tab: 'メトリクス',
  title: 'メトリクス',
  rangeLabel: '期間',
  ranges: { '1h': '過去 1 時間', '6h': '過去 6 時間', '24h': '過去 24 時間' },
  live: 'ライブ値',
  paused: 'ページが非表示の間、ライブ値は一時停止します。',
  loading: '履歴を読み込んでいます…',
  loadFailed: '履歴を読み込めませんでした: {{error}}',
  retry: '再試行',
  liveFailed: 'ライブ値を読み込めませんでした: {{error}}',
  samples: 'デバイスに {{count}} 件のサンプルを保存',
  charts: {
    cpu: 'CPU',
    memory: 'メモリ',
    temperature: '温度',
    gpuUtil: '{{name}} 使用率',
    gpuMemory: '{{name}} メモリ',
  },
  units: { percent: '%', celsius: '°C' },
  chartName: '{{name}}（{{unit}}）、{{range}}: 区間ごとの平均と最小値・最大値',
  summary: '現在 {{current}}、最小 {{min}}、最大 {{max}}',
  noData: 'この期間のサンプルはありません。',
  none: '–',
  score: 'デバイススコア',
  scoreHint: '100 − (0.5 × GPU メモリ % + 0.3 × GPU 使用率 + 0.2 × CPU %)',
  settings: {
    title: 'デバイス上の履歴',
    save: 'デバイスに履歴を保存する',
    interval: 'サンプル間隔（秒）',
    retention: '保存期間（時間）',
    submit: '保存',
    saved: '保存しました。',
    failed: '設定を保存できませんでした: {{error}}',
    errors: {
      interval: '1〜3600 の整数秒を入力してください。',
      retention: '1〜168 の整数時間を入力してください。',
      tooMany: '履歴は最大 172,800 サンプルです。間隔を長くするか保存期間を短くしてください。',
    },
  },
};
