/**
 * The profile feature's actors (machines/profile/): the profile form (systemId 'profileForm', also read by the
 * header), the API keys, and one report actor per usage page and for the device tokens.
 */
import { fromPromise } from 'xstate';
import { apiKeysMachine, type ApiKeyDraft } from '../../../../machines/profile/apiKeys.machine';
import { PROFILE_IDS } from '../../../../machines/profile/ids';
import { profileFormMachine } from '../../../../machines/profile/profileForm.machine';
import type { ProfileUpdateBody } from '../../../../machines/profile/profileForm';
import { reportMachine } from '../../../../machines/profile/profileReport.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import type { Platform } from '../feature';
import { profileApi } from './api';

/** Days the network usage page shows. */
export const NETWORK_DAYS = 30;

export function profileActors({ http }: Platform): FeatureActor[] {
  const api = profileApi(http);
  const report = (systemId: string, load: (signal: AbortSignal) => Promise<unknown>) =>
    featureActor({
      systemId,
      logic: reportMachine.provide({ actors: { load: fromPromise(({ signal }) => load(signal)) } }),
      onSignOut: [{ type: 'report.reset' }],
    });
  return [
    featureActor({
      systemId: PROFILE_IDS.form,
      logic: profileFormMachine.provide({
        actors: {
          loadUser: fromPromise(({ signal }) => api.loadUser(signal)),
          saveProfile: fromPromise(({ input, signal }: { input: ProfileUpdateBody; signal: AbortSignal }) =>
            api.saveProfile(input, signal),
          ),
          removeAvatar: fromPromise(({ signal }) => api.removeAvatar(signal)),
        },
      }),
      onSignIn: [{ type: 'profile.load' }],
      onSignOut: [{ type: 'profile.reset' }],
    }),
    featureActor({
      systemId: PROFILE_IDS.apiKeys,
      logic: apiKeysMachine.provide({
        actors: {
          loadKeys: fromPromise(({ signal }) => api.loadKeys(signal)),
          createKey: fromPromise(({ input, signal }: { input: ApiKeyDraft; signal: AbortSignal }) =>
            api.createKey(input, signal),
          ),
          revokeKey: fromPromise(({ input, signal }: { input: { id: string }; signal: AbortSignal }) =>
            api.revokeKey(input.id, signal),
          ),
        },
      }),
      onSignOut: [{ type: 'keys.reset' }],
    }),
    report(PROFILE_IDS.streamLimits, (signal) => api.streamLimits(signal)),
    report(PROFILE_IDS.deviceTokens, (signal) => api.deviceTokens(signal)),
    report(PROFILE_IDS.storage, (signal) => api.storage(signal)),
    report(PROFILE_IDS.network, (signal) => api.network(NETWORK_DAYS, signal)),
  ];
}
