/**
 * Layout of routes that anyone may read (policies, environment-detail): the signed-in shell when signed
 * in, the auth-free layout otherwise.
 */
import { Suspense } from 'react';
import { useSession } from '../features/accounts/selectors';
import { AuthFreeLayout } from './AuthFreeLayout';
import { MainLayoutLazy } from './MainLayoutLazy';
import { RouteFallback } from './RouteFallback';

export function AdaptiveLayout() {
  const { signedIn } = useSession();
  if (!signedIn) return <AuthFreeLayout />;
  return (
    <Suspense fallback={<RouteFallback />}>
      <MainLayoutLazy />
    </Suspense>
  );
}
