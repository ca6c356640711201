/**
 * The per-cell statistics overlay (issue 3): resolution, frames per second, bitrate, round-trip time,
 * packets lost and codec, from the stream actor's `stats` (polled from getStats() every 2000 ms, §9
 * frame-rate interval, only while the overlay is on).
 */
import type { StreamStats } from '../../../../../machines/cameras/stream.machine';

const dash = '–';
const show = (v: number | null, unit = '') => (v === null ? dash : `${v}${unit}`);

/** Rows of the overlay, as label/value pairs (pure; exported for tests). */
export function statsRows(stats: StreamStats | null): Array<[string, string]> {
  const s = stats;
  return [
    ['Resolution', s?.width && s?.height ? `${s.width}×${s.height}` : dash],
    ['FPS', show(s?.fps ?? null)],
    ['Bitrate', show(s?.bitrateKbps ?? null, ' kbit/s')],
    ['RTT', show(s?.rttMs ?? null, ' ms')],
    ['Packets lost', show(s?.packetsLost ?? null)],
    ['Codec', s?.codec ?? dash],
  ];
}

export function StatsOverlay({ stats }: { stats: StreamStats | null }) {
  return (
    <dl className="stream-stats" data-testid="stream-stats">
      {statsRows(stats).map(([label, value]) => (
        <div key={label} data-testid={`stream-stats-${label.toLowerCase().replace(/\s+/g, '-')}`}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
