/**
 * What every demo app page shares: the device and camera pickers with the engine that answers (§5 a stream
 * needs the device connected: picking a device connects it first), and the live video with a canvas drawn over
 * it — boxes (NanoOWL) and lines (speed), placed on the picture with the inference overlay's `contentRect`
 * (features/inference/overlay.tsx). The canvas carries `data-boxes` (JSON of the boxes drawn, 0..1) for tests.
 */
import { Alert, Button, Group, NativeSelect, Text } from '@mantine/core';
import { useEffect, useRef, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DemoAppRef } from '../../../../../machines/demoApps/demoApps.machine';
import type { FrameLine } from '../../../../protocol/demoApps';
import { contentRect } from '../../inference/overlay';
import type { DemoAppView } from '../selectors';

export function SourcePicker({ view, actor }: { view: DemoAppView; actor: DemoAppRef }) {
  const { t } = useTranslation();
  const e = view.engine;
  return (
    <div className="demo-source">
      <Group align="flex-end">
        <NativeSelect
          label={t('demoApps.source.device')}
          value={view.deviceId ?? ''}
          disabled={view.phase === 'loading' || view.phase === 'idle'}
          onChange={(ev) => actor.send({ type: 'device.pick', deviceId: ev.currentTarget.value })}
          data={[
            { value: '', label: t('demoApps.source.pickDevice'), disabled: true },
            ...view.devices.map((d) => ({ value: d.device_id, label: d.label })),
          ]}
          data-testid="demo-device"
        />
        <NativeSelect
          label={t('demoApps.source.camera')}
          value={view.cameraId ?? ''}
          disabled={view.phase !== 'ready'}
          onChange={(ev) => actor.send({ type: 'camera.pick', cameraId: ev.currentTarget.value })}
          data={view.cameras.map((c) => ({ value: c.camera_id, label: c.name }))}
          data-testid="demo-camera"
        />
      </Group>
      <div role="status" className="demo-status" data-testid="demo-source-status">
        {view.phase === 'loading' && t('demoApps.source.loading')}
        {view.phase === 'connecting' && t('demoApps.source.connecting')}
        {view.phase === 'choosing' && view.devices.length === 0 && t('demoApps.source.noDevices')}
      </div>
      {(view.phase === 'failed' || view.phase === 'deviceFailed') && (
        <Alert color="red" data-testid="demo-source-error">
          {t(view.phase === 'failed' ? 'demoApps.source.failed' : 'demoApps.source.deviceFailed', {
            error: view.error ?? '',
          })}{' '}
          <Button size="xs" variant="light" onClick={() => actor.send({ type: 'app.retry' })}>
            {t('demoApps.source.retry')}
          </Button>
        </Alert>
      )}
      {e && (
        <Text size="sm" data-testid="demo-engine" data-engine={e.engine}>
          {t('demoApps.source.engine', {
            engine: t(e.engine === 'sim' ? 'demoApps.source.engineSim' : 'demoApps.source.engineHost'),
            model: e.model ?? '—',
          })}
        </Text>
      )}
      {e && !e.available && (
        <Alert color="yellow" data-testid="demo-unavailable">
          {t('demoApps.source.unavailable', { reason: e.reason ?? '' })}
        </Alert>
      )}
    </div>
  );
}

type Box = [number, number, number, number];
export interface OverlayShape {
  boxes: { box: Box; label: string }[];
  lines: { line: FrameLine; label: string }[];
}

const COLORS = ['#ff3b30', '#34c759', '#0a84ff', '#ffd60a', '#bf5af2', '#64d2ff'];

