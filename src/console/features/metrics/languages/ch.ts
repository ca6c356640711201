import type { MetricsTranslation } from './en';

/** The metrics feature's texts in Chinese. */
export const ch: MetricsTranslation = {
  tab: '指标',
  title: '指标',
  rangeLabel: '时间范围',
  ranges: { '1h': '最近 1 小时', '6h': '最近 6 小时', '24h': '最近 24 小时' },
  live: '实时数值',
  paused: '页面隐藏时实时数值暂停。',
  loading: '正在读取历史…',
  loadFailed: '无法读取历史：{{error}}',
  retry: '重试',
  liveFailed: '无法读取实时数值：{{error}}',
  samples: '设备上保存了 {{count}} 个样本',
  charts: {
    cpu: 'CPU',
    memory: '内存',
    temperature: '温度',
    gpuUtil: '{{name}} 利用率',
    gpuMemory: '{{name}} 显存',
  },
  units: { percent: '%', celsius: '°C' },
  chartName: '{{name}}（{{unit}}），{{range}}：每个区间的平均值及最低值和最高值',
  summary: '当前 {{current}}，最低 {{min}}，最高 {{max}}',
  noData: '此时间范围内没有样本。',
  none: '–',
  score: '设备评分',
  scoreHint: '100 − (0.5 × GPU 显存 % + 0.3 × GPU 利用率 + 0.2 × CPU %)',
  settings: {
    title: '设备上的历史',
    save: '在设备上保存历史',
    interval: '采样间隔（秒）',
    retention: '保留时间（小时）',
    submit: '保存',
    saved: '已保存。',
    failed: '无法保存设置：{{error}}',
    errors: {
      interval: '请输入 1 到 3600 之间的整数秒。',
      retention: '请输入 1 到 168 之间的整数小时。',
      tooMany: '历史最多保存 172,800 个样本：请选择更长的间隔或更短的保留时间。',
    },
  },
};
