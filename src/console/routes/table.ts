/**
 * The route table of spec §2 ("Screens and routes"), as data. Pure: no React, no DOM, so the guard logic
 * (guard.ts) and its unit tests read the same table the router (router.tsx) is built from.
 *
 * - access: who may see the route (§2 guards, §6 roles).
 *   'auth' = signed in; 'admin' = signed in with role admin; 'signedOutOnly' = signed-out visitors only;
 *   'public' = anyone.
 * - layout: 'main' = the signed-in shell (header, sidebar); 'authFree' = the centred auth-free layout;
 *   'adaptive' = main when signed in, auth-free otherwise (the policies, which the login form links to).
 * - screen: which screen renders it: a key of a feature's `routes` (features/<feature>/index.ts), or one of
 *   the shell's own: 'notFound', 'expired', 'later' (a screen a later issue builds; it renders a page that
 *   names the screen and links back, never a blank page).
 */

export type RouteAccess = 'auth' | 'admin' | 'signedOutOnly' | 'public';
export type RouteLayout = 'main' | 'authFree' | 'adaptive';
/** The shell's own screens; every other key names a feature's screen. */
export type ShellScreenKey = 'notFound' | 'expired' | 'later';
export type ScreenKey = ShellScreenKey | (string & {});

/** One routed screen. `path` uses react-router syntax: ':param' and ':param?' (optional) segments. */
export interface RouteEntry {
  path: string;
  /** Human title (English; translated through i18n key `routes.{path}` when available). */
  title: string;
  access: RouteAccess;
  layout: RouteLayout;
  screen: ScreenKey;
  /** Spec route name where §2 gives one (e.g. 'cameraPage', 'environment-detail'). */
  name?: string;
}

/** A path that only redirects to another in-app path (§2). */
export interface RedirectEntry {
  from: string;
  to: string;
}

/** §2 External redirects: /docs, /blog, /admin (to the separate admin site at #/users). */
export type ExternalLinkKey = 'docs' | 'blog' | 'admin';
export interface ExternalEntry {
  path: string;
  link: ExternalLinkKey;
}

/** §2 redirects inside the app. */
export const REDIRECTS: readonly RedirectEntry[] = [
  { from: '/', to: '/dashboard' },
  { from: '/profile', to: '/profile/personal-information' },
  { from: '/admin-panel', to: '/admin-panel/dockers' },
  { from: '/policies', to: '/policies/privacy-policy' },
];

/** §2 external redirects; targets come from config.ts EXTERNAL_LINKS. */
export const EXTERNALS: readonly ExternalEntry[] = [
  { path: '/docs', link: 'docs' },
  { path: '/blog', link: 'blog' },
  { path: '/admin', link: 'admin' },
];

