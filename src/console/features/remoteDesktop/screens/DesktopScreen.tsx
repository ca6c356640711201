/**
 * The remote screen (§2 stream modal's live video for a remoteDesktop stream; §7 remote control): a focusable
 * box holding the desktop's <video>, sized to the largest 16:9 box that fits (§9 1280x720; recomputed at most
 * every RESIZE_THROTTLE_MS = 200 ms while its container changes). Focus captures the keyboard (keys go to the
 * device, the browser's own shortcuts included); Escape releases it; a click captures again. Pointer moves
 * become mouse-control moves or mouse-drag (throttled to 100 ms by the input actor), presses and releases
 * mouse-control down/up, the wheel scroll-mouse. Screen readers hear its label (what it is, how to leave).
 *
 * Test ids: remote-desktop-screen (data-captured), remote-desktop-video.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RESIZE_THROTTLE_MS } from '../../../../protocol/remoteDesktop';
import {
  buttonOf,
  createThrottle,
  draggingButton,
  fitAspect,
  keyToControl,
  pointToScreen,
  wheelNotches,
} from '../input';
import type { RemoteDesktopRef } from '../selectors';

export function DesktopScreen({
  desktop,
  mediaStream,
  captured,
  label,
}: {
  desktop: RemoteDesktopRef;
  mediaStream: MediaStream | null;
  captured: boolean;
  label: string;
}) {
  const { t } = useTranslation();
  const outer = useRef<HTMLDivElement>(null);
  const screen = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const [box, setBox] = useState({ width: 0, height: 0 });

  useEffect(() => {
    if (video.current && video.current.srcObject !== mediaStream) video.current.srcObject = mediaStream;
  }, [mediaStream]);

  // §9 resize throttle 200 ms: the 16:9 box follows its container.
  useEffect(() => {
    const el = outer.current;
    if (!el) return;
    const measure = createThrottle<null>(RESIZE_THROTTLE_MS, () => {
      setBox(fitAspect(el.clientWidth, el.clientHeight || el.clientWidth * (720 / 1280)));
    });
    measure.call(null);
    const observer = new ResizeObserver(() => measure.call(null));
    observer.observe(el);
    return () => {
      observer.disconnect();
      measure.cancel();
    };
  }, []);

  const at = (e: { clientX: number; clientY: number }) => {
    const v = video.current;
    if (!v) return null;
    return pointToScreen(e.clientX, e.clientY, v.getBoundingClientRect(), {
      width: v.videoWidth || 1280,
      height: v.videoHeight || 720,
    });
  };

  // The wheel must be cancelable (React's onWheel is passive): a listener of our own.
  useEffect(() => {
    const el = screen.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      const p = at(e);
      if (!p) return;
      e.preventDefault();
      const dx = wheelNotches(e.deltaX, e.deltaMode);
      const dy = wheelNotches(e.deltaY, e.deltaMode);
      if (dx || dy) desktop.send({ type: 'input.scroll', payload: { ...p, dx, dy } });
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [desktop]);

  return (
    <div ref={outer} className="remote-desktop-outer">
      <div
        ref={screen}
        className="remote-desktop-screen"
        role="application"
        aria-label={t('remoteDesktop.screenLabel', { device: label })}
        aria-describedby="remote-desktop-keyboard-hint"
        tabIndex={0}
        data-testid="remote-desktop-screen"
        data-captured={captured ? 'true' : 'false'}
        style={{ width: box.width || undefined, height: box.height || undefined }}
        onFocus={() => desktop.send({ type: 'keyboard.capture' })}
        onBlur={() => desktop.send({ type: 'keyboard.release' })}
        onContextMenu={(e) => e.preventDefault()}
        onPointerDown={(e) => {
          const p = at(e);
          const button = buttonOf(e.button);
          screen.current?.focus();
          desktop.send({ type: 'keyboard.capture' });
          if (!p || !button) return;
          e.preventDefault();
          e.currentTarget.setPointerCapture?.(e.pointerId);
          desktop.send({ type: 'input.mouse', payload: { ...p, action: 'down', button } });
        }}
        onPointerUp={(e) => {
          const p = at(e);
          const button = buttonOf(e.button);
          if (!p || !button) return;
          desktop.send({ type: 'input.mouse', payload: { ...p, action: 'up', button } });
        }}
        onPointerMove={(e) => {
          const p = at(e);
          if (!p) return;
          const button = draggingButton(e.buttons);
          if (button) desktop.send({ type: 'input.drag', payload: { ...p, button } });
          else desktop.send({ type: 'input.mouse', payload: { ...p, action: 'move', button: 'left' } });
        }}
        onKeyDown={(e) => {
          if (!captured) return;
          if (e.key === 'Escape') {
            // Escape releases the keyboard (the dialog stays open).
            e.preventDefault();
            e.stopPropagation();
            desktop.send({ type: 'keyboard.release' });
            return;
          }
          const control = keyToControl(e);
          if (!control) return;
          e.preventDefault();
          e.stopPropagation();
          desktop.send({ type: 'input.keyboard', payload: control });
        }}
      >
        <video
          ref={video}
          autoPlay
          muted
          playsInline
          data-testid="remote-desktop-video"
          className="remote-desktop-video"
        />
      </div>
      <p
        id="remote-desktop-keyboard-hint"
        className="remote-desktop-hint"
        data-testid="remote-desktop-keyboard-hint"
      >
        {captured ? t('remoteDesktop.keyboardCaptured') : t('remoteDesktop.keyboardReleased')}
      </p>
    </div>
  );
}
