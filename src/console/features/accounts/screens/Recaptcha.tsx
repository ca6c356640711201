/**
 * The reCAPTCHA v2 checkbox (issue 13: only when the server configures RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET;
 * off by default, so this never loads Google's script then). Loads api.js once and renders explicitly;
 * `onAnswer` gets the answer token, or null when it expires.
 */
import { useEffect, useRef } from 'react';

interface Grecaptcha {
  ready(cb: () => void): void;
  render(
    el: HTMLElement,
    opts: { sitekey: string; callback: (t: string) => void; 'expired-callback': () => void },
  ): number;
}

let script: Promise<Grecaptcha> | null = null;
function loadRecaptcha(): Promise<Grecaptcha> {
  return (script ??= new Promise((resolve, reject) => {
    const el = document.createElement('script');
    el.src = 'https://www.google.com/recaptcha/api.js?render=explicit';
    el.async = true;
    el.onload = () => {
      const g = (globalThis as { grecaptcha?: Grecaptcha }).grecaptcha;
      if (g) g.ready(() => resolve(g));
      else reject(new Error('reCAPTCHA did not load'));
    };
    el.onerror = () => reject(new Error('reCAPTCHA did not load'));
    document.head.appendChild(el);
  }));
}

export function Recaptcha({
  siteKey,
  onAnswer,
}: {
  siteKey: string;
  onAnswer: (token: string | null) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    loadRecaptcha().then(
      (g) => {
        if (live && box.current && box.current.childElementCount === 0) {
          g.render(box.current, {
            sitekey: siteKey,
            callback: (token) => onAnswer(token),
            'expired-callback': () => onAnswer(null),
          });
        }
      },
      () => onAnswer(null),
    );
    return () => {
      live = false;
    };
  }, [siteKey, onAnswer]);
  return <div ref={box} data-testid="recaptcha" />;
}
