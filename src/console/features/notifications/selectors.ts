/** What the bell reads of the inbox actor (systemId 'inbox'): `inboxToView`, pure. */
import { shallowEqual, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { InboxRef, inboxMachine } from '../../../../machines/notifications/inbox.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Notification } from '../../../protocol/notifications';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export interface InboxView {
  unread: number;
  /** The badge text: the count, "99+" above 99, '' at none. */
  badge: string;
  items: Notification[];
  loading: boolean;
  connected: boolean;
  error: string | null;
}

export function inboxToView(s: SnapshotFrom<typeof inboxMachine>): InboxView {
  const n = s.context.unread;
  return {
    unread: n,
    badge: n === 0 ? '' : n > 99 ? '99+' : String(n),
    items: s.context.notifications,
    loading: s.hasTag('busy'),
    connected: s.context.connected,
    error: s.matches({ signedIn: 'failed' }) ? s.context.error : null,
  };
}

export function useInboxRef(): InboxRef {
  return actorOf<InboxRef>(useSystem(), SYSTEM_IDS.inbox);
}

export function useInboxView(): InboxView {
  return useSelector(useInboxRef(), inboxToView, shallowEqual);
}
