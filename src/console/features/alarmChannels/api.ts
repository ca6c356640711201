/**
 * REST calls of the alarm channels feature (src/protocol/alarmChannels.ts), by route name. The alarm editor
 * (features/alarms) sets an alarm's channels with `getAlarmChannels` / `setAlarmChannels`.
 */
import type { ChannelInput } from '../../../protocol/alarmChannels';
import type { Http } from '../../platform/http';

export function alarmChannelsApi(http: Http) {
  return {
    list: async (signal?: AbortSignal) => (await http.call('alarmChannels.list', { signal })).channels,
    create: (input: ChannelInput, signal?: AbortSignal) =>
      http.call('alarmChannels.create', { body: input, signal }),
    test: (id: string) => http.call('alarmChannels.test', { params: { id } }),
    remove: (id: string) => http.call('alarmChannels.delete', { params: { id } }),
    attempts: async (id: string, signal?: AbortSignal) =>
      (await http.call('alarmChannels.attempts', { params: { id }, signal })).attempts,
    webPushKey: async () => (await http.call('alarmChannels.webPushKey', {})).public_key,
    subscribe: (id: string, sub: { endpoint: string; keys: { p256dh: string; auth: string } }) =>
      http.call('alarmChannels.subscribe', { params: { id }, body: sub }),
  };
}

/** The channel ids an alarm's events go to. @throws on 404 (not the caller's alarm). */
export async function getAlarmChannels(http: Http, alarmId: string, signal?: AbortSignal): Promise<string[]> {
  return (await http.call('alarmChannels.alarmChannels', { params: { id: alarmId }, signal })).channel_ids;
}

/** Sets the channels an alarm's events go to; answers the saved ids. @throws on 404. */
export async function setAlarmChannels(http: Http, alarmId: string, channelIds: string[]): Promise<string[]> {
  return (
    await http.call('alarmChannels.setAlarmChannels', {
      params: { id: alarmId },
      body: { channel_ids: channelIds },
    })
  ).channel_ids;
}
