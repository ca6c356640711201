/**
 * Route guards of spec §2 ("Guards and global behaviour") and §6 (roles), as one pure decision function.
 * The router's single guard component (RouteGuard.tsx) asks it on every location change and follows the
 * answer; the unit tests ask it directly.
 */
import { EXTERNALS, REDIRECTS, findRoute, normalisePath, type ExternalLinkKey } from './table';

/** What the guard knows about the session. */
export interface GuardSession {
  signedIn: boolean;
  isAdmin: boolean;
  /** Auth is still restoring a stored session: no decision about sign-in yet. */
  restoring?: boolean;
}

/**
 * The guard's answer:
 * - null: render the route;
 * - redirect: replace the location with `to` (an in-app path, possibly with a query);
 * - external: leave the app for `href` (§2 /docs, /blog, /admin);
 * - wait: the session is still restoring; show progress and ask again.
 */
export type GuardDecision =
  null | { kind: 'redirect'; to: string } | { kind: 'external'; href: string } | { kind: 'wait' };

/** Query parameter on /login that remembers where a signed-out visitor was going. */
export const NEXT_PARAM = 'next';
export const LOGIN_PATH = '/login';
export const HOME_PATH = '/dashboard';
export const NOT_FOUND_PATH = '/404';
export const EVENTS_PATH = '/events';

/**
 * §2 "If the page URL contains 'events' the app goes to /events." Only the pathname is tested: the query
 * can hold an encoded return path (…?next=%2Fevents) and testing it would loop between /login and /events.
 */
export function eventsRedirect(pathname: string): string | null {
  const path = normalisePath(pathname);
  return path !== EVENTS_PATH && path.toLowerCase().includes('events') ? EVENTS_PATH : null;
}

/**
 * Where to go after sign-in: the remembered `next` path when it is a safe in-app path (starts with one '/',
 * is not the login page itself), else /dashboard.
 */
export function afterLoginTarget(search: string): string {
  const next = new URLSearchParams(search).get(NEXT_PARAM);
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return HOME_PATH;
  const nextPath = normalisePath(next.split(/[?#]/)[0] ?? '/');
  if (nextPath === LOGIN_PATH || nextPath === '/') return HOME_PATH;
  return next;
}

/** The /login URL that remembers `pathWithSearch` (§2: return there after login). */
export function loginRedirect(pathWithSearch: string): string {
  const path = normalisePath(pathWithSearch.split(/[?#]/)[0] ?? '/');
  if (path === '/' || path === HOME_PATH) return LOGIN_PATH;
  return `${LOGIN_PATH}?${NEXT_PARAM}=${encodeURIComponent(pathWithSearch)}`;
}

/**
 * Decides what to do with a location (§2 guards, §6 roles).
 * @param location pathname with optional search, e.g. '/control-panel/devices?device=dev-1'
 * @param session  sign-in and role facts from the auth actor
 * @param links    external targets for /docs, /blog, /admin (config.ts EXTERNAL_LINKS)
 */
export function decideGuard(
  location: string,
  session: GuardSession,
  links: Record<ExternalLinkKey, string>,
): GuardDecision {
  const qIndex = location.search(/[?#]/);
  const rawPath = qIndex >= 0 ? location.slice(0, qIndex) : location;
  const search = qIndex >= 0 && location[qIndex] === '?' ? location.slice(qIndex).split('#')[0]! : '';
  const path = normalisePath(rawPath);

  const events = eventsRedirect(path);
  if (events) return { kind: 'redirect', to: events };

  const external = EXTERNALS.find((e) => e.path === path);
  if (external) return { kind: 'external', href: links[external.link] };

  const redirect = REDIRECTS.find((r) => r.from === path);
  if (redirect) return { kind: 'redirect', to: redirect.to };

  const route = findRoute(path);
  if (!route) return { kind: 'redirect', to: NOT_FOUND_PATH };
  if (route.access === 'public') return null;
  if (session.restoring) return { kind: 'wait' };

  switch (route.access) {
    case 'signedOutOnly':
      if (!session.signedIn) return null;
      return { kind: 'redirect', to: path === LOGIN_PATH ? afterLoginTarget(search) : HOME_PATH };
    case 'auth':
      return session.signedIn ? null : { kind: 'redirect', to: loginRedirect(path + search) };
    case 'admin':
      if (!session.signedIn) return { kind: 'redirect', to: loginRedirect(path + search) };
      return session.isAdmin ? null : { kind: 'redirect', to: '/' };
  }
}
