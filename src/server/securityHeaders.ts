/**
 * Security headers on every answer (issue 15; OWASP ASVS 4.0 V14.4) through `@fastify/helmet`:
 * Content-Security-Policy, frame-ancestors 'none' (and X-Frame-Options DENY), X-Content-Type-Options nosniff,
 * Referrer-Policy no-referrer, Cross-Origin-Opener-Policy and -Resource-Policy same-origin, HSTS (browsers keep
 * it only over HTTPS). No CORS plugin is registered, so a foreign Origin gets no Access-Control-* header and its
 * scripts cannot read an answer.
 *
 * The console's policy (`consolePolicy`) allows what the console needs and nothing more: its own scripts plus
 * 'wasm-unsafe-eval' (hash-wasm computes upload checksums in WebAssembly), inline styles (Mantine writes its
 * CSS variables in a <style> element and style attributes), connections to its own origin (REST, socket.io,
 * PeerJS signalling, tus) and to its own blob: URLs (a recording fetched back for playback), images from itself, data: and blob: and the map's tile server (MAP_TILE_URL's
 * origin; a `{s}` sub-domain becomes `*.`), media from itself and blob:, the Web Push service worker from
 * itself. No 'upgrade-insecure-requests': the console is often reached over plain HTTP on a LAN address.
 *
 * /remote/* answers are a device's own web application passed through the tunnel (Jupyter and the like,
 * src/server/tunnel): they keep their own headers and get none of these (their inline scripts would break).
 */
import fastifyHelmet from '@fastify/helmet';
import { REMOTE_PATH_PREFIX } from '../protocol/containers';
import type { ZodApp } from './routes/types';

/** The origin a tile URL template loads from, as a CSP source ('self' for a path on this server), or null. */
export function tileSource(tileUrl: string): string | null {
  if (tileUrl.startsWith('/')) return null;
  const match = /^(https?):\/\/([^/?#]+)/.exec(tileUrl);
  if (!match) return null;
  const host = match[2]!.replace(/\{s\}\./, '*.').replace(/\{[a-z]+\}/g, '*');
  return `${match[1]}://${host}`;
}

/** The console's Content-Security-Policy directives (helmet's option shape: directive → sources). */
export function consolePolicy(tileUrl: string): Record<string, string[]> {
  const tiles = tileSource(tileUrl);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...(tiles ? [tiles] : [])],
    'media-src': ["'self'", 'blob:'],
    'font-src': ["'self'", 'data:'],
    // blob: the console fetches its own object URLs (a recording downloaded from a device, then played).
    'connect-src': ["'self'", 'blob:'],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'frame-src': ["'none'"],
  };
}

/**
 * Registers the headers on `app` for every answer except /remote/* (see above). `tileUrl` is the map's tile
 * template (mapConfigFromEnv().tile_url).
 */
export async function registerSecurityHeaders(app: ZodApp, tileUrl: string): Promise<void> {
  await app.register(fastifyHelmet, {
    global: false,
    contentSecurityPolicy: { useDefaults: false, directives: consolePolicy(tileUrl) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith(REMOTE_PATH_PREFIX)) return;
    await reply.helmet();
  });
}
