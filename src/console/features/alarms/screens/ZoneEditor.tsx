/**
 * Zones drawn on a camera still (issue 11 "zones drawn on a camera still"), with the mouse or the keyboard:
 * a click adds a point of the zone being drawn; on the focused picture the arrow keys move a cursor (Shift:
 * larger steps), Enter or Space adds a point there, Backspace removes the last point; "Close zone" keeps the
 * zone (3 points at least) and starts another; "Clear" removes every zone. Points are 0..1 frame coordinates.
 * Test ids: zone-editor, zone-canvas, zone-close, zone-clear, zone-count.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Zone } from '../../../../protocol/alarms';

type Point = [number, number];
const clamp = (v: number) => Math.max(0, Math.min(1, Math.round(v * 1000) / 1000));

export function ZoneEditor(props: {
  zones: Zone[];
  onChange: (zones: Zone[]) => void;
  still: string | null;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Point[]>([]);
  const [cursor, setCursor] = useState<Point>([0.5, 0.5]);
  const add = (p: Point) => setDraft((d) => [...d, p]);
  const close = () => {
    if (draft.length < 3) return;
    props.onChange([...props.zones, draft]);
    setDraft([]);
  };
  const onClick = (e: MouseEvent<SVGSVGElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    add([clamp((e.clientX - r.left) / r.width), clamp((e.clientY - r.top) / r.height)]);
  };
  const onKey = (e: KeyboardEvent<SVGSVGElement>) => {
    const step = e.shiftKey ? 0.1 : 0.02;
    const move: Record<string, Point> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const m = move[e.key];
    if (m) {
      e.preventDefault();
      setCursor(([x, y]) => [clamp(x + m[0]), clamp(y + m[1])]);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      add(cursor);
    } else if (e.key === 'Backspace') {
      e.preventDefault();
      setDraft((d) => d.slice(0, -1));
    }
  };
  const pts = (z: Point[]) => z.map(([x, y]) => `${x * 1000},${y * 562.5}`).join(' ');
  return (
    <Stack gap="xs" data-testid="zone-editor">
      <Text size="sm">{t('alarms.zoneHelp')}</Text>
      <svg
        data-testid="zone-canvas"
        role="img"
        tabIndex={0}
        aria-label={t('alarms.zoneCanvas', { count: props.zones.length, points: draft.length })}
        viewBox="0 0 1000 562.5"
        style={{ width: '100%', cursor: 'crosshair', background: '#222', borderRadius: 4, outlineOffset: 2 }}
        onClick={onClick}
        onKeyDown={onKey}
      >
        {props.still ? (
          <image href={props.still} x="0" y="0" width="1000" height="562.5" preserveAspectRatio="none" />
        ) : null}
        {props.zones.map((z, i) => (
          <polygon key={i} points={pts(z)} fill="rgba(255,80,80,0.3)" stroke="#ff5050" strokeWidth="3" />
        ))}
        {draft.length > 0 ? (
          <polyline points={pts(draft)} fill="none" stroke="#ffd43b" strokeWidth="3" />
        ) : null}
        {draft.map(([x, y], i) => (
          <circle key={i} cx={x * 1000} cy={y * 562.5} r="7" fill="#ffd43b" />
        ))}
        <circle
          cx={cursor[0] * 1000}
          cy={cursor[1] * 562.5}
          r="10"
          fill="none"
          stroke="#74c0fc"
          strokeWidth="3"
        />
      </svg>
      <Group gap="xs">
        <Button
          size="xs"
          variant="light"
          onClick={close}
          disabled={draft.length < 3}
          data-testid="zone-close"
        >
          {t('alarms.zoneClose')}
        </Button>
        <Button
          size="xs"
          variant="default"
          onClick={() => {
            setDraft([]);
            props.onChange([]);
          }}
          data-testid="zone-clear"
        >
          {t('alarms.zoneClear')}
        </Button>
        <Text size="sm" data-testid="zone-count">
          {props.zones.length === 0
            ? t('alarms.wholeFrame')
            : t('alarms.zones', { count: props.zones.length })}
        </Text>
      </Group>
    </Stack>
  );
}
