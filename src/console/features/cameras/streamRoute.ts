/**
 * Route parameters of /stream-detail and /raw-stream-detail (§2 "/stream-detail (takes cameraID and data;
 * the stream data travels as a route parameter)"). Decision: path parameters
 * `/stream-detail/:cameraID/:data` where `data` is base64url(JSON `{ deviceId, cameraId }`); cameraID is the
 * camera's camera_id (repeated in data so the path reads well). Pure, no React.
 */

/** What `data` carries. */
export interface StreamRouteData {
  deviceId: string;
  cameraId: string;
}

const toBase64Url = (text: string): string =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const fromBase64Url = (text: string): string => {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
};

/** The path of one stream's detail page: raw = /raw-stream-detail (video only). */
export function streamDetailPath(data: StreamRouteData, raw = false): string {
  const base = raw ? '/raw-stream-detail' : '/stream-detail';
  return `${base}/${encodeURIComponent(data.cameraId)}/${toBase64Url(JSON.stringify(data))}`;
}

/** Reads the route parameters; null when `data` is missing or not the expected JSON. */
export function parseStreamRoute(
  cameraID: string | undefined,
  data: string | undefined,
): StreamRouteData | null {
  if (!data) return null;
  try {
    const parsed = JSON.parse(fromBase64Url(data)) as { deviceId?: unknown; cameraId?: unknown };
    if (typeof parsed.deviceId !== 'string' || !parsed.deviceId) return null;
    const cameraId = typeof parsed.cameraId === 'string' && parsed.cameraId ? parsed.cameraId : cameraID;
    return cameraId ? { deviceId: parsed.deviceId, cameraId } : null;
  } catch {
    return null;
  }
}
