/** Suspense fallback for lazy screens: marks a route chunk as loading (the top progress bar shows). */
import { useRouteLoading } from './routeLoading';

export function RouteFallback() {
  useRouteLoading();
  return null;
}
