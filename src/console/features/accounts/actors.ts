/**
 * The accounts feature's side effects: the auth machine's actors and actions (REST login, logout and
 * refresh; the stored session) — machines/accounts/auth.machine.ts.
 */
import { fromPromise } from 'xstate';
import { authMachine } from '../../../../machines/accounts/auth.machine';
import { twoFactorMachine } from '../../../../machines/accounts/twoFactor.machine';
import { resolveLanguage } from '../../i18n/language';
import i18n from '../../i18n';
import { setAccountsHttp } from './httpRef';
import type { Platform, SystemActors } from '../feature';
import { accountsApi } from './api';
import { parseDemoAccount } from './validation';
import { rotatedElsewhere } from './sharedSession';
import { API_BASE } from '../../../protocol/constants';

export function provideAccounts({ http, session }: Platform): Pick<SystemActors, 'auth'> {
  const api = accountsApi(http);
  setAccountsHttp(http);
  // The second sign-in step's calls load with zod on first use (not on /login's first paint).
  const flows = () => import('./flowsApi').then((m) => m.accountFlowsApi(http));
  const twoFactor = twoFactorMachine.provide({
    actors: {
      verify: fromPromise(async ({ input }) => (await flows()).verifyTwoFactor(input.challenge, input.code)),
      resend: fromPromise(async ({ input }) =>
        (await flows()).resendVerifyCode(input.challenge, resolveLanguage(i18n.language)),
      ),
    },
  });
  return {
    auth: authMachine.provide({
      actors: {
        restoreSession: fromPromise(async () => {
          const stored = session.read();
          if (!stored || stored.user) return stored;
          // Tokens without the user: ask the server once; a refused token is dealt with by the next request.
          const user = await api.userInfo(stored.token).catch(() => null);
          if (user) session.write({ ...stored, user });
          return { ...stored, user };
        }),
        login: fromPromise(async ({ input }) => api.login(input)),
        // A plain fetch, checked by hand: the route table (zod) is not loaded on /login for this.
        loadDemoAccount: fromPromise(async ({ signal }) => {
          const res = await fetch(`${API_BASE}demo-account`, {
            signal,
            headers: { Accept: 'application/json' },
          });
          const account = res.ok ? parseDemoAccount(await res.json()) : null;
          return account?.enabled ? { email: account.email, password: account.password } : null;
        }),
        // Another tab may have rotated the shared refresh token already: take its pair (sharedSession.ts).
        refreshToken: fromPromise(async ({ input }) => {
          const before = rotatedElsewhere(session.read(), input.refreshToken);
          if (before) return before;
          try {
            return await api.refreshAccessToken(input.refreshToken);
          } catch (err) {
            // Two tabs refreshed at once and the other won: its pair is stored by now.
            const after = rotatedElsewhere(session.read(), input.refreshToken);
            if (after) return after;
            throw err;
          }
        }),
        logout: fromPromise(async ({ input }) => {
          await api.logout(input.token).catch(() => undefined);
        }),
        twoFactor,
      },
      actions: {
        persistSession: (_, params) => session.write(params),
        clearSession: () => session.clear(),
      },
    }),
  };
}
