/**
 * The router: the route table of spec §2 (routes/table.ts) turned into a react-router data router.
 * One guard (RouteGuard) sits above every layout; screens are lazy chunks so /login ships little
 * JavaScript (the signed-in shell, the device and camera screens load only when visited).
 */
import { Navigate, createBrowserRouter, useRouteError, type RouteObject } from 'react-router-dom';
import { Alert, Container } from '@mantine/core';
import { Suspense } from 'react';
import { AdaptiveLayout } from '../shell/AdaptiveLayout';
import { AuthFreeLayout } from '../shell/AuthFreeLayout';
import { MainLayoutLazy } from '../shell/MainLayoutLazy';
import { RootShell } from '../shell/RootShell';
import { RouteFallback } from '../shell/RouteFallback';
import { lazyScreen } from '../shell/lazyScreen';
import { ComingLater } from '../screens/misc/ComingLater';
import { Expired, NotFound } from '../screens/misc/NotFound';
import { RouteGuard } from './RouteGuard';
import { NOT_FOUND_PATH } from './guard';
import { ROUTES, type RouteEntry, type RouteLayout } from './table';

const LoginScreen = lazyScreen(() => import('../screens/login/LoginScreen'));
const DashboardScreen = lazyScreen(() => import('../screens/dashboard/DashboardScreen'));
const DevicesScreen = lazyScreen(() => import('../screens/devices/DevicesScreen'));
const CamerasScreen = lazyScreen(() => import('../screens/cameras/CamerasScreen'));

function screenFor(entry: RouteEntry) {
  switch (entry.screen) {
    case 'login':
      return <LoginScreen />;
    case 'dashboard':
      return <DashboardScreen />;
    case 'devices':
      return <DevicesScreen />;
    case 'cameras':
      return <CamerasScreen />;
    case 'notFound':
      return <NotFound />;
    case 'expired':
      return <Expired />;
    case 'later':
      return <ComingLater entry={entry} />;
  }
}

function routesOf(layout: RouteLayout): RouteObject[] {
  return ROUTES.filter((r) => r.layout === layout).map((r) => ({
    path: r.path,
    element: screenFor(r),
    ...(r.name ? { id: r.name } : {}),
  }));
}

/** Shown when rendering a route throws: the message, never a blank page. */
function RouteError() {
  const error = useRouteError();
  return (
    <Container py="xl">
      <Alert color="red" title="Something went wrong" role="alert">
        {error instanceof Error ? error.message : String(error)}
      </Alert>
    </Container>
  );
}

/** The route objects (exported for inspection; `createConsoleRouter` builds the browser router). */
export const routeObjects: RouteObject[] = [
  {
    element: <RootShell />,
    errorElement: <RouteError />,
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

export function createConsoleRouter() {
  return createBrowserRouter(routeObjects);
}
