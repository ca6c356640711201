/**
 * The calendar editor's week grid (issue 10 `/schedulers`): seven rows (Monday first) of 24 hour cells, lit
 * where the calendar's times cover them. Dragging over the hours of one day adds them as a time (mouse,
 * touch, pen); the day / from / to picker beside it is the keyboard's way to the same (CalendarForm). The grid
 * itself is one image to assistive technology, labelled with the times it shows.
 * Test ids: week-grid, week-cell-<weekday>-<hour>.
 */
import { useState } from 'react';
import type { CalendarInterval } from '../../../../protocol/schedulers';
import { dragInterval, hourCells, WEEK_ORDER } from '../week';

export function WeekGrid({
  intervals,
  dayName,
  label,
  onAdd,
}: {
  intervals: CalendarInterval[];
  dayName: (weekday: number) => string;
  label: string;
  onAdd: (interval: CalendarInterval) => void;
}) {
  const [drag, setDrag] = useState<{ weekday: number; from: number; to: number } | null>(null);
  const end = () => {
    if (drag) onAdd(dragInterval(drag.weekday, drag.from, drag.to));
    setDrag(null);
  };
  return (
    <div
      className="week-grid"
      role="img"
      aria-label={label}
      data-testid="week-grid"
      onPointerUp={end}
      onPointerLeave={() => setDrag(null)}
      style={{
        display: 'grid',
        gridTemplateColumns: '3.5em repeat(24, minmax(12px, 1fr))',
        gap: 1,
        userSelect: 'none',
        touchAction: 'none',
        fontSize: 11,
      }}
    >
      <span />
      {Array.from({ length: 24 }, (_, h) => (
        <span key={h} aria-hidden="true" style={{ textAlign: 'center' }}>
          {h % 3 === 0 ? String(h).padStart(2, '0') : ''}
        </span>
      ))}
      {WEEK_ORDER.map((weekday) => {
        const lit = hourCells(intervals, weekday);
        return [
          <span key={`d${weekday}`} aria-hidden="true">
            {dayName(weekday)}
          </span>,
          ...lit.map((on, h) => {
            const inDrag =
              drag?.weekday === weekday &&
              h >= Math.min(drag.from, drag.to) &&
              h <= Math.max(drag.from, drag.to);
            return (
              <span
                key={`${weekday}-${h}`}
                aria-hidden="true"
                data-testid={`week-cell-${weekday}-${h}`}
                data-on={on}
                onPointerDown={(e) => {
                  (e.target as HTMLElement).releasePointerCapture?.(e.pointerId);
                  setDrag({ weekday, from: h, to: h });
                }}
                onPointerEnter={() => drag?.weekday === weekday && setDrag({ ...drag, to: h })}
                style={{
                  height: 18,
                  borderRadius: 2,
                  cursor: 'crosshair',
                  background: inDrag
                    ? 'var(--mantine-color-blue-3)'
                    : on
                      ? 'var(--mantine-color-blue-7)'
                      : 'var(--mantine-color-gray-2)',
                }}
              />
            );
          }),
        ];
      })}
    </div>
  );
}
