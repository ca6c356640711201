/** The alarm channels actor's side effects (machines/alarmChannels/channels.machine.ts): REST and Web Push. */
import { fromPromise } from 'xstate';
import { channelsMachine } from '../../../../machines/alarmChannels/channels.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { ChannelInput } from '../../../protocol/alarmChannels';
import type { Platform } from '../feature';
import { alarmChannelsApi } from './api';
import { subscribeThisBrowser } from './webPush';

export function alarmChannelsActors({ http }: Platform): FeatureActor[] {
  const api = alarmChannelsApi(http);
  return [
    featureActor({
      systemId: SYSTEM_IDS.alarmChannels,
      logic: channelsMachine.provide({
        actors: {
          list: fromPromise(({ signal }) => api.list(signal)),
          create: fromPromise(({ input }: { input: { input: ChannelInput } }) => api.create(input.input)),
          test: fromPromise(({ input }: { input: { id: string } }) => api.test(input.id)),
          remove: fromPromise<unknown, { id: string }>(({ input }) => api.remove(input.id)),
          subscribe: fromPromise<unknown, { id: string }>(({ input }) => subscribeThisBrowser(api, input.id)),
          attempts: fromPromise(({ input, signal }: { input: { id: string }; signal: AbortSignal }) =>
            api.attempts(input.id, signal),
          ),
        },
      }),
      onSignOut: [{ type: 'channels.clear' }],
    }),
  ];
}
