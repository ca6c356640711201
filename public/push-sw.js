/*
 * The console's Web Push service worker (issue 11 "Web Push in the browser"; src/console/features/alarmChannels/
 * webPush.ts registers it): shows each pushed alarm event ({ title, body, key }) as a system notification and
 * opens /events when it is clicked.
 */
self.addEventListener('push', (event) => {
  let data = { title: 'Edge AI Console', body: '' };
  try {
    data = { ...data, ...event.data.json() };
  } catch {
    if (event.data) data.body = event.data.text();
  }
  event.waitUntil(
    self.registration.showNotification(data.title, { body: data.body, tag: data.key || undefined }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow('/events'));
});
