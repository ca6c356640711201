/**
 * §2 /speed_application: vehicle speeds between two lines drawn on a live camera (issue 14). Lines are dragged
 * on the video (or the suggested pair taken with the keyboard); the distance between them is in metres; the
 * table and the chart list each vehicle's speed in km/h. Test ids: speed-suggested, speed-distance,
 * speed-start, speed-stop, speed-row (data-track, data-first, data-speed), speed-chart.
 */
import { Button, Group, NumberInput, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DemoAppRef } from '../../../../../machines/demoApps/demoApps.machine';
import type { FrameLine, SpeedPass } from '../../../../protocol/demoApps';
import '../i18n';
import '../demoApps.css';
import { speedSummary, useDemoApp, useDemoAppView } from '../selectors';
import { LiveVideo, SourcePicker } from './parts';

/** Two lines across the frame a keyboard user can take: x = 0.35 and x = 0.65, top to bottom. */
export const SUGGESTED_LINES: [FrameLine, FrameLine] = [
  [
    [0.35, 0],
    [0.35, 1],
  ],
  [
    [0.65, 0],
    [0.65, 1],
  ],
];

export default function SpeedScreen() {
  const ref = useDemoApp('speed');
  return ref ? <Speed actor={ref} /> : null;
}

function Speed({ actor }: { actor: DemoAppRef }) {
  const { t, i18n } = useTranslation();
  const view = useDemoAppView(actor);
  const { lineA, lineB, distanceM, passes, since } = view.ctx;
  const measuring = view.work === 'measuring';
  const time = (ms: number) =>
    new Date(ms).toLocaleTimeString(
      i18n.language === 'ch' ? 'zh' : i18n.language === 'jp' ? 'ja' : i18n.language,
    );
  const shapes = useMemo(
    () => ({
      boxes: [],
      lines: [
        ...(lineA ? [{ line: lineA, label: 'A' }] : []),
        ...(lineB ? [{ line: lineB, label: 'B' }] : []),
      ],
    }),
    [lineA, lineB],
  );
  const onDraw = (line: FrameLine) =>
    actor.send(
      !lineA || (lineA && lineB)
        ? { type: 'lines.set', lineA: line, lineB: null }
        : { type: 'lines.set', lineA, lineB: line },
    );
  const summary = speedSummary(passes);
  const fmt = new Intl.NumberFormat(
    i18n.language === 'ch' ? 'zh' : i18n.language === 'jp' ? 'ja' : i18n.language,
    {
      maximumFractionDigits: 1,
    },
  );
  return (
    <Stack className="demo-page" data-testid="demo-speed">
      <Title order={1}>{t('demoApps.speed.title')}</Title>
      <Text>{t('demoApps.speed.intro')}</Text>
      <SourcePicker view={view} actor={actor} />
      {view.phase === 'ready' && (
        <>
          <Text size="sm">{t('demoApps.speed.draw', { line: !lineA || lineB ? 'A' : 'B' })}</Text>
          <LiveVideo view={view} shapes={shapes} onDraw={measuring ? undefined : onDraw} />
        </>
      )}
      <Group align="flex-end">
        <Button
          variant="default"
          disabled={measuring}
          onClick={() =>
            actor.send({ type: 'lines.set', lineA: SUGGESTED_LINES[0], lineB: SUGGESTED_LINES[1] })
          }
          data-testid="speed-suggested"
        >
          {t('demoApps.speed.suggested')}
        </Button>
        <Button
          variant="default"
          disabled={measuring}
          onClick={() => actor.send({ type: 'lines.set', lineA: null, lineB: null })}
        >
          {t('demoApps.speed.clearLines')}
        </Button>
        <NumberInput
          label={t('demoApps.speed.distance')}
          value={distanceM}
          min={0.1}
          step={0.5}
          disabled={measuring}
          onChange={(v) => actor.send({ type: 'distance.set', distanceM: Number(v) || 0 })}
          data-testid="speed-distance"
        />
        {measuring ? (
          <Button color="red" onClick={() => actor.send({ type: 'speed.stop' })} data-testid="speed-stop">
            {t('demoApps.speed.stop')}
          </Button>
        ) : (
          <Button
            disabled={
              view.phase !== 'ready' || !lineA || !lineB || !(distanceM > 0) || !view.engine?.available
            }
            onClick={() => actor.send({ type: 'speed.start', at: Date.now() })}
            data-testid="speed-start"
          >
            {t('demoApps.speed.start')}
          </Button>
        )}
      </Group>
      {(!lineA || !lineB) && <Text size="sm">{t('demoApps.speed.needLines')}</Text>}
      {since !== null && measuring && (
        <Text role="status">{t('demoApps.speed.measuring', { time: time(since) })}</Text>
      )}
      {passes.length > 0 && (
        <Text data-testid="speed-summary">
          {t('demoApps.speed.summary', {
            count: summary.count,
            mean: fmt.format(summary.mean),
            max: fmt.format(summary.max),
          })}
        </Text>
      )}
      {passes.length > 0 && (
        <SpeedChart passes={passes.slice(-20)} title={t('demoApps.speed.chart')} fmt={fmt} />
      )}
      {passes.length === 0 ? (
        since !== null && <Text c="dimmed">{t('demoApps.speed.empty')}</Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('demoApps.speed.time')}</Table.Th>
              <Table.Th>{t('demoApps.speed.vehicle')}</Table.Th>
              <Table.Th>{t('demoApps.speed.direction')}</Table.Th>
              <Table.Th>{t('demoApps.speed.speed')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...passes].reverse().map((p) => (
              <Table.Tr
                key={`${p.track_id}-${p.t_first}`}
                data-testid="speed-row"
                data-track={p.track_id}
                data-first={p.t_first}
                data-second={p.t_second}
                data-speed={p.speed_kmh}
              >
                <Table.Td>{time(p.t_second)}</Table.Td>
                <Table.Td>{[p.colour, p.label, p.plate].filter(Boolean).join(' · ')}</Table.Td>
                <Table.Td>{p.direction === 'a→b' ? 'A → B' : 'B → A'}</Table.Td>
                <Table.Td>{fmt.format(p.speed_kmh)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {view.error && view.phase === 'ready' && <Text c="red">{view.error}</Text>}
    </Stack>
  );
}

/** Bars of the last passes' speeds (SVG), the highest scaled to the full height. */
function SpeedChart({ passes, title, fmt }: { passes: SpeedPass[]; title: string; fmt: Intl.NumberFormat }) {
  const max = Math.max(...passes.map((p) => p.speed_kmh), 1);
  const w = 24;
  return (
    <figure className="demo-chart" data-testid="speed-chart">
      <figcaption>{title}</figcaption>
      <svg width={passes.length * (w + 6)} height={140} role="img" aria-label={title}>
        {passes.map((p, i) => {
          const h = Math.round((p.speed_kmh / max) * 110);
          return (
            <g key={`${p.track_id}-${p.t_first}`}>
              <rect x={i * (w + 6)} y={120 - h} width={w} height={h} fill="#0a84ff" />
              <text x={i * (w + 6) + w / 2} y={136} fontSize={10} textAnchor="middle" fill="currentColor">
                {fmt.format(p.speed_kmh)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
