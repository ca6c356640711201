/**
 * This browser's Web Push subscription for a webpush channel: registers the console's service worker
 * (/push-sw.js, public/), subscribes with the server's VAPID key and hands the subscription to the server.
 * @throws Error when the browser has no Push API or the user refuses notifications.
 */
import type { alarmChannelsApi } from './api';

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export async function subscribeThisBrowser(api: ReturnType<typeof alarmChannelsApi>, channelId: string) {
  if (!('serviceWorker' in navigator) || !('PushManager' in window))
    throw new Error('This browser cannot receive Web Push notifications.');
  if ((await Notification.requestPermission()) !== 'granted')
    throw new Error('Notifications are not allowed for this site.');
  const reg = await navigator.serviceWorker.register('/push-sw.js');
  await navigator.serviceWorker.ready;
  const key = await api.webPushKey();
  const sub =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
  const json = sub.toJSON() as { endpoint?: string; keys?: { p256dh?: string; auth?: string } };
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth)
    throw new Error('The subscription is incomplete.');
  await api.subscribe(channelId, {
    endpoint: json.endpoint,
    keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
  });
  return { ok: true };
}
