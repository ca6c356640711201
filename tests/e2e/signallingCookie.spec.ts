/**
 * Issue 15 "tokens never in URLs or logs" in a real browser: the console's PeerJS socket URL carries no
 * signalling token (only PeerJS's own random string), the token is the HttpOnly, SameSite=Strict cookie
 * `edge_sig_<peer id>` under /peerjs that page scripts cannot read, and after a signalling drop the console
 * fetches a fresh cookie (POST get_browser_token) before its socket opens again.
 */
import { test, expect } from './fixtures';
import { DEMO, signIn } from './stack';

test('the signalling socket URL holds no token; the token is an HttpOnly cookie, fetched again on reconnect', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  // Keeps the page's PeerJS sockets so the test can drop one (Chromium's offline mode leaves sockets open).
  await page.addInitScript(() => {
    const Native = window.WebSocket;
    const kept: WebSocket[] = [];
    (window as unknown as { __peerSockets: WebSocket[] }).__peerSockets = kept;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        if (String(url).includes('/peerjs')) kept.push(this);
      }
    };
  });
  const events: string[] = [];
  const sockets: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/get_browser_token')) events.push('credential');
  });
  page.on('websocket', (ws) => {
    if (!new URL(ws.url()).pathname.startsWith('/peerjs')) return;
    sockets.push(ws.url());
    events.push('socket');
  });
  await signIn(page, DEMO);
  await expect.poll(() => sockets.length, { timeout: 30_000 }).toBeGreaterThan(0);
  expect(events.slice(0, 2)).toEqual(['credential', 'socket']);

  const url = new URL(sockets[0]!);
  const peerId = url.searchParams.get('id')!;
  expect(peerId).toMatch(/^web-[0-9a-f]{16}$/);
  // PeerJS's own token: a short random string, not a JWT (three base64url parts starting "eyJ").
  expect(url.searchParams.get('token')).toMatch(/^[a-z0-9]+$/);
  expect(sockets[0]).not.toMatch(/eyJ/);

  const cookie = (await context.cookies()).find((c) => c.name === `edge_sig_${peerId}`);
  expect(cookie).toMatchObject({ path: '/peerjs', httpOnly: true, sameSite: 'Strict' });
  expect(cookie!.value.split('.')).toHaveLength(3);
  expect(cookie!.expires - Date.now() / 1000).toBeLessThanOrEqual(120);
  expect(await page.evaluate(() => document.cookie)).not.toContain('edge_sig_');

  // A signalling drop: the console reconnects with a freshly fetched cookie, the URL still token-free.
  const before = events.length;
  await page.evaluate(() => {
    for (const ws of (window as unknown as { __peerSockets: WebSocket[] }).__peerSockets) ws.close();
  });
  await expect.poll(() => events.slice(before).includes('socket'), { timeout: 60_000 }).toBe(true);
  const after = events.slice(before);
  expect(after.indexOf('credential')).toBeGreaterThanOrEqual(0);
  expect(after.indexOf('credential')).toBeLessThan(after.indexOf('socket'));
  expect(new URL(sockets.at(-1)!).searchParams.get('id')).toBe(peerId);
  for (const s of sockets) expect(s).not.toMatch(/eyJ/);
  // The server took the new socket (a refused upgrade never reaches OPEN).
  await expect
    .poll(() =>
      page.evaluate(
        () => (window as unknown as { __peerSockets: WebSocket[] }).__peerSockets.at(-1)!.readyState,
      ),
    )
    .toBe(1);
});
