/**
 * The router: the route table of spec §2 (routes/table.ts) turned into react-router route objects,
 * rendered with `useRoutes` under a <BrowserRouter> (the declarative router ships far less JavaScript than
 * the data router, and no screen needs loaders).
 * One guard (RouteGuard) sits above every layout; each feature gives its screens (features/<feature>/index.ts
 * `routes`, lazy chunks) so /login ships little JavaScript (the signed-in shell, the device and camera
 * screens load only when visited).
 */
import { Navigate, useRoutes, type RouteObject } from 'react-router-dom';
import { Suspense } from 'react';
import { ErrorBoundary } from '../shell/ErrorBoundary';
import { AdaptiveLayout } from '../shell/AdaptiveLayout';
import { AuthFreeLayout } from '../shell/AuthFreeLayout';
import { MainLayoutLazy } from '../shell/MainLayoutLazy';
import { RootShell } from '../shell/RootShell';
import { RouteFallback } from '../shell/RouteFallback';
import { ComingLater } from '../shell/ComingLater';
import { FeatureReady } from '../shell/FeatureReady';
import type { FeatureScreen } from '../features/feature';
import { FEATURES } from '../system';
import { Expired, NotFound } from '../shell/NotFound';
import { RouteGuard } from './RouteGuard';
import { NOT_FOUND_PATH } from './guard';
import { ROUTES, type RouteEntry, type RouteLayout } from './table';

/** The features' screens by route-table `screen` key, with the feature whose actors must run first. */
const SCREENS: Record<string, { Screen: FeatureScreen; lazyFeature: string | null }> = Object.assign(
  {},
  ...FEATURES.map((f) =>
    Object.fromEntries(
      Object.entries(f.routes ?? {}).map(([key, Screen]) => [
        key,
        { Screen, lazyFeature: f.loadActors ? f.name : null },
      ]),
    ),
  ),
);

function screenFor(entry: RouteEntry) {
  switch (entry.screen) {
    case 'notFound':
      return <NotFound />;
    case 'expired':
      return <Expired />;
    case 'later':
      return <ComingLater entry={entry} />;
  }
  const found = SCREENS[entry.screen];
  // A route whose feature is not in the list yet: the "coming later" page, never a blank one.
  if (!found) return <ComingLater entry={entry} />;
  const { Screen, lazyFeature } = found;
  return lazyFeature ? (
    <FeatureReady feature={lazyFeature}>
      <Screen entry={entry} />
    </FeatureReady>
  ) : (
    <Screen entry={entry} />
  );
}

function routesOf(layout: RouteLayout): RouteObject[] {
  return ROUTES.filter((r) => r.layout === layout).map((r) => ({
    path: r.path,
    element: screenFor(r),
    ...(r.name ? { id: r.name } : {}),
  }));
}

/** The route objects (exported for inspection; <ConsoleRoutes> renders them). */
export const routeObjects: RouteObject[] = [
  {
    element: <RootShell />,
    children: [
      {
        element: <RouteGuard />,
        children: [
          {
            element: (
              <Suspense fallback={<RouteFallback />}>
                <MainLayoutLazy />
              </Suspense>
            ),
            children: routesOf('main'),
          },
          { element: <AuthFreeLayout />, children: routesOf('authFree') },
          { element: <AdaptiveLayout />, children: routesOf('adaptive') },
          // Redirect-only paths (/, /profile, …) and unknown paths: the guard decides before this renders.
          { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> },
        ],
      },
    ],
  },
];

/** The routed console; must sit inside a <BrowserRouter>. A render error shows a message, never a blank page. */
export function ConsoleRoutes() {
  return <ErrorBoundary>{useRoutes(routeObjects)}</ErrorBoundary>;
}
