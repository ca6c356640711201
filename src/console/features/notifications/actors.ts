/**
 * The inbox actor's side effects (machines/notifications/inbox.machine.ts): REST (notifications.*) and the
 * §7 real-time socket (socket.io-client at /socket.io with the access token in the handshake, read anew on
 * each reconnect). An expired token: one REST call lets the transport refresh it, then the socket reconnects.
 */
import { io } from 'socket.io-client';
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { inboxMachine } from '../../../../machines/notifications/inbox.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { API_ERROR_CODES } from '../../../protocol';
import { REALTIME_EVENT, REALTIME_PATH, RealtimeMessage } from '../../../protocol/notifications';
import type { Platform } from '../feature';

/** After a disconnect sent by the server, the socket connects again after this long, ms. */
const SERVER_DISCONNECT_RETRY_MS = 2_000;

export function notificationsActors({ http, session }: Platform): FeatureActor[] {
  return [
    featureActor({
      systemId: SYSTEM_IDS.inbox,
      logic: inboxMachine.provide({
        actors: {
          load: fromPromise(({ signal }) => http.call('notifications.list', { signal })),
          markRead: fromPromise<unknown, { id: string }>(({ input }) =>
            http.call('notifications.read', { params: { id: input.id } }),
          ),
          markAllRead: fromPromise<unknown>(async () => {
            await http.call('notifications.readAll', {});
          }),
          socket: fromCallback<EventObject>(({ sendBack }) => {
            const socket = io({
              path: REALTIME_PATH,
              auth: (cb) => cb({ token: session.read()?.token ?? '' }),
              transports: ['websocket', 'polling'],
            });
            socket.on('connect', () => sendBack({ type: 'inbox.socket.up' }));
            let again: ReturnType<typeof setTimeout> | undefined;
            socket.on('disconnect', (reason) => {
              sendBack({ type: 'inbox.socket.down' });
              // A disconnect sent by the server is taken for a kick, and socket.io does not reconnect after one;
              // a server going away is no kick (issue 15 "Server restarted"): try again, and the handshake's
              // token check says whether this session may still listen.
              if (reason === 'io server disconnect') {
                clearTimeout(again);
                again = setTimeout(() => socket.connect(), SERVER_DISCONNECT_RETRY_MS);
              }
            });
            socket.on('connect_error', (err) => {
              sendBack({ type: 'inbox.socket.down' });
              if (
                err.message === API_ERROR_CODES.tokenExpired ||
                err.message === API_ERROR_CODES.invalidToken
              ) {
                // A REST call refreshes the token (or signs out); then try again with the new one.
                void http
                  .call('notifications.list', {})
                  .then(() => socket.connect())
                  .catch(() => undefined);
              }
            });
            socket.on(REALTIME_EVENT, (raw: unknown) => {
              const m = RealtimeMessage.safeParse(raw);
              if (!m.success) return;
              if (m.data.type === 'notification')
                sendBack({ type: 'inbox.pushed', notification: m.data.notification });
              else if (m.data.type === 'notifications.read')
                sendBack({ type: 'inbox.readElsewhere', ids: m.data.ids });
            });
            return () => {
              clearTimeout(again);
              socket.disconnect();
            };
          }),
        },
      }),
      onSignIn: [{ type: 'inbox.start' }],
      onSignOut: [{ type: 'inbox.stop' }],
    }),
  ];
}
