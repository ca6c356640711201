/**
 * Web Push (issue 11 "Web Push in the browser") with the `web-push` package: the server's VAPID key pair is
 * generated on first use and kept in `web_push_keys` (private key sealed by the secret box), so every server
 * process signs with the same key. `sendToChannel` sends one payload to each browser subscribed to a channel;
 * a subscription the push service reports gone (404/410) is deleted.
 */
import { eq, sql } from 'drizzle-orm';
import webpush from 'web-push';
import { secretBox } from '../auth/secretBox';
import type { Db } from '../db';
import { pushSubscriptions, webPushKeys } from '../db/schema';
import type { WebPushTarget } from './senders';

const keys = new WeakMap<Db, Promise<{ publicKey: string; privateKey: string }>>();

/** The VAPID key pair (base64url), created once per database. */
export function vapidKeys(db: Db): Promise<{ publicKey: string; privateKey: string }> {
  let k = keys.get(db);
  if (!k) {
    k = (async () => {
      const box = await secretBox(db);
      const fresh = webpush.generateVAPIDKeys();
      await db
        .insert(webPushKeys)
        .values({ id: 1, publicKey: fresh.publicKey, privateKeySealed: box.seal(fresh.privateKey) })
        .onConflictDoNothing();
      const [row] = await db.select().from(webPushKeys).where(eq(webPushKeys.id, 1));
      if (!row) throw new Error('web push keys missing');
      return { publicKey: row.publicKey, privateKey: box.open(row.privateKeySealed) };
    })();
    k.catch(() => keys.delete(db));
    keys.set(db, k);
  }
  return k;
}

/** The Web Push sender of a server: `subject` is the VAPID contact (a mailto: or https: URL). */
export function createWebPush(db: Db, subject: string, timeoutMs = 10_000): WebPushTarget {
  return {
    async sendToChannel(channelId, body) {
      const subs = await db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.channelId, channelId));
      if (subs.length === 0) return { sent: 0, total: 0, code: null, error: null };
      const { publicKey, privateKey } = await vapidKeys(db);
      let sent = 0;
      let code: number | null = null;
      let error: string | null = null;
      for (const s of subs) {
        try {
          const r = await webpush.sendNotification(
            { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } },
            body,
            { vapidDetails: { subject, publicKey, privateKey }, TTL: 3600, timeout: timeoutMs },
          );
          sent += 1;
          code = r.statusCode;
        } catch (err) {
          const status = (err as { statusCode?: number }).statusCode ?? null;
          code = status;
          error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
          if (status === 404 || status === 410)
            await db.delete(pushSubscriptions).where(sql`${pushSubscriptions.id} = ${s.id}`);
        }
      }
      return { sent, total: subs.length, code, error };
    },
  };
}
