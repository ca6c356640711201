/**
 * The session side of the REST transport's token rule (§4 "Token_expired: one retry after refreshing the
 * access token", §9 "Token refresh retried once"): an `AuthBridge` (platform/http.ts) over the auth actor.
 */
import { waitFor, type ActorRefFrom } from 'xstate';
import type { authMachine } from '../../../../machines/accounts/auth.machine';
import { API_ERROR_CODES } from '../../../protocol/errors';
import { ApiRequestError, type AuthBridge } from '../../platform/http';

/** What the bridge needs from the auth actor. */
export type AuthActorLike = ActorRefFrom<typeof authMachine>;

/**
 * An AuthBridge over the auth actor. `refreshToken` sends `auth.tokenExpired` and waits until auth is
 * `signedIn.active` with a different token (resolves with it) or signed out (rejects). A token that was
 * already replaced resolves at once with the current one, so a request that lost a race does not refresh
 * twice.
 */
export function createAuthBridge(getAuth: () => AuthActorLike): AuthBridge {
  let inFlight: Promise<string> | null = null;
  const sessionEnded = () => new ApiRequestError('Please login again', API_ERROR_CODES.invalidToken, 401);
  return {
    getToken: () => getAuth().getSnapshot().context.token,
    refreshToken(expiredToken) {
      const auth = getAuth();
      const now = auth.getSnapshot();
      if (!now.matches('signedIn')) return Promise.reject(sessionEnded());
      if (now.matches({ signedIn: 'active' }) && now.context.token && now.context.token !== expiredToken) {
        return Promise.resolve(now.context.token);
      }
      if (!inFlight) {
        inFlight = (async () => {
          try {
            auth.send({ type: 'auth.tokenExpired' });
            const settled = await waitFor(
              auth,
              (s) =>
                !s.matches('signedIn') ||
                (s.matches({ signedIn: 'active' }) && s.context.token !== expiredToken),
            );
            if (!settled.matches('signedIn') || !settled.context.token) throw sessionEnded();
            return settled.context.token;
          } finally {
            inFlight = null;
          }
        })();
      }
      return inFlight;
    },
    rejectSession() {
      getAuth().send({ type: 'auth.tokenRejected' });
    },
  };
}
