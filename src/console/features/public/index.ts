/**
 * The public pages (spec §2 /contact and /policies/*, readable signed in or out; §6 "signed-out users see only
 * public pages"; issue 13): the contact form (stored and mailed by the server) and the five policy pages. The
 * external redirects /docs, /blog, /admin stay in the route table (routes/table.ts EXTERNALS); the server
 * redirects them itself when DOCS_URL, BLOG_URL, ADMIN_SITE_URL are set (src/server/routes/public.ts).
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';
import { setPublicHttp } from './http';

export const publicPages: ConsoleFeature = {
  name: 'public',
  routes: {
    contact: lazyScreen(() => import('./screens/ContactScreen')),
    policy: lazyScreen(() => import('./screens/PolicyScreen')),
  },
  provide: ({ http }) => {
    setPublicHttp(http);
    return {};
  },
};
