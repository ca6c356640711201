/**
 * How the device gives an event to the server (issue 11): POST /api/device/events (events.devicePost, JSON,
 * idempotent by its key) answers the event's id; the snapshot and the clip follow as raw bodies
 * (PUT /api/device/events/:id/snapshot image/jpeg, .../clip video/mp4). Each call is tried up to
 * POST_ATTEMPTS times with a doubling delay; the idempotency key makes a repeated post record the event once.
 */
import { z } from 'zod';
import type { DeviceAlarm } from '../../protocol/alarms';
import type { DeviceEventPostIn } from '../../protocol/events';
import { routeUrl } from '../../protocol/route';
import { restRoutes } from '../../protocol/routes';

export const POST_ATTEMPTS = 4;
export const POST_FIRST_DELAY_MS = 500;
const TIMEOUT_MS = 15_000;

/** What the alarms part needs from the server. */
export interface EventServer {
  /** Records the event; its id (the same id again for a repeated key). */
  postEvent(body: DeviceEventPostIn): Promise<string>;
  /** Stores the event's snapshot (image/jpeg) or clip (video/mp4). */
  putMedia(eventId: string, kind: 'snapshot' | 'clip', bytes: Buffer): Promise<void>;
  /** The alarms the server has for this device (null when it cannot be asked). */
  alarms(): Promise<DeviceAlarm[] | null>;
}

/** A refusal that retrying will not change (4xx other than 408/429). */
class Refused extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function retried<T>(what: () => Promise<T>): Promise<T> {
  let delay = POST_FIRST_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await what();
    } catch (err) {
      if (err instanceof Refused || attempt >= POST_ATTEMPTS) throw err;
      await sleep(delay);
      delay *= 2;
    }
  }
}

/** The HTTP EventServer for `server` (AgentPartDeps.server). */
export function httpEventServer(
  server: { url: string; token: string },
  doFetch: typeof fetch = fetch,
): EventServer {
  const base = server.url.endsWith('/') ? server.url : `${server.url}/`;
  const url = (path: string) => new URL(path.replace(/^\//, ''), base);
  const check = async (res: Response, what: string) => {
    if (res.ok) return;
    const text = (await res.text().catch(() => '')).slice(0, 300);
    const msg = `${what} answered ${res.status}: ${text}`;
    if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429)
      throw new Refused(msg);
    throw new Error(msg);
  };
  const auth = { Authorization: `Token ${server.token}` };
  return {
    postEvent: (body) =>
      retried(async () => {
        const res = await doFetch(url(restRoutes['events.devicePost'].path), {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        await check(res, 'POST device/events');
        return z.object({ id: z.string() }).parse(await res.json()).id;
      }),
    putMedia: (eventId, kind, bytes) =>
      retried(async () => {
        const res = await doFetch(url(`/api/device/events/${encodeURIComponent(eventId)}/${kind}`), {
          method: 'PUT',
          headers: { ...auth, 'Content-Type': kind === 'snapshot' ? 'image/jpeg' : 'video/mp4' },
          body: new Uint8Array(bytes),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        await check(res, `PUT device/events/${kind}`);
      }),
    alarms: async () => {
      const route = restRoutes['alarms.agentList'];
      const res = await doFetch(url(routeUrl(route)), {
        headers: auth,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await check(res, 'GET device/alarms');
      return (route.answer.parse(await res.json()) as { alarms: DeviceAlarm[] }).alarms;
    },
  };
}