/** The live video with boxes and lines drawn over it; `onDraw` receives a line dragged on the picture. */
export function LiveVideo({
  view,
  shapes,
  onDraw,
}: {
  view: DemoAppView;
  shapes: OverlayShape;
  onDraw?: (line: FrameLine) => void;
}) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drag = useRef<{ from: [number, number]; to: [number, number] } | null>(null);
  const stream = view.ctx.mediaStream as MediaStream | null;

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    if (video.srcObject !== stream) video.srcObject = stream;
    if (stream) void video.play().catch(() => undefined);
  }, [stream]);

  useEffect(() => {
    let frame = 0;
    const paint = () => {
      const video = videoRef.current;
      const canvas = canvasRef.current;
      if (video && canvas) draw(canvas, video, shapes, drag.current);
      frame = requestAnimationFrame(paint);
    };
    frame = requestAnimationFrame(paint);
    if (canvasRef.current) canvasRef.current.dataset.boxes = JSON.stringify(shapes.boxes);
    return () => cancelAnimationFrame(frame);
  }, [shapes]);

  const toFrame = (e: ReactPointerEvent<HTMLCanvasElement>): [number, number] => {
    const video = videoRef.current!;
    const bounds = e.currentTarget.getBoundingClientRect();
    const r = contentRect(bounds.width, bounds.height, video.videoWidth, video.videoHeight);
    const clamp = (v: number) => Math.min(1, Math.max(0, v));
    return [clamp((e.clientX - bounds.left - r.x) / r.w), clamp((e.clientY - bounds.top - r.y) / r.h)];
  };

  return (
    <div className="demo-video-wrap">
      <video
        ref={videoRef}
        className="demo-video"
        muted
        playsInline
        autoPlay
        aria-label={t('demoApps.video.label', { camera: view.cameraName })}
        data-testid="demo-video"
      />
      <canvas
        ref={canvasRef}
        className="demo-canvas"
        role="img"
        aria-label={t('demoApps.video.overlay', { count: shapes.boxes.length })}
        data-testid="demo-canvas"
        style={{ cursor: onDraw ? 'crosshair' : 'default', pointerEvents: onDraw ? 'auto' : 'none' }}
        onPointerDown={(e) => {
          if (!onDraw) return;
          const p = toFrame(e);
          drag.current = { from: p, to: p };
          e.currentTarget.setPointerCapture(e.pointerId);
        }}
        onPointerMove={(e) => {
          if (drag.current) drag.current.to = toFrame(e);
        }}
        onPointerUp={(e) => {
          const d = drag.current;
          drag.current = null;
          if (!d || !onDraw) return;
          d.to = toFrame(e);
          if (Math.hypot(d.to[0] - d.from[0], d.to[1] - d.from[1]) > 0.02) onDraw([d.from, d.to]);
        }}
      />
      <div role="status" className="demo-video-status" data-testid="demo-video-status">
        {view.video === 'starting' && t('demoApps.video.starting')}
        {view.video === 'failed' && t('demoApps.video.failed', { error: view.videoError ?? '' })}
      </div>
    </div>
  );
}

function draw(
  canvas: HTMLCanvasElement,
  video: HTMLVideoElement,
  shapes: OverlayShape,
  drag: { from: [number, number]; to: [number, number] } | null,
): void {
  const dpr = window.devicePixelRatio || 1;
  const w = video.clientWidth;
  const h = video.clientHeight;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const r = contentRect(w, h, video.videoWidth, video.videoHeight);
  ctx.lineWidth = 2;
  ctx.font = '12px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  shapes.boxes.forEach((b, i) => {
    const color = COLORS[i % COLORS.length]!;
    const x = r.x + b.box[0] * r.w;
    const y = r.y + b.box[1] * r.h;
    ctx.strokeStyle = color;
    ctx.strokeRect(x, y, b.box[2] * r.w, b.box[3] * r.h);
    const tw = ctx.measureText(b.label).width + 6;
    ctx.fillStyle = color;
    ctx.fillRect(x, Math.max(0, y - 16), tw, 16);
    ctx.fillStyle = '#000';
    ctx.fillText(b.label, x + 3, Math.max(0, y - 16) + 2);
  });
  const all = [...shapes.lines, ...(drag ? [{ line: [drag.from, drag.to] as FrameLine, label: '' }] : [])];
  for (const l of all) {
    const [[x1, y1], [x2, y2]] = l.line;
    ctx.strokeStyle = '#ffd60a';
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.moveTo(r.x + x1 * r.w, r.y + y1 * r.h);
    ctx.lineTo(r.x + x2 * r.w, r.y + y2 * r.h);
    ctx.stroke();
    if (l.label) {
      ctx.fillStyle = '#ffd60a';
      ctx.fillText(l.label, r.x + x1 * r.w + 4, r.y + y1 * r.h + 4);
    }
  }
}
