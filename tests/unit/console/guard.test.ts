import { describe, expect, it } from 'vitest';
import {
  afterLoginTarget,
  decideGuard,
  eventsRedirect,
  loginRedirect,
} from '../../../src/console/routes/guard';
import { ROUTES, findRoute, matchPattern, routeByName } from '../../../src/console/routes/table';

const links = { docs: '/docs-site/', blog: '/blog-site/', admin: '/admin-site/#/users' };
const signedOut = { signedIn: false, isAdmin: false };
const user = { signedIn: true, isAdmin: false };
const admin = { signedIn: true, isAdmin: true };

describe('route guard (spec §2 guards, §6 roles)', () => {
  it('sends / to /dashboard', () => {
    expect(decideGuard('/', user, links)).toEqual({ kind: 'redirect', to: '/dashboard' });
  });

  it('sends a signed-out visitor on an auth route to /login, remembering where they were going', () => {
    expect(decideGuard('/control-panel/devices?device=dev-1', signedOut, links)).toEqual({
      kind: 'redirect',
      to: '/login?next=%2Fcontrol-panel%2Fdevices%3Fdevice%3Ddev-1',
    });
  });

  it('sends a signed-out visitor on /dashboard to a plain /login', () => {
    expect(decideGuard('/dashboard', signedOut, links)).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('renders auth routes for a signed-in user', () => {
    expect(decideGuard('/dashboard', user, links)).toBeNull();
    expect(decideGuard('/control-panel/cameras', user, links)).toBeNull();
    expect(decideGuard('/repositories/my-model', user, links)).toBeNull();
    expect(decideGuard('/analytics/dashboard/42', user, links)).toBeNull();
  });

  it('sends a signed-in user away from /login to /dashboard', () => {
    expect(decideGuard('/login', user, links)).toEqual({ kind: 'redirect', to: '/dashboard' });
  });

  it('returns a user who just signed in to the page they were going to', () => {
    expect(decideGuard('/login?next=%2Fcontrol-panel%2Fcameras', user, links)).toEqual({
      kind: 'redirect',
      to: '/control-panel/cameras',
    });
  });

  it('keeps /success and /verification-code for signed-out visitors only', () => {
    expect(decideGuard('/success', signedOut, links)).toBeNull();
    expect(decideGuard('/verification-code', user, links)).toEqual({ kind: 'redirect', to: '/dashboard' });
  });

  it('sends a non-admin on an admin route to /', () => {
    expect(decideGuard('/admin-panel/clients', user, links)).toEqual({ kind: 'redirect', to: '/' });
  });

  it('lets an admin into the admin panel, starting at dockers', () => {
    expect(decideGuard('/admin-panel', admin, links)).toEqual({
      kind: 'redirect',
      to: '/admin-panel/dockers',
    });
    expect(decideGuard('/admin-panel/dockers', admin, links)).toBeNull();
    expect(decideGuard('/admin-panel/engines/engine-backends', admin, links)).toBeNull();
  });

  it('sends a signed-out visitor on an admin route to /login', () => {
    expect(decideGuard('/admin-panel/licences', signedOut, links)).toMatchObject({
      to: expect.stringMatching(/^\/login/),
    });
  });

  it('redirects /profile and /policies to their first child', () => {
    expect(decideGuard('/profile', user, links)).toEqual({
      kind: 'redirect',
      to: '/profile/personal-information',
    });
    expect(decideGuard('/policies', signedOut, links)).toEqual({
      kind: 'redirect',
      to: '/policies/privacy-policy',
    });
  });

  it('shows environment-detail and the policies without sign-in', () => {
    expect(decideGuard('/environment-detail/env-7', signedOut, links)).toBeNull();
    expect(decideGuard('/policies/terms-conditions', signedOut, links)).toBeNull();
  });

  it('leaves the app for /docs, /blog and the admin site', () => {
    expect(decideGuard('/docs', user, links)).toEqual({ kind: 'external', href: '/docs-site/' });
    expect(decideGuard('/blog', signedOut, links)).toEqual({ kind: 'external', href: '/blog-site/' });
    expect(decideGuard('/admin', admin, links)).toEqual({ kind: 'external', href: '/admin-site/#/users' });
  });

  it('sends unknown paths to /404', () => {
    expect(decideGuard('/no/such/page', user, links)).toEqual({ kind: 'redirect', to: '/404' });
    expect(decideGuard('/404', signedOut, links)).toBeNull();
  });

  it('waits instead of redirecting while the stored session is restoring', () => {
    expect(decideGuard('/dashboard', { ...signedOut, restoring: true }, links)).toEqual({ kind: 'wait' });
    expect(decideGuard('/login', { ...signedOut, restoring: true }, links)).toEqual({ kind: 'wait' });
  });

  it('treats a trailing slash like the bare path', () => {
    expect(decideGuard('/dashboard/', user, links)).toBeNull();
  });
});

describe('the "events" URL rule (spec §2)', () => {
  it('sends any path containing "events" to /events', () => {
    expect(eventsRedirect('/alarm/events/12')).toBe('/events');
    expect(decideGuard('/my-events', user, links)).toEqual({ kind: 'redirect', to: '/events' });
  });

  it('leaves /events itself alone', () => {
    expect(eventsRedirect('/events')).toBeNull();
    expect(decideGuard('/events', user, links)).toBeNull();
  });

  it('sends a signed-out visitor from /events to /login without looping back through the query', () => {
    const first = decideGuard('/events', signedOut, links);
    expect(first).toEqual({ kind: 'redirect', to: '/login?next=%2Fevents' });
    expect(decideGuard('/login?next=%2Fevents', signedOut, links)).toBeNull();
  });
});

describe('return after login', () => {
  it('accepts only in-app paths', () => {
    expect(afterLoginTarget('?next=%2Fjobs')).toBe('/jobs');
    expect(afterLoginTarget('?next=https%3A%2F%2Fevil.example')).toBe('/dashboard');
    expect(afterLoginTarget('?next=%2F%2Fevil.example')).toBe('/dashboard');
    expect(afterLoginTarget('?next=%2Flogin')).toBe('/dashboard');
    expect(afterLoginTarget('')).toBe('/dashboard');
  });

  it('builds the login URL with the path and its query', () => {
    expect(loginRedirect('/jobs?x=1')).toBe('/login?next=%2Fjobs%3Fx%3D1');
  });
});

describe('route table (spec §2)', () => {
  it('names the camera page cameraPage', () => {
    expect(routeByName('cameraPage')?.path).toBe('/control-panel/cameras');
  });

  it('has no duplicate paths', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('matches optional parameters of stream-detail', () => {
    expect(findRoute('/stream-detail')?.title).toBe('Stream detail');
    expect(findRoute('/stream-detail/cam-1/abc')?.title).toBe('Stream detail');
    expect(matchPattern('/stream-detail/:cameraID?/:data?', '/stream-detail/cam-1')).toEqual({
      cameraID: 'cam-1',
    });
  });

  it('prefers the literal containers/details route over containers/:alias', () => {
    expect(findRoute('/containers/details/env-1')?.title).toBe('Environment details');
    expect(findRoute('/containers/jupyter')?.title).toBe('Environment');
  });
});
