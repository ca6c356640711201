/** What the alarm channels screen reads of its actor (systemId 'alarmChannels'): `channelsToView`, pure. */
import { shallowEqual, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { ChannelsRef, channelsMachine } from '../../../../machines/alarmChannels/channels.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Channel, DeliveryAttempt } from '../../../protocol/alarmChannels';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export interface ChannelRowView {
  id: string;
  name: string;
  kind: Channel['config']['kind'];
  /** Where it goes: address, URL, chat id, or the number of subscribed browsers. */
  target: string;
  enabled: boolean;
  counts: Channel['deliveries'];
  subscriptions: number;
  lastTest: DeliveryAttempt | null;
  busy: boolean;
  logOpen: boolean;
}

export interface ChannelsView {
  loading: boolean;
  saving: boolean;
  /** A Test, delete, log or subscribe call in flight: other actions wait. */
  acting: boolean;
  rows: ChannelRowView[];
  log: { channelId: string; name: string; attempts: DeliveryAttempt[]; loading: boolean } | null;
  secret: { name: string; secret: string } | null;
  error: string | null;
  formError: string | null;
}

function targetOf(c: Channel): string {
  switch (c.config.kind) {
    case 'email':
      return c.config.to;
    case 'webhook':
      return c.config.url;
    case 'telegram':
      return c.config.chat_id;
    default:
      return '';
  }
}

export function channelsToView(s: SnapshotFrom<typeof channelsMachine>): ChannelsView {
  const c = s.context;
  const logChannel = c.logOf ? c.channels.find((x) => x.id === c.logOf) : undefined;
  return {
    loading: s.hasTag('busy'),
    saving: s.hasTag('saving'),
    acting: !s.matches('ready'),
    rows: c.channels.map((ch) => ({
      id: ch.id,
      name: ch.name,
      kind: ch.config.kind,
      target: targetOf(ch),
      enabled: ch.enabled,
      counts: ch.deliveries,
      subscriptions: ch.subscriptions,
      lastTest: c.tests[ch.id] ?? null,
      busy: c.busyId === ch.id,
      logOpen: c.logOf === ch.id,
    })),
    log:
      c.logOf && logChannel
        ? {
            channelId: c.logOf,
            name: logChannel.name,
            attempts: c.attempts,
            loading: s.matches('logLoading'),
          }
        : null,
    secret: c.secret ? { name: c.secret.name, secret: c.secret.secret } : null,
    error: c.error,
    formError: c.formError,
  };
}

export function useChannelsRef(): ChannelsRef {
  return actorOf<ChannelsRef>(useSystem(), SYSTEM_IDS.alarmChannels);
}

export function useChannelsView(): ChannelsView {
  return useSelector(useChannelsRef(), channelsToView, shallowEqual);
}
