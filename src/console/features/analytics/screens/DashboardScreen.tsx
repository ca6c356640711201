/**
 * /analytics/dashboard/{id} (§2 Analytics; issue 11 "a dashboard is a grid of charts (react-grid-layout, and
 * a well-kept chart library) over events aggregated in PostgreSQL by time bucket; clicking a chart filters
 * the dashboard. Export CSV and PNG"). The toolbar sets the time range (the last 15 min … 30 days, or a
 * custom from/to) and the bucket; filters set by clicking charts show as removable chips; charts are cards
 * on a 12-column grid whose drags and resizes are saved to the server (debounced); Add chart / configure /
 * remove open the chart form (ChartEditor). Driven by one dashboard machine actor.
 * Test ids: dashboard-screen (data-state, data-fetching, data-save), dashboard-range, dashboard-bucket,
 * dashboard-from, dashboard-to, dashboard-apply, dashboard-add-chart, dashboard-refresh, filter-chip-<dim>,
 * dashboard-grid, chart-<id>.
 */
import { Alert, Button, Group, Loader, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useActorRef } from '@xstate/react';
import { useCallback, useMemo, useState } from 'react';
import ReactGridLayout, { useContainerWidth, verticalCompactor, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import {
  GRID_COLUMNS,
  RANGE_PRESETS,
  type RangePreset,
} from '../../../../../machines/analytics/dashboardModel';
import { dashboardLogic } from '../actors';
import '../i18n';
import { localeOf, useDashboardView, type ChartView } from '../selectors';
import { ChartCard } from './ChartCard';
import { ChartEditor } from './ChartEditor';

const ROW_HEIGHT_PX = 30;
const MARGIN: [number, number] = [10, 10];

/** A datetime-local input's value for an instant (the browser's zone, minutes). */
function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

export default function DashboardScreen() {
  const { id = '' } = useParams();
  return <DashboardView key={id} id={id} />;
}

function DashboardView({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const locale = localeOf(i18n.language);
  const [logic] = useState(dashboardLogic);
  const actor = useActorRef(logic, { input: { id } });
  const view = useDashboardView(actor, locale);
  const { width, containerRef, mounted } = useContainerWidth();
  const [custom, setCustom] = useState<{ from: string; to: string } | null>(null);

  const layout = useMemo<Layout>(() => view.layout.map((l) => ({ ...l })), [view.layout]);
  const onLayoutChange = useCallback(
    (next: Layout) =>
      actor.send({ type: 'layout.change', layout: next.map(({ i, x, y, w, h }) => ({ i, x, y, w, h })) }),
    [actor],
  );
  const titleOf = (c: ChartView) =>
    c.title ||
    t('analytics.chart.defaultTitle', {
      source: t(`analytics.sources.${c.source}`),
      groupBy: t(`analytics.dimensions.${c.groupBy}`).toLowerCase(),
    });
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const rangeValue = view.range.kind === 'relative' && !custom ? view.range.preset : 'custom';

  if (view.state !== 'ready')
    return (
      <Stack data-testid="dashboard-screen" data-state={view.state}>
        {view.state === 'loading' ? (
          <Group gap="xs">
            <Loader size="sm" />
            <Text>{t('analytics.dashboard.loading')}</Text>
          </Group>
        ) : (
          <Alert color="red" data-testid="dashboard-error">
            <Group justify="space-between">
              <Text size="sm">{t('analytics.dashboard.failed', { error: view.error })}</Text>
              <Button size="xs" variant="light" onClick={() => actor.send({ type: 'dashboard.retry' })}>
                {t('analytics.dashboard.retry')}
              </Button>
            </Group>
          </Alert>
        )}
      </Stack>
    );

  return (
    <Stack
      gap="sm"
      data-testid="dashboard-screen"
      data-state={view.state}
      data-fetching={view.fetching}
      data-save={view.save}
    >
      {view.collectionId && (
        <Link to={`/analytics/dashboard-collection/${view.collectionId}`} className="ui-link">
          {t('analytics.dashboard.back')}
        </Link>
      )}
      <Group justify="space-between" align="flex-end">
        <Title order={1} size="h2">
          {view.name}
        </Title>
        <Text
          size="sm"
          c={view.saveError ? 'red' : 'dimmed'}
          aria-live="polite"
          data-testid="dashboard-save-state"
        >
          {view.saveError
            ? t('analytics.dashboard.saveFailed', { error: view.saveError })
            : view.save === 'idle'
              ? t('analytics.dashboard.saved')
              : t('analytics.dashboard.saving')}
        </Text>
      </Group>

      <Group align="flex-end" gap="sm" wrap="wrap">
        <NativeSelect
          label={t('analytics.dashboard.range')}
          value={rangeValue}
          data={[
            ...Object.keys(RANGE_PRESETS).map((p) => ({ value: p, label: t(`analytics.presets.${p}`) })),
            { value: 'custom', label: t('analytics.dashboard.custom') },
          ]}
          onChange={(e) => {
            const v = e.currentTarget.value;
            if (v === 'custom') {
              const w = view.window;
              const to = w ? Date.parse(w.to) : Date.now();
              const from = w ? Date.parse(w.from) : to - 86_400_000;
              setCustom({ from: localInput(from), to: localInput(to) });
            } else {
              setCustom(null);
              actor.send({ type: 'range.set', range: { kind: 'relative', preset: v as RangePreset } });
            }
          }}
          data-testid="dashboard-range"
        />
        {custom && (
          <>
            <TextInput
              type="datetime-local"
              label={t('analytics.dashboard.from')}
              value={custom.from}
              onChange={(e) => setCustom({ ...custom, from: e.currentTarget.value })}
              data-testid="dashboard-from"
            />
            <TextInput
              type="datetime-local"
              label={t('analytics.dashboard.to')}
              value={custom.to}
              onChange={(e) => setCustom({ ...custom, to: e.currentTarget.value })}
              data-testid="dashboard-to"
            />
            <Button
              variant="default"
              disabled={!(Date.parse(custom.to) > Date.parse(custom.from))}
              onClick={() =>
                actor.send({
                  type: 'range.set',
                  range: { kind: 'absolute', from: Date.parse(custom.from), to: Date.parse(custom.to) },
                })
              }
              data-testid="dashboard-apply"
            >
              {t('analytics.dashboard.apply')}
            </Button>
          </>
        )}
        <NativeSelect
          label={t('analytics.dashboard.bucket')}
          value={String(view.bucketSeconds)}
          data={view.buckets.map((b) => ({ value: String(b), label: t(`analytics.buckets.${b}`) }))}
          onChange={(e) => actor.send({ type: 'bucket.set', bucketSeconds: Number(e.currentTarget.value) })}
          data-testid="dashboard-bucket"
        />
        <Button
          variant="default"
          loading={view.fetching}
          onClick={() => actor.send({ type: 'data.refresh' })}
          data-testid="dashboard-refresh"
        >
          {t('analytics.dashboard.refresh')}
        </Button>
        <Button onClick={() => actor.send({ type: 'editor.open' })} data-testid="dashboard-add-chart">
          {t('analytics.dashboard.addChart')}
        </Button>
      </Group>
      {view.window && (
        <Text size="xs" c="dimmed" data-testid="dashboard-window">
          {t('analytics.dashboard.window', {
            from: time.format(new Date(view.window.from)),
            to: time.format(new Date(view.window.to)),
          })}
          {view.serverMs !== null && ` · ${t('analytics.dashboard.serverMs', { ms: view.serverMs })}`}
        </Text>
      )}

      <Group
        gap="xs"
        aria-label={t('analytics.dashboard.filters')}
        role="group"
        data-testid="dashboard-filters"
      >
        <Text size="sm" fw={500}>
          {t('analytics.dashboard.filters')}:
        </Text>
        {view.filters.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('analytics.dashboard.noFilters')}
          </Text>
        )}
        {view.filters.map((f) => {
          const dim = t(`analytics.dimensions.${f.dimension}`);
          return (
            <Button
              key={f.dimension}
              size="compact-sm"
              variant="light"
              radius="xl"
              rightSection={<span aria-hidden>×</span>}
              aria-label={t('analytics.dashboard.removeFilter', { dimension: dim, value: f.value })}
              onClick={() => actor.send({ type: 'filter.remove', dimension: f.dimension })}
              data-testid={`filter-chip-${f.dimension}`}
            >
              {dim}: {f.value}
            </Button>
          );
        })}
        {view.filters.length > 1 && (
          <Button size="compact-sm" variant="subtle" onClick={() => actor.send({ type: 'filter.clear' })}>
            {t('analytics.dashboard.clearFilters')}
          </Button>
        )}
      </Group>

      {view.dataError && (
        <Alert color="red" data-testid="dashboard-data-error">
          {t('analytics.dashboard.dataFailed', { error: view.dataError })}
        </Alert>
      )}
      {view.charts.length === 0 && (
        <Text c="dimmed" data-testid="dashboard-empty">
          {t('analytics.dashboard.empty')}
        </Text>
      )}
      <section aria-label={t('analytics.dashboard.grid')}>
        <div ref={containerRef} data-testid="dashboard-grid">
          {mounted && view.charts.length > 0 && (
            <ReactGridLayout
              width={width}
              layout={layout}
              gridConfig={{ cols: GRID_COLUMNS, rowHeight: ROW_HEIGHT_PX, margin: MARGIN }}
              dragConfig={{
                enabled: true,
                handle: '.analytics-drag-handle',
                cancel: 'button,a,select,input',
              }}
              resizeConfig={{ enabled: true, handles: ['se'] }}
              compactor={verticalCompactor}
              onLayoutChange={onLayoutChange}
            >
              {view.charts.map((c) => (
                <div key={c.id}>
                  <ChartCard
                    view={c}
                    title={titleOf(c)}
                    onPick={(key) =>
                      c.clickAction === 'zoom'
                        ? (setCustom(null), actor.send({ type: 'range.zoom', from: key }))
                        : actor.send({ type: 'filter.click', chartId: c.id, key })
                    }
                    onConfigure={() => actor.send({ type: 'editor.open', id: c.id })}
                    onRemove={() => actor.send({ type: 'chart.remove', id: c.id })}
                  />
                </div>
              ))}
            </ReactGridLayout>
          )}
        </div>
      </section>

      <ChartEditor
        view={view}
        onChange={(patch) => actor.send({ type: 'editor.change', patch })}
        onSubmit={() => actor.send({ type: 'editor.submit' })}
        onCancel={() => actor.send({ type: 'editor.cancel' })}
      />
    </Stack>
  );
}
