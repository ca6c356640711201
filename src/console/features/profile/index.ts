/**
 * The profile feature (spec §2 /profile children; §3 User info; §7 PUT user, usage/all_stream_limits;
 * issue 13 "Profile"): personal information with the picture, API keys and device tokens, stream limits,
 * storage and network usage — and the header's name and picture. Loaded after sign-in.
 * /profile/account-information (accounts) and /profile/my-licences (billing) are other features' screens.
 */
import { PROFILE_IDS } from '../../../../machines/profile/ids';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const profile: ConsoleFeature = {
  name: 'profile',
  routes: {
    personalInformation: lazyScreen(() => import('./screens/PersonalInformationScreen')),
    keysSecrets: lazyScreen(() => import('./screens/KeysSecretsScreen')),
    streamManagement: lazyScreen(() => import('./screens/StreamManagementScreen')),
    storageUsage: lazyScreen(() => import('./screens/StorageUsageScreen')),
    networkUsage: lazyScreen(() => import('./screens/NetworkUsageScreen')),
  },
  loadActors: () => import('./actors').then((m) => m.profileActors),
  headerSlots: [lazyScreen(() => import('./screens/HeaderProfile'))],
  notices: [{ systemId: PROFILE_IDS.form }, { systemId: PROFILE_IDS.apiKeys }],
};
