/**
 * The profile feature's server calls (spec §7 PUT user, usage/all_stream_limits; issue 13 profile routes in
 * src/protocol/profile.ts), by route name over the console's transport.
 */
import type { ProfileUpdateBody, ProfileUser } from '../../../../machines/profile/profileForm';
import type { ApiKeyDraft } from '../../../../machines/profile/apiKeys.machine';
import type { Http } from '../../platform/http';

export function profileApi(http: Http) {
  return {
    /** GET user-info → the user (§3 User info). */
    loadUser: async (signal?: AbortSignal): Promise<ProfileUser> =>
      (await http.call('accounts.userInfo', { signal })).user_info,
    /** PUT user (§7; the body carries the password only when provided, §5). */
    saveProfile: async (body: ProfileUpdateBody, signal?: AbortSignal): Promise<ProfileUser> =>
      (await http.call('profile.update', { body, signal })).user_info,
    removeAvatar: async (signal?: AbortSignal): Promise<ProfileUser> =>
      (await http.call('profile.removeAvatar', { signal })).user_info,
    loadKeys: async (signal?: AbortSignal) => (await http.call('profile.listApiKeys', { signal })).keys,
    createKey: (draft: ApiKeyDraft, signal?: AbortSignal) =>
      http.call('profile.createApiKey', {
        body: { name: draft.name, scope: draft.scope, expires_in_days: draft.expiresInDays },
        signal,
      }),
    revokeKey: async (id: string, signal?: AbortSignal) =>
      (await http.call('profile.revokeApiKey', { params: { id }, signal })).key,
    /** §7 usage/all_stream_limits → stream_limits. */
    streamLimits: async (signal?: AbortSignal) =>
      (await http.call('usage.allStreamLimits', { signal })).stream_limits,
    deviceTokens: async (signal?: AbortSignal) =>
      (await http.call('profile.deviceTokens', { signal })).tokens,
    storage: (signal?: AbortSignal) => http.call('profile.storageUsage', { signal }),
    network: (days: number, signal?: AbortSignal) =>
      http.call('profile.networkUsage', { query: { days }, signal }),
  };
}
export type ProfileApi = ReturnType<typeof profileApi>;
