/**
 * The small HTML pages the remote-app proxy answers instead of the app (a browser tab shows them): 403 when
 * the link is not the viewer's or expired, 404 for a malformed path, 502/503/504 when the tunnel cannot reach
 * the app. English, no script, readable by screen readers (lang, title, one heading, a link back).
 */
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';

export interface ProxyPage {
  status: number;
  title: string;
  message: string;
}

export const FORBIDDEN_PAGE: ProxyPage = {
  status: 403,
  title: 'This link cannot be opened',
  message: 'This link belongs to another account or has expired. Open it again from the console.',
};

export const NOT_FOUND_PAGE: ProxyPage = {
  status: 404,
  title: 'Not found',
  message: 'There is no app at this address. Open it again from the console.',
};

/** The page of a tunnel failure (TunnelError status and reason). */
export function tunnelFailurePage(status: number, reason: string): ProxyPage {
  const title =
    status === 503
      ? 'The device is busy'
      : status === 504
        ? 'The device did not answer'
        : 'The app cannot be reached';
  return {
    status,
    title,
    message: `${reason} Try again in a moment, or open the app again from the console.`,
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page's HTML document. */
export function pageHtml(page: ProxyPage): string {
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(page.title)}</title>` +
    '<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;' +
    'line-height:1.5;color:#1a1b1e}a{color:#1864ab}</style></head>' +
    `<body><main><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.message)}</p>` +
    '<p><a href="/">Go to the console</a></p></main></body></html>\n'
  );
}

/** Headers every page is sent with. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/** Answers `page` on a socket that has not been upgraded, then closes it. */
export function writePageToSocket(socket: Duplex, page: ProxyPage): void {
  if (socket.destroyed) return;
  const body = pageHtml(page);
  const head = [
    `HTTP/1.1 ${page.status} ${STATUS_CODES[page.status] ?? 'Error'}`,
    ...Object.entries(PAGE_HEADERS).map(([k, v]) => `${k}: ${v}`),
    'connection: close',
    `content-length: ${Buffer.byteLength(body)}`,
  ].join('\r\n');
  socket.end(`${head}\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), 1000).unref();
}
