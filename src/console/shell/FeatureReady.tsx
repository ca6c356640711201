/**
 * Shows its children once the feature's lazily loaded actors run (ConsoleFeature.loadActors,
 * shell/featureLoader.ts); until then the route's loading bar (RouteFallback). Asks the root for the feature
 * when it is not loading yet (a public screen visited signed out).
 */
import { useSelector } from '@xstate/react';
import { useEffect, type ReactNode } from 'react';
import { RouteFallback } from './RouteFallback';
import { useSystem } from './SystemProvider';

export function FeatureReady({
  feature,
  children,
  fallback = <RouteFallback />,
}: {
  feature: string;
  children: ReactNode;
  /** Shown until the actors run (default the route's loading bar; slots show nothing). */
  fallback?: ReactNode;
}) {
  const system = useSystem();
  const ready = useSelector(system, (s) => s.context.loaded.includes(feature));
  useEffect(() => {
    if (!ready) system.send({ type: 'system.features.want', name: feature });
  }, [ready, system, feature]);
  return ready ? children : fallback;
}
