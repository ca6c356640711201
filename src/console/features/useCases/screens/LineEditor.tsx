/**
 * The counting line drawn on the camera's still (issue 11 "counts crossing a line drawn on the camera"): press
 * on the picture and drag to draw it from A to B; or type the two points (0..1 of the frame) in the four
 * number inputs (keyboard). An arrow shows the "in" side (src/protocol/analyticsGeometry.ts: A→B turned a
 * quarter turn anticlockwise on screen). `readOnly` shows a saved line. Test ids: line-editor, line-canvas,
 * line-x1, line-y1, line-x2, line-y2, line-still (data-state: loading | ready | failed).
 */
import { Alert, Group, Loader, NumberInput, Stack, Text } from '@mantine/core';
import { useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CountingLine } from '../../../../protocol/analytics';
import { roundLine } from '../views';

const W = 1000;
const H = 562.5;
const clamp = (v: number) => Math.max(0, Math.min(1, v));

export function LineEditor(props: {
  line: CountingLine;
  onChange?: (line: CountingLine) => void;
  still: { state: 'loading' | 'ready' | 'failed'; image: string | null; error: string | null };
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  const { line, onChange, still, readOnly } = props;
  const drawing = useRef(false);
  const [hint, setHint] = useState(false);
  const at = (e: PointerEvent<SVGSVGElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: clamp((e.clientX - r.left) / r.width), y: clamp((e.clientY - r.top) / r.height) };
  };
  const onDown = (e: PointerEvent<SVGSVGElement>) => {
    if (readOnly || !onChange) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drawing.current = true;
    const p = at(e);
    onChange(roundLine({ x1: p.x, y1: p.y, x2: p.x, y2: p.y }));
  };
  const onMove = (e: PointerEvent<SVGSVGElement>) => {
    if (!drawing.current || !onChange) return;
    const p = at(e);
    onChange(roundLine({ ...line, x2: p.x, y2: p.y }));
  };
  const onUp = () => {
    if (!drawing.current) return;
    drawing.current = false;
    setHint(Math.hypot(line.x2 - line.x1, line.y2 - line.y1) < 0.02);
  };
  // the "in" arrow: from the middle, a quarter turn anticlockwise on screen from A→B (y down)
  const mx = ((line.x1 + line.x2) / 2) * W;
  const my = ((line.y1 + line.y2) / 2) * H;
  const dx = (line.x2 - line.x1) * W;
  const dy = (line.y2 - line.y1) * H;
  const len = Math.hypot(dx, dy) || 1;
  const ax = mx + (-dy / len) * 60;
  const ay = my + (dx / len) * 60;
  const set = (k: keyof CountingLine) => (v: string | number) => {
    const n = typeof v === 'number' ? v : Number(v);
    if (Number.isFinite(n) && onChange) onChange(roundLine({ ...line, [k]: clamp(n) }));
  };
  return (
    <Stack gap="xs" data-testid="line-editor">
      {!readOnly && <Text size="sm">{t('useCases.line.help')}</Text>}
      <div style={{ position: 'relative', width: '100%', aspectRatio: '16 / 9', background: '#222' }}>
        {still.image && (
          <img
            src={still.image}
            alt={t('useCases.line.stillAlt')}
            style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'fill' }}
          />
        )}
        <div
          data-testid="line-still"
          data-state={still.state}
          style={{ position: 'absolute', top: 8, left: 8 }}
        >
          {still.state === 'loading' && <Loader size="sm" aria-label={t('useCases.line.stillLoading')} />}
        </div>
        <svg
          data-testid="line-canvas"
          role="img"
          aria-label={t('useCases.line.canvasLabel', {
            x1: line.x1,
            y1: line.y1,
            x2: line.x2,
            y2: line.y2,
          })}
          viewBox={`0 0 ${W} ${H}`}
          preserveAspectRatio="none"
          onPointerDown={onDown}
          onPointerMove={onMove}
          onPointerUp={onUp}
          style={{
            position: 'absolute',
            inset: 0,
            width: '100%',
            height: '100%',
            cursor: readOnly ? 'default' : 'crosshair',
            touchAction: 'none',
          }}
        >
          <defs>
            <marker
              id="uc-arrow"
              viewBox="0 0 10 10"
              refX="5"
              refY="5"
              markerWidth="5"
              markerHeight="5"
              orient="auto"
            >
              <path d="M0,0 L10,5 L0,10 z" fill="#40c057" />
            </marker>
          </defs>
          <line
            x1={line.x1 * W}
            y1={line.y1 * H}
            x2={line.x2 * W}
            y2={line.y2 * H}
            stroke="#fab005"
            strokeWidth={6}
            strokeLinecap="round"
          />
          <circle cx={line.x1 * W} cy={line.y1 * H} r={10} fill="#fab005" />
          <text x={line.x1 * W + 14} y={line.y1 * H + 6} fill="#fff" fontSize={28}>
            A
          </text>
          <text x={line.x2 * W + 14} y={line.y2 * H + 6} fill="#fff" fontSize={28}>
            B
          </text>
          <line x1={mx} y1={my} x2={ax} y2={ay} stroke="#40c057" strokeWidth={5} markerEnd="url(#uc-arrow)" />
          <text x={ax + 8} y={ay + 8} fill="#40c057" fontSize={30} fontWeight={700}>
            {t('useCases.in')}
          </text>
        </svg>
      </div>
      {still.state === 'failed' && (
        <Alert color="yellow" data-testid="line-still-error">
          {t('useCases.line.stillFailed', { error: still.error ?? '' })}
        </Alert>
      )}
      {hint && (
        <Text size="sm" c="red">
          {t('useCases.line.tooShort')}
        </Text>
      )}
      {!readOnly && (
        <Group grow>
          {(['x1', 'y1', 'x2', 'y2'] as const).map((k) => (
            <NumberInput
              key={k}
              label={t(`useCases.line.${k}`)}
              value={line[k]}
              onChange={set(k)}
              min={0}
              max={1}
              step={0.01}
              decimalScale={3}
              data-testid={`line-${k}`}
            />
          ))}
        </Group>
      )}
    </Stack>
  );
}
