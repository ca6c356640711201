/**
 * A daily usage chart drawn with uPlot (as the metrics tab): bars per UTC day, one or two series, bytes on y.
 * The canvas is hidden from assistive technology; the figure has an accessible name, and each page shows the
 * same numbers in a table (the accessible alternative). `data-points` and `data-max` expose what is drawn
 * (tests); `data-drawn` counts uPlot's draws.
 */
import { Paper, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatBytes } from './format';

export interface UsageSeries {
  label: string;
  color: string;
  values: number[];
}

const HEIGHT = 200;

function options(width: number, series: readonly UsageSeries[], onDraw: () => void): uPlot.Options {
  const bars = uPlot.paths.bars!({ size: [series.length > 1 ? 0.4 : 0.7, 40], align: 0 });
  return {
    width,
    height: HEIGHT,
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, y: { auto: true, range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
    axes: [{}, { size: 72, values: (_u, ticks) => ticks.map((v) => formatBytes(Math.round(v))) }],
    series: [
      {},
      ...series.map((s) => ({
        label: s.label,
        stroke: s.color,
        fill: `${s.color}99`,
        width: 1,
        paths: bars,
        points: { show: false },
        value: (_u: uPlot, v: number | null) => (v === null ? '—' : formatBytes(v)),
      })),
    ],
    hooks: { draw: [onDraw] },
  };
}

export function UsageChart({
  testId,
  title,
  label,
  days,
  series,
}: {
  testId: string;
  title: string;
  /** Accessible name of the plot. */
  label: string;
  /** x values: UTC days in seconds since the epoch. */
  days: number[];
  series: UsageSeries[];
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data = [days, ...series.map((s) => s.values)] as uPlot.AlignedData;
  const key = series.map((s) => `${s.label}:${s.color}`).join('|');

  useEffect(() => {
    const el = box.current!;
    let draws = 0;
    const u = new uPlot(
      options(Math.max(240, el.clientWidth), series, () => {
        el.dataset.drawn = String(++draws);
      }),
      data,
      el,
    );
    u.root.setAttribute('aria-hidden', 'true');
    plot.current = u;
    const resize = new ResizeObserver(() => {
      const w = Math.max(240, el.clientWidth);
      if (w !== u.width) u.setSize({ width: w, height: HEIGHT });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // Created once per series set; data changes go through setData below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const json = JSON.stringify(data);
  useEffect(() => {
    plot.current?.setData(JSON.parse(json) as uPlot.AlignedData);
  }, [json]);

  const max = Math.max(0, ...series.flatMap((s) => s.values));
  return (
    <Paper
      withBorder
      p="sm"
      component="figure"
      m={0}
      data-testid={testId}
      data-points={days.length}
      data-max={max}
    >
      <Text component="figcaption" fw={600} size="sm">
        {title}
      </Text>
      <div ref={box} role="img" aria-label={label} style={{ width: '100%', minHeight: HEIGHT }} />
    </Paper>
  );
}
