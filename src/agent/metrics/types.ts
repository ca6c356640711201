/** Types the metrics part shares (src/protocol/metrics.ts, the backend's usages). */
export type { MetricsChunk, MetricsSeries, SaveMetricsSettings } from '../../protocol/metrics';
export type { Usages } from '../backends/types';
