/**
 * Development inspector — ARCHITECTURE "Console state: developers can watch the live actor system with the
 * Stately inspector (@statelyai/inspect), switched on by a development flag and off in production builds;
 * tokens are stripped from what it shows".
 *
 * Only when `import.meta.env.DEV` (Vite replaces it with false in production, so the dynamic import is
 * dropped from the build) AND local storage 'inspect' = '1'. Inspection events that happen while the
 * inspector loads are buffered and replayed.
 */
import type { InspectionEvent } from 'xstate';

/** Keys whose values never reach the inspector. */
const SECRET_KEYS = new Set([
  'token',
  'refreshToken',
  'refresh_token',
  'grant',
  'password',
  'authorization',
  'Authorization',
  'access_token',
]);

/** Deep copy of `value` with secrets replaced by '[redacted]' and actor refs by their id (depth ≤ 6). */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[…]';
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  const obj = value as Record<string, unknown>;
  if (typeof obj.send === 'function' && typeof obj.getSnapshot === 'function') {
    return `[actor ${String(obj.id ?? '')}]`;
  }
  if (typeof MediaStream !== 'undefined' && value instanceof MediaStream) return '[MediaStream]';
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    out[k] = SECRET_KEYS.has(k) ? (v == null ? v : '[redacted]') : redactSecrets(v, depth + 1);
  }
  return out;
}

/** True when the developer asked for the inspector (local storage 'inspect' = '1'). */
function inspectFlag(): boolean {
  try {
    return typeof window !== 'undefined' && window.localStorage?.getItem('inspect') === '1';
  } catch {
    return false;
  }
}

/**
 * An `inspect` callback for createActor, or undefined when inspection is off (production build, no flag).
 * Opens the Stately inspector window.
 */
export function createDevInspector(): ((event: InspectionEvent) => void) | undefined {
  if (!import.meta.env.DEV || !inspectFlag()) return undefined;
  const buffer: InspectionEvent[] = [];
  let forward: ((event: InspectionEvent) => void) | null = null;
  void import('@statelyai/inspect').then(({ createBrowserInspector }) => {
    const inspector = createBrowserInspector({
      sanitizeEvent: (event) => redactSecrets(event) as typeof event,
      sanitizeContext: (context) => redactSecrets(context) as typeof context,
    });
    forward = (event) => inspector.inspect.next?.(event);
    for (const event of buffer.splice(0)) forward(event);
  });
  return (event) => {
    if (forward) forward(event);
    else if (buffer.length < 10_000) buffer.push(event);
  };
}