/** Every routed screen of §2. */
export const ROUTES: readonly RouteEntry[] = [
  // Main layout, auth (§2 "Auth routes").
  { path: '/dashboard', title: 'Dashboard', access: 'auth', layout: 'main', screen: 'dashboard' },
  { path: '/jobs', title: 'Jobs', access: 'auth', layout: 'main', screen: 'jobs' }, // inference
  { path: '/logs', title: 'Logs', access: 'auth', layout: 'main', screen: 'logs' },
  { path: '/map', title: 'Map', access: 'auth', layout: 'main', screen: 'map' },
  { path: '/repositories', title: 'Repositories', access: 'auth', layout: 'main', screen: 'repositories' },
  { path: '/models-beta', title: 'Models (beta)', access: 'auth', layout: 'main', screen: 'models' },
  { path: '/control-panel/records', title: 'Records', access: 'auth', layout: 'main', screen: 'records' },
  {
    path: '/control-panel/devices',
    title: 'Devices',
    access: 'auth',
    layout: 'main',
    screen: 'devices',
  },
  {
    path: '/control-panel/devices/ssh-install',
    title: 'Add a device over SSH',
    access: 'auth',
    layout: 'main',
    screen: 'sshInstall',
  },
  {
    path: '/control-panel/engines',
    title: 'Inference engines',
    access: 'auth',
    layout: 'main',
    screen: 'engines',
  },
  {
    path: '/control-panel/containers',
    title: 'Containers',
    access: 'auth',
    layout: 'main',
    screen: 'containers',
  },
  {
    path: '/control-panel/cameras',
    title: 'Cameras',
    access: 'auth',
    layout: 'main',
    screen: 'cameras',
    name: 'cameraPage',
  },
  {
    path: '/control-panel/cameras-dev',
    title: 'Cameras (development)',
    access: 'auth',
    layout: 'main',
    screen: 'camerasDev',
  },
  { path: '/alarms', title: 'Alarms', access: 'auth', layout: 'main', screen: 'alarms' },
  {
    path: '/alarm-channels',
    title: 'Alarm channels',
    access: 'auth',
    layout: 'main',
    screen: 'alarmChannels',
  },
  { path: '/checkout', title: 'Checkout', access: 'auth', layout: 'main', screen: 'checkout' },
  // §2 "Further routes".
  {
    path: '/repositories/:alias',
    title: 'Repository tags',
    access: 'auth',
    layout: 'main',
    screen: 'repositoryTags',
  },
  { path: '/models', title: 'Models', access: 'auth', layout: 'main', screen: 'models' },
  // §2 stream-detail takes cameraID and data; the stream data travels as a route parameter:
  // /stream-detail/{camera_id}/{base64url JSON { deviceId, cameraId }} (features/cameras/streamRoute.ts).
  {
    path: '/raw-stream-detail/:cameraID?/:data?',
    title: 'Raw stream detail',
    access: 'auth',
    layout: 'main',
    screen: 'rawStreamDetail',
  },
  {
    path: '/stream-detail/:cameraID?/:data?',
    title: 'Stream detail',
    access: 'auth',
    layout: 'main',
    screen: 'streamDetail',
  },
  { path: '/applications', title: 'Applications', access: 'auth', layout: 'main', screen: 'applications' },
  { path: '/schedulers', title: 'Schedulers', access: 'auth', layout: 'main', screen: 'schedulers' },
  { path: '/containers', title: 'Environments', access: 'auth', layout: 'main', screen: 'environments' },
  { path: '/containers/:alias', title: 'Environment', access: 'auth', layout: 'main', screen: 'environment' },
  {
    path: '/containers/details/:envId',
    title: 'Environment details',
    access: 'auth',
    layout: 'main',
    screen: 'containerDetails',
  },
  {
    path: '/alarm-dashboard',
    title: 'Alarm dashboard',
    access: 'auth',
    layout: 'main',
    screen: 'alarmDashboard',
  },
  { path: '/events', title: 'Events', access: 'auth', layout: 'main', screen: 'events' },
  { path: '/face-alarms', title: 'Face alarms', access: 'auth', layout: 'main', screen: 'faceAlarms' },
  { path: '/download', title: 'Download', access: 'auth', layout: 'main', screen: 'download' },
  {
    path: '/remote-downloads',
    title: 'Remote downloads',
    access: 'auth',
    layout: 'main',
    screen: 'remoteDownloads',
  },
  {
    path: '/speed_application',
    title: 'Speed application',
    access: 'auth',
    layout: 'main',
    screen: 'speedApplication',
  },
  {
    path: '/ai-platform',
    title: 'AI platform',
    access: 'auth',
    layout: 'main',
    screen: 'aiPlatform',
  },
  {
    path: '/blacklist-faces',
    title: 'Blacklist faces',
    access: 'auth',
    layout: 'main',
    screen: 'blacklistFaces',
  },
  {
    path: '/nanoowl',
    title: 'NanoOWL',
    access: 'auth',
    layout: 'main',
    screen: 'nanoowl',
  },
  {
    path: '/llava',
    title: 'LLaVA',
    access: 'auth',
    layout: 'main',
    screen: 'llava',
  },
  {
    path: '/ibb',
    title: 'IBB',
    access: 'auth',
    layout: 'main',
    screen: 'ibb',
  },
  { path: '/llm-models', title: 'LLM models', access: 'auth', layout: 'main', screen: 'models' },
  { path: '/pricing', title: 'Pricing', access: 'public', layout: 'adaptive', screen: 'pricing' },
  { path: '/contact', title: 'Contact', access: 'public', layout: 'adaptive', screen: 'contact' },
  // §2 Use cases.
  {
    path: '/use-cases/vehicle-plate-detection',
    title: 'Vehicle plate detection',
    access: 'auth',
    layout: 'main',
    screen: 'vehiclePlates',
  },
  {
    path: '/use-cases/demographic',
    title: 'Demographic',
    access: 'auth',
    layout: 'main',
    screen: 'demographic',
  },
  {
    path: '/use-cases/person-counter',
    title: 'Person counter',
    access: 'auth',
    layout: 'main',
    screen: 'personCounter',
  },
  {
    path: '/use-cases/person-counter/analytics',
    title: 'Person counter analytics',
    access: 'auth',
    layout: 'main',
    screen: 'personCounterAnalytics',
  },
  // §2 Analytics.
  {
    path: '/analytics/dashboard-collections-manager',
    title: 'Dashboard collections',
    access: 'auth',
    layout: 'main',
    screen: 'analyticsCollections',
  },
  {
    path: '/analytics/dashboard-collection/:id',
    title: 'Dashboard collection',
    access: 'auth',
    layout: 'main',
    screen: 'analyticsCollection',
  },
  {
    path: '/analytics/dashboard/:id',
    title: 'Analytics dashboard',
    access: 'auth',
    layout: 'main',
    screen: 'analyticsDashboard',
  },
  // §2 Profile (/profile → /profile/personal-information).
  {
    path: '/profile/personal-information',
    title: 'Personal information',
    access: 'auth',
    layout: 'main',
    screen: 'personalInformation',
  },
  {
    path: '/profile/my-licences',
    title: 'My licences',
    access: 'auth',
    layout: 'main',
    screen: 'myLicences',
  },
  {
    path: '/profile/storage-data-usage',
    title: 'Storage data usage',
    access: 'auth',
    layout: 'main',
    screen: 'storageUsage',
  },
  {
    path: '/profile/network-data-usage',
    title: 'Network data usage',
    access: 'auth',
    layout: 'main',
    screen: 'networkUsage',
  },
  {
    path: '/profile/keys-secrets',
    title: 'Keys and secrets',
    access: 'auth',
    layout: 'main',
    screen: 'keysSecrets',
  },
  {
    path: '/profile/stream-management',
    title: 'Stream management',
    access: 'auth',
    layout: 'main',
    screen: 'streamManagement',
  },
  {
    path: '/profile/account-information',
    title: 'Account information',
    access: 'auth',
    layout: 'main',
    screen: 'accountInformation',
  },
  // §2 §6 Admin panel: role admin (/admin-panel → /admin-panel/dockers).
  {
    path: '/admin-panel/dockers',
    title: 'Admin: dockers',
    access: 'admin',
    layout: 'main',
    screen: 'adminDockers',
  },
  {
    path: '/admin-panel/users',
    title: 'Admin: users',
    access: 'admin',
    layout: 'main',
    screen: 'adminUsers',
  },
  {
    path: '/admin-panel/clients',
    title: 'Admin: clients',
    access: 'admin',
    layout: 'main',
    screen: 'adminClients',
  },
  {
    path: '/admin-panel/engines',
    title: 'Admin: engines',
    access: 'admin',
    layout: 'main',
    screen: 'adminEngines',
  },
  {
    path: '/admin-panel/engines/inferences',
    title: 'Admin: inferences',
    access: 'admin',
    layout: 'main',
    screen: 'adminInferences',
  },
  {
    path: '/admin-panel/engines/engine-backends',
    title: 'Admin: engine back-ends',
    access: 'admin',
    layout: 'main',
    screen: 'adminEngineBackends',
  },
  {
    path: '/admin-panel/audit-log',
    title: 'Admin: audit log',
    access: 'admin',
    layout: 'main',
    screen: 'adminAuditLog',
  },
  {
    path: '/admin-panel/licences',
    title: 'Admin: licences',
    access: 'admin',
    layout: 'main',
    screen: 'adminLicences',
  },
  // §2 Policies (/policies → privacy-policy): readable signed in or out (the login form links the terms).
  ...(
    [
      ['privacy-policy', 'Privacy policy'],
      ['cookie-policy', 'Cookie policy'],
      ['terms-conditions', 'Terms and conditions'],
      ['user-guidelines', 'User guidelines'],
      ['legal-guidelines', 'Legal guidelines'],
    ] as const
  ).map(([slug, title]): RouteEntry => ({
    path: `/policies/${slug}`,
    title,
    access: 'public',
    layout: 'adaptive',
    screen: 'policy',
  })),
  // §2 "A named route environment-detail stays reachable without login" (§6 exempt from the forced redirect).
  {
    path: '/environment-detail/:envId?',
    title: 'Environment detail',
    access: 'public',
    layout: 'adaptive',
    screen: 'environmentDetail',
    name: 'environment-detail',
  },
  // §2 signed-out only.
  { path: '/success', title: 'Success', access: 'signedOutOnly', layout: 'authFree', screen: 'success' },
  {
    path: '/verification-code',
    title: 'Verification code',
    access: 'signedOutOnly',
    layout: 'authFree',
    screen: 'verificationCode',
  },
  // §2 Auth-free layout.
  { path: '/login', title: 'Sign in', access: 'signedOutOnly', layout: 'authFree', screen: 'login' },
  { path: '/register', title: 'Register', access: 'public', layout: 'authFree', screen: 'register' },
  {
    path: '/forgot-password',
    title: 'Forgot password',
    access: 'public',
    layout: 'authFree',
    screen: 'forgotPassword',
  },
  {
    path: '/forgot-password/:token',
    title: 'Reset password',
    access: 'public',
    layout: 'authFree',
    screen: 'resetPassword',
  },
  {
    path: '/success-register',
    title: 'Registration complete',
    access: 'public',
    layout: 'authFree',
    screen: 'successRegister',
  },
  {
    path: '/confirm-mail/:token',
    title: 'Confirm e-mail',
    access: 'public',
    layout: 'authFree',
    screen: 'confirmMail',
  },
  // Issue 13: the development mailbox (admins; the embedded SMTP catcher's mail).
  { path: '/dev/mailbox', title: 'Mailbox', access: 'admin', layout: 'main', screen: 'mailbox' },
  { path: '/404', title: 'Page not found', access: 'public', layout: 'authFree', screen: 'notFound' },
  { path: '/expired', title: 'Session expired', access: 'public', layout: 'authFree', screen: 'expired' },
];

