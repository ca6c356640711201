/**
 * One metrics chart drawn with uPlot (issue 16 §1 "well-kept chart library"): the average per bucket as a
 * line, the lowest and highest as a shaded band, the time on x. The canvas is hidden from assistive
 * technology; the chart has an accessible name (role img, aria-label) and a visible text summary
 * (current / lowest / highest) that screen readers read. `data-drawn` counts uPlot's draws (tests, bench).
 * The plot is created once and then fed new data (setData), and follows its container's width.
 */
import { Paper, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface MetricsChartProps {
  testId: string;
  title: string;
  /** Accessible name of the plot. */
  label: string;
  /** Text summary (current / lowest / highest). */
  summary: string;
  unit: 'percent' | 'celsius';
  data: [number[], (number | null)[], (number | null)[], (number | null)[]];
  color: string;
}

const HEIGHT = 160;

function options(
  width: number,
  unit: MetricsChartProps['unit'],
  color: string,
  onDraw: () => void,
): uPlot.Options {
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, y: unit === 'percent' ? { range: [0, 100] } : { auto: true } },
    axes: [
      {},
      { size: 44, values: (_u, ticks) => ticks.map((v) => `${v}${unit === 'percent' ? '%' : '°'}`) },
    ],
    series: [
      {},
      { stroke: 'transparent', points: { show: false } },
      { stroke: color, width: 1.5, points: { show: false } },
      { stroke: 'transparent', points: { show: false } },
    ],
    bands: [{ series: [3, 1], fill: `${color}33` }],
    hooks: { draw: [onDraw] },
  };
}

export function MetricsChart({ testId, title, label, summary, unit, data, color }: MetricsChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const draws = useRef(0);

  useEffect(() => {
    const el = box.current!;
    const onDraw = () => {
      draws.current++;
      el.dataset.drawn = String(draws.current);
    };
    const u = new uPlot(
      options(Math.max(200, el.clientWidth), unit, color, onDraw),
      data as uPlot.AlignedData,
      el,
    );
    u.root.setAttribute('aria-hidden', 'true');
    plot.current = u;
    const resize = new ResizeObserver(() => {
      const w = Math.max(200, el.clientWidth);
      if (w !== u.width) u.setSize({ width: w, height: HEIGHT });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // Created once per unit and color; data changes go through setData below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [unit, color]);

  useEffect(() => {
    plot.current?.setData(data as uPlot.AlignedData);
  }, [data]);

  return (
    <Paper withBorder p="sm" component="figure" m={0} data-testid={testId} data-points={data[0].length}>
      <Text component="figcaption" fw={600} size="sm">
        {title}
      </Text>
      <div ref={box} role="img" aria-label={label} style={{ width: '100%', minHeight: HEIGHT }} />
      <Text size="xs" c="dimmed" data-testid={`${testId}-summary`}>
        {summary}
      </Text>
    </Paper>
  );
}
