/**
 * One chart of a dashboard (issue 11 "a grid of charts … clicking a chart filters the dashboard. Export CSV
 * and PNG"), drawn with Chart.js on a canvas: line or bar over time buckets, bar or pie over a dimension's
 * values. A click on a dimension chart's bar or slice filters the whole dashboard by that value (the filtered
 * value is drawn strong, the rest pale); a click on a time bucket zooms into it. The canvas has an accessible
 * name (role img) and a "Data" table whose rows are buttons doing the same as a click, so keyboard and screen
 * reader users can filter too. CSV = the chart's rows (exportCsv.ts); PNG = the canvas on white.
 * Test ids: chart-<id> (data-total, data-rows, data-active), chart-canvas (data-bars: the drawn bars' centres
 * in CSS pixels, for tests), chart-csv, chart-png, chart-configure, chart-remove, chart-data.
 */
import { ActionIcon, Button, Group, Paper, Table, Text } from '@mantine/core';
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  LinearScale,
  LineController,
  LineElement,
  PieController,
  PointElement,
  Tooltip,
  type ChartConfiguration,
  type Plugin,
} from 'chart.js';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteIcon, EditIcon } from '../../../shell/icons';
import { chartCsv, exportFileName } from '../exportCsv';
import type { ChartView } from '../selectors';

Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  PieController,
  ArcElement,
  CategoryScale,
  LinearScale,
  Tooltip,
);

const PALETTE = ['#228be6', '#40c057', '#fab005', '#fa5252', '#7950f2', '#15aabf', '#fd7e14', '#e64980'];

/** Paints the canvas white under the chart (an exported PNG is not transparent) and records the bars. */
const whiteAndBars: Plugin = {
  id: 'analyticsWhiteAndBars',
  beforeDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
  afterRender(chart) {
    const meta = chart.getDatasetMeta(0);
    const bars = meta.data.map((el, i) => {
      const p = el.tooltipPosition(true);
      // a bar's middle (between its top and its base), a slice's centroid, a point itself
      const base = (el as unknown as { base?: number }).base;
      const y = typeof base === 'number' ? ((p.y ?? 0) + base) / 2 : (p.y ?? 0);
      return { label: String(chart.data.labels?.[i] ?? i), x: Math.round(p.x ?? 0), y: Math.round(y) };
    });
    chart.canvas.dataset.bars = JSON.stringify(bars);
  },
};

function colours(view: ChartView): string[] {
  return view.keys.map((k, i) => {
    const base = view.type === 'pie' ? PALETTE[i % PALETTE.length]! : PALETTE[0]!;
    return view.activeKey !== null && k !== view.activeKey ? `${base}40` : base;
  });
}

function config(view: ChartView, onIndex: (i: number) => void): ChartConfiguration {
  const pie = view.type === 'pie' && view.groupBy !== 'time';
  const type = pie ? 'pie' : view.type === 'line' ? 'line' : 'bar';
  return {
    type,
    data: {
      labels: view.labels,
      datasets: [
        {
          data: view.values,
          backgroundColor: type === 'line' ? PALETTE[0] : colours(view),
          borderColor: type === 'line' ? PALETTE[0] : pie ? '#ffffff' : colours(view),
          borderWidth: type === 'line' ? 2 : 1,
          pointRadius: type === 'line' ? 2 : undefined,
          fill: false,
        },
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { display: false }, tooltip: { enabled: true } },
      scales: pie
        ? {}
        : {
            x: { ticks: { autoSkip: true, maxRotation: 0 } },
            y: { beginAtZero: true, ticks: { precision: 0 } },
          },
      onClick: (_e, elements) => {
        const i = elements[0]?.index;
        if (i !== undefined) onIndex(i);
      },
    },
    plugins: [whiteAndBars],
  } as ChartConfiguration;
}

