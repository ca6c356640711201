/**
 * The alarm channels feature (issue 11 "Alarms and channels", spec §2 /alarm-channels): e-mail, webhook,
 * Telegram, Slack and Web Push channels with a Test button and a delivery log; `ChannelPicker` for the alarm
 * editor; loaded after sign-in.
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const alarmChannels: ConsoleFeature = {
  name: 'alarmChannels',
  routes: { alarmChannels: lazyScreen(() => import('./screens/AlarmChannelsScreen')) },
  loadActors: () => import('./actors').then((m) => m.alarmChannelsActors),
};
