/**
 * The accounts feature (spec §4 Auth, §5 login form; server routes `accounts`): the login screen, the auth
 * actor's side effects, its notices (the §8 invalid-token toast, the confirm-mail dialog).
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';
import { provideAccounts } from './actors';

export const accounts: ConsoleFeature = {
  name: 'accounts',
  routes: {
    login: lazyScreen(() => import('./screens/LoginScreen')),
  },
  provide: provideAccounts,
  notices: [
    // The confirm-mail dialog belongs to auth's confirmMail state (§4 status 1): closing it closes that too.
    { systemId: SYSTEM_IDS.auth, onDialogClose: { type: 'auth.confirmMail.close' } },
  ],
};
