/**
 * The per-cell statistics overlay (issue 3): resolution, frames per second, bitrate, round-trip time,
 * packets lost and codec, from the stream actor's `stats` (polled from getStats() every 2000 ms, §9
 * frame-rate interval, only while the overlay is on).
 */
import { useTranslation } from 'react-i18next';
import type { StreamStats } from '../../../../../machines/cameras/stream.machine';

const dash = '–';
const show = (v: number | null, unit = '') => (v === null ? dash : `${v}${unit}`);

/** The overlay's rows: id (its text key under cameras.statsRows and test id) and value (pure). */
export function statsRows(stats: StreamStats | null): Array<[StatsRow, string]> {
  const s = stats;
  return [
    ['resolution', s?.width && s?.height ? `${s.width}×${s.height}` : dash],
    ['fps', show(s?.fps ?? null)],
    ['bitrate', show(s?.bitrateKbps ?? null, ' kbit/s')],
    ['rtt', show(s?.rttMs ?? null, ' ms')],
    ['packetsLost', show(s?.packetsLost ?? null)],
    ['codec', s?.codec ?? dash],
  ];
}

type StatsRow = 'resolution' | 'fps' | 'bitrate' | 'rtt' | 'packetsLost' | 'codec';

export function StatsOverlay({ stats }: { stats: StreamStats | null }) {
  const { t } = useTranslation();
  return (
    <dl className="stream-stats" data-testid="stream-stats">
      {statsRows(stats).map(([row, value]) => (
        <div key={row} data-testid={`stream-stats-${row.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`}>
          <dt>{t(`cameras.statsRows.${row}`)}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
