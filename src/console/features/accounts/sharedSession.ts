/**
 * Tabs of one browser share the stored session (§3 "Stored settings": tokens in local storage), but each holds
 * its own copy in memory. Refresh tokens rotate on use, and presenting a rotated-away one again ends the whole
 * session on the server (src/server/auth/sessions.ts, refresh-token reuse). So before — and after a refused —
 * refresh, a tab takes the pair another tab already stored for the same user.
 */
import type { RefreshedTokens, StoredSession } from '../../../../machines/accounts/auth.machine';

/** The `sub` claim (user id) of a JWT, read without checking it (the server checks); null when unreadable. */
export function subjectOf(jwt: string | null | undefined): string | null {
  const payload = jwt?.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' && sub !== '' ? sub : null;
  } catch {
    return null;
  }
}

/**
 * The stored pair when another tab rotated the refresh token this tab presents (`presented`), for the same
 * user; null when the store holds this tab's own token, nothing, or another user's session.
 */
export function rotatedElsewhere(
  stored: StoredSession | null,
  presented: string | null,
): RefreshedTokens | null {
  if (!stored || !presented || stored.refreshToken === presented) return null;
  const user = subjectOf(presented);
  if (!user || subjectOf(stored.refreshToken) !== user) return null;
  return { token: stored.token, refreshToken: stored.refreshToken };
}
