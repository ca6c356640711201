/**
 * The device page's Metrics tab (issue 16 §1 "Metrics"; §7 get-metrics-info, change-save-metrics-info,
 * get-usages; §9 device score): uPlot charts of CPU %, memory %, each GPU's utilisation % and memory %, and
 * temperature °C for the last hour, 6 hours or 24 hours (the device's history, downsampled on the device),
 * with live values appended while the page is visible; the history-saving settings.
 * The range is in the URL (`range=1h|6h|24h`) so it survives a reload. Opens the metrics actor's view of the
 * device while shown (metrics.open / metrics.close).
 *
 * Test ids: metrics-tab (data-range, data-status), metrics-range, metrics-live, metrics-chart-<key> (with
 * data-drawn, data-points) and -summary, metrics-score, metrics-history-error, metrics-retry, metrics-samples.
 */
import {
  Alert,
  Button,
  Group,
  Loader,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { MetricsViewRef } from '../../../../../machines/metrics/metrics.machine';
import { isMetricsRange, type MetricsRange } from '../../../../../machines/metrics/metricsData';
import { FeatureReady } from '../../../shell/FeatureReady';
import '../i18n';
import { formatValue, useMetricsRef, useMetricsTabView, useMetricsViewRef } from '../selectors';
import { MetricsChart } from './MetricsChart';
import { SettingsForm } from './SettingsForm';

const COLORS: Record<string, string> = { cpu: '#1c7ed6', memory: '#7048e8', temperature: '#e8590c' };
const colorOf = (key: string) => COLORS[key] ?? (key.endsWith('.util') ? '#2f9e44' : '#0c8599');

export default function MetricsTab({ deviceId }: { deviceId: string }) {
  return (
    <FeatureReady feature="metrics">
      <MetricsTabReady deviceId={deviceId} />
    </FeatureReady>
  );
}

function MetricsTabReady({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const metrics = useMetricsRef();
  const [params] = useSearchParams();
  const asked = params.get('range');
  const range: MetricsRange = isMetricsRange(asked) ? asked : '1h';
  useEffect(() => {
    metrics.send({ type: 'metrics.open', deviceId, range });
    return () => metrics.send({ type: 'metrics.close', deviceId });
    // The range at opening only; later changes are sent to the view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [metrics, deviceId]);
  const view = useMetricsViewRef(deviceId);
  return view ? (
    <MetricsPanel actor={view} range={range} />
  ) : (
    <Loader size="sm" aria-label={t('metrics.loading')} />
  );
}

function MetricsPanel({ actor, range }: { actor: MetricsViewRef; range: MetricsRange }) {
  const { t } = useTranslation();
  const view = useMetricsTabView(actor);
  const [, setParams] = useSearchParams();

  useEffect(() => {
    actor.send({ type: 'metrics.range', range });
  }, [actor, range]);
  useEffect(() => {
    const report = () =>
      actor.send({ type: 'metrics.visible', visible: document.visibilityState === 'visible' });
    report();
    document.addEventListener('visibilitychange', report);
    return () => document.removeEventListener('visibilitychange', report);
  }, [actor]);

  const rangeName = t(`metrics.ranges.${view.range}`);
  const status = view.loading
    ? 'loading'
    : view.historyError
      ? 'failed'
      : view.charts.length
        ? 'ready'
        : 'empty';
  return (
    <Stack gap="md" data-testid="metrics-tab" data-range={view.range} data-status={status}>
      <Group justify="space-between" align="flex-end">
        <Title order={2}>{t('metrics.title')}</Title>
        {view.score !== null && (
          <Text size="sm" title={t('metrics.scoreHint')} data-testid="metrics-score">
            {t('metrics.score')}: <strong>{view.score.toFixed(1)}</strong>
          </Text>
        )}
      </Group>
      <Group justify="space-between">
        <SegmentedControl
          aria-label={t('metrics.rangeLabel')}
          value={view.range}
          onChange={(r) =>
            setParams(
              (p) => {
                const next = new URLSearchParams(p);
                next.set('range', r);
                return next;
              },
              { replace: true },
            )
          }
          data={(['1h', '6h', '24h'] as const).map((r) => ({ value: r, label: t(`metrics.ranges.${r}`) }))}
          data-testid="metrics-range"
        />
        <Switch
          label={t('metrics.live')}
          checked={view.liveOn}
          onChange={(e) => actor.send({ type: 'metrics.live', on: e.currentTarget.checked })}
          data-testid="metrics-live"
        />
      </Group>
      {view.livePaused && <Text size="xs">{t('metrics.paused')}</Text>}
      {view.liveError && (
        <Text size="sm" c="orange.9" role="status">
          {t('metrics.liveFailed', { error: view.liveError })}
        </Text>
      )}
      {view.loading && (
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden />
          <Text>{t('metrics.loading')}</Text>
        </Group>
      )}
      {view.historyError && (
        <Alert color="red" role="alert" data-testid="metrics-history-error">
          <Stack gap="xs" align="flex-start">
            <Text>{t('metrics.loadFailed', { error: view.historyError })}</Text>
            <Button
              size="xs"
              variant="light"
              onClick={() => actor.send({ type: 'metrics.retry' })}
              data-testid="metrics-retry"
            >
              {t('metrics.retry')}
            </Button>
          </Stack>
        </Alert>
      )}
      {view.samples !== null && (
        <Text size="xs" c="dimmed" data-testid="metrics-samples">
          {t('metrics.samples', { count: view.samples })}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {view.charts.map((c) => {
          const name = t(c.titleKey, c.titleValues);
          const none = t('metrics.none');
          return (
            <MetricsChart
              key={c.key}
              testId={`metrics-chart-${c.key.replace('.', '-')}`}
              title={name}
              label={t('metrics.chartName', { name, unit: t(`metrics.units.${c.unit}`), range: rangeName })}
              summary={
                c.points === 0
                  ? t('metrics.noData')
                  : t('metrics.summary', {
                      current: formatValue(c.current, c.unit, none),
                      min: formatValue(c.min, c.unit, none),
                      max: formatValue(c.max, c.unit, none),
                    })
              }
              unit={c.unit}
              data={c.data}
              color={colorOf(c.key)}
            />
          );
        })}
      </SimpleGrid>
      <SettingsForm view={view} actor={actor} />
    </Stack>
  );
}