function download(href: string, name: string) {
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export interface ChartCardProps {
  view: ChartView;
  /** The chart's shown title (its own, or named by source and group-by). */
  title: string;
  /** A click on a row: filter by / zoom into its key. */
  onPick: (key: string) => void;
  onConfigure: () => void;
  onRemove: () => void;
}

export function ChartCard({ view, title, onPick, onConfigure, onRemove }: ChartCardProps) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<Chart | null>(null);
  const viewRef = useRef(view);
  viewRef.current = view;
  const pickRef = useRef(onPick);
  pickRef.current = onPick;
  const [showData, setShowData] = useState(false);
  const shape = `${view.type}:${view.groupBy === 'time' ? 'time' : 'dim'}`;

  // One Chart.js instance per shape (type and time/dimension); later rows only update it.
  useEffect(() => {
    if (!canvasRef.current) return;
    const chart = new Chart(
      canvasRef.current,
      config(viewRef.current, (i) => {
        const v = viewRef.current;
        if (v.clickAction !== 'none' && v.keys[i] !== undefined) pickRef.current(v.keys[i]!);
      }),
    );
    chartRef.current = chart;
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
  }, [shape]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    const next = config(view, () => undefined);
    chart.data.labels = next.data.labels;
    const ds = chart.data.datasets[0]!;
    const nds = next.data.datasets[0]!;
    ds.data = nds.data;
    ds.backgroundColor = nds.backgroundColor;
    ds.borderColor = nds.borderColor;
    chart.update('none');
  }, [view]);

  const label = t('analytics.chart.label', {
    title,
    type: t(`analytics.types.${view.type}`),
    count: view.values.length,
    total: view.total,
  });
  const hint =
    view.clickAction === 'filter'
      ? t('analytics.chart.clickFilter')
      : view.clickAction === 'zoom'
        ? t('analytics.chart.clickZoom')
        : '';

  return (
    <Paper
      withBorder
      p="xs"
      h="100%"
      style={{ display: 'flex', flexDirection: 'column' }}
      data-testid={`chart-${view.id}`}
      data-total={view.total}
      data-rows={view.values.length}
      data-loaded={view.loaded}
      data-active={view.activeKey ?? ''}
      aria-label={title}
      component="section"
    >
      <Group justify="space-between" wrap="nowrap" gap={4}>
        <Text
          fw={600}
          size="sm"
          truncate
          className="analytics-drag-handle"
          style={{ cursor: 'move', flex: 1 }}
          title={t('analytics.chart.move', { title })}
        >
          {title}
        </Text>
        <Text size="xs" c="dimmed" data-testid="chart-total">
          {t('analytics.chart.total', { total: view.total })}
        </Text>
        <Group gap={2} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="subtle"
            aria-expanded={showData}
            onClick={() => setShowData((s) => !s)}
            data-testid="chart-data-toggle"
          >
            {showData ? t('analytics.chart.hideData') : t('analytics.chart.showData')}
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            aria-label={t('analytics.chart.csv', { title })}
            onClick={() => {
              const csv = chartCsv(
                { group_by: view.groupBy },
                view.keys.map((key, i) => ({ key, value: view.values[i]! })),
              );
              const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
              download(url, exportFileName(title, 'csv'));
              setTimeout(() => URL.revokeObjectURL(url), 10_000);
            }}
            data-testid="chart-csv"
          >
            CSV
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            aria-label={t('analytics.chart.png', { title })}
            onClick={() => {
              const chart = chartRef.current;
              if (chart) download(chart.toBase64Image('image/png'), exportFileName(title, 'png'));
            }}
            data-testid="chart-png"
          >
            PNG
          </Button>
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={t('analytics.chart.configure', { title })}
            onClick={onConfigure}
            data-testid="chart-configure"
          >
            <EditIcon />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            size="sm"
            aria-label={t('analytics.chart.remove', { title })}
            onClick={onRemove}
            data-testid="chart-remove"
          >
            <DeleteIcon />
          </ActionIcon>
        </Group>
      </Group>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
      <div style={{ position: 'relative', flex: 1, minHeight: 0, display: showData ? 'none' : 'block' }}>
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={label}
          data-testid="chart-canvas"
          style={{ cursor: view.clickAction === 'none' ? 'default' : 'pointer' }}
        />
        {view.loaded && view.values.length === 0 && (
          <Text
            size="sm"
            c="dimmed"
            style={{ position: 'absolute', inset: 0, textAlign: 'center', paddingTop: 40 }}
          >
            {t('analytics.chart.noData')}
          </Text>
        )}
      </div>
      {showData && (
        <div style={{ flex: 1, overflow: 'auto' }} data-testid="chart-data">
          <Table withTableBorder={false} verticalSpacing={2}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('analytics.chart.key')}</Table.Th>
                <Table.Th>{t('analytics.chart.count')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.keys.map((key, i) => {
                const shown = view.labels[i] || t('analytics.chart.none');
                return (
                  <Table.Tr key={key || `none-${i}`}>
                    <Table.Td>
                      {view.clickAction !== 'none' && key ? (
                        <Button
                          size="compact-xs"
                          variant={key === view.activeKey ? 'filled' : 'subtle'}
                          aria-pressed={key === view.activeKey}
                          aria-label={
                            view.clickAction === 'filter'
                              ? t('analytics.chart.filterBy', { value: shown })
                              : t('analytics.chart.zoomInto', { value: shown })
                          }
                          onClick={() => onPick(key)}
                        >
                          {shown}
                        </Button>
                      ) : (
                        shown
                      )}
                    </Table.Td>
                    <Table.Td>{view.values[i]}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Paper>
  );
}
