/**
 * A use-case chart drawn with uPlot (issue 11 "in/out per interval", "age band and gender"): bars per x
 * value, one colour per series, x as time (s) or as categories (labels). The canvas is hidden from assistive
 * technology; the figure has an accessible name (role img, aria-label) and the screens show the same numbers
 * in a table. The plot is created once per shape and fed new data (setData); it follows its container's width.
 */
import { Paper, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  color: string;
}

const HEIGHT = 220;

function options(
  width: number,
  series: ChartSeries[],
  categories: string[] | null,
  onDraw: () => void,
): uPlot.Options {
  const n = series.length;
  const bars = (i: number) => barsAt(i, n);
  return {
    width,
    height: HEIGHT,
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    scales: {
      x: categories ? { time: false, range: [-0.5, categories.length - 0.5] } : { time: true },
      y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
    },
    axes: [
      categories
        ? {
            values: (_u, ticks) => ticks.map((v) => categories[v] ?? ''),
            splits: () => categories.map((_, i) => i),
          }
        : {},
      { size: 40 },
    ],
    series: [
      {},
      ...series.map((s, i) => ({
        label: s.label,
        stroke: s.color,
        fill: `${s.color}cc`,
        paths: bars(i),
        points: { show: false },
      })),
    ],
    hooks: { draw: [onDraw] },
  };
}

/** Side-by-side bars: series i of n takes its slot of each x's width. */
function barsAt(i: number, n: number): uPlot.Series.PathBuilder {
  const slot = 0.8 / n;
  return (u, seriesIdx, idx0, idx1) => {
    const xs = u.data[0];
    const ys = u.data[seriesIdx]!;
    const step =
      xs.length > 1
        ? Math.abs(u.valToPos(xs[1]!, 'x', true) - u.valToPos(xs[0]!, 'x', true))
        : u.bbox.width / 2;
    const w = Math.max(1, step * slot);
    const stroke = new Path2D();
    const fill = new Path2D();
    const y0 = u.valToPos(0, 'y', true);
    for (let k = idx0; k <= idx1; k++) {
      const v = ys[k];
      if (v == null || v === 0) continue;
      const cx = u.valToPos(xs[k]!, 'x', true) - step * 0.4 + i * w;
      const y = u.valToPos(v, 'y', true);
      fill.rect(cx, y, w, y0 - y);
    }
    stroke.addPath(fill);
    return { stroke, fill, clip: undefined, band: undefined, gaps: undefined, flags: 0 };
  };
}

export function UseCaseChart(props: {
  testId: string;
  title: string;
  /** Accessible name of the plot (what it shows, in words). */
  label: string;
  series: ChartSeries[];
  /** [x, ...one array per series]; x in s (time) or 0..n-1 (categories). */
  data: number[][];
  categories?: string[];
}) {
  const { testId, title, label, series, data, categories } = props;
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const shape = JSON.stringify([series, categories ?? null]);

  useEffect(() => {
    const el = box.current!;
    let draws = 0;
    const onDraw = () => {
      draws++;
      el.dataset.drawn = String(draws);
    };
    const u = new uPlot(
      options(Math.max(240, el.clientWidth), series, categories ?? null, onDraw),
      data as uPlot.AlignedData,
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
    // Created once per shape; data changes go through setData below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape]);

  useEffect(() => {
    plot.current?.setData(data as uPlot.AlignedData);
  }, [data]);

  return (
    <Paper withBorder p="sm" component="figure" m={0} data-testid={testId} data-points={data[0]?.length ?? 0}>
      <Text component="figcaption" fw={600} size="sm">
        {title}
      </Text>
      <div ref={box} role="img" aria-label={label} style={{ width: '100%', minHeight: HEIGHT }} />
    </Paper>
  );
}