/** Normalises a pathname: leading slash, no trailing slash (except the root), no duplicate slashes. */
export function normalisePath(pathname: string): string {
  const cleaned = ('/' + pathname).replace(/\/{2,}/g, '/');
  return cleaned.length > 1 ? cleaned.replace(/\/+$/, '') : cleaned;
}

/**
 * Matches a pathname against a pattern with ':param' and ':param?' segments (react-router syntax).
 * Returns the params, or null when it does not match.
 */
export function matchPattern(pattern: string, pathname: string): Record<string, string> | null {
  const want = normalisePath(pattern).split('/').filter(Boolean);
  const have = normalisePath(pathname).split('/').filter(Boolean);
  const params: Record<string, string> = {};
  let i = 0;
  for (const seg of want) {
    const optional = seg.endsWith('?');
    const name = optional ? seg.slice(0, -1) : seg;
    const value = have[i];
    if (value === undefined) {
      if (optional) continue;
      return null;
    }
    if (name.startsWith(':')) {
      params[name.slice(1)] = safeDecode(value);
      i += 1;
    } else if (name === value) {
      i += 1;
    } else if (!optional) {
      return null;
    }
  }
  return i === have.length ? params : null;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The route entry for a pathname, or undefined when the path is unknown (§2: unknown → /404). */
export function findRoute(pathname: string): RouteEntry | undefined {
  return ROUTES.find((r) => matchPattern(r.path, pathname) !== null);
}

/** Route entry by spec route name (e.g. 'cameraPage'). */
export function routeByName(name: string): RouteEntry | undefined {
  return ROUTES.find((r) => r.name === name);
}
