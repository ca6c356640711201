/**
 * The root shell's top progress bar (§2 "a progress bar"): an indeterminate strip shown while auth is
 * busy, a route chunk arrives, or (signed in) an actor a feature lists in `busy` has the tag `busy` (the
 * devices table loading).
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import { useSession } from '../features/accounts/selectors';
import { FEATURES } from '../system';
import { useAnyRouteLoading } from './routeLoading';
import { useSystem } from './SystemProvider';

/** systemIds whose `busy` tag shows the bar, from every feature (a fixed list). */
const BUSY_SYSTEM_IDS: readonly string[] = FEATURES.flatMap((f) => f.busy ?? []);

/** Whether any running actor of BUSY_SYSTEM_IDS has the tag `busy`; actors not running count as idle. */
function useFeaturesBusy(): boolean {
  const system = useSystem();
  const refs = useMemo(
    () =>
      BUSY_SYSTEM_IDS.map((id) => system.system.get(id) as AnyActorRef | undefined).filter(
        (r): r is AnyActorRef => r !== undefined,
      ),
    [system],
  );
  const subscribe = useCallback(
    (onChange: () => void) => {
      const subs = refs.map((r) => r.subscribe(onChange));
      return () => subs.forEach((s) => s.unsubscribe());
    },
    [refs],
  );
  const busy = () => refs.some((r) => r.getSnapshot().hasTag?.('busy') === true);
  return useSyncExternalStore(subscribe, busy, busy);
}

export function ProgressBar() {
  const { t } = useTranslation();
  const session = useSession();
  const featuresBusy = useFeaturesBusy();
  const routeLoading = useAnyRouteLoading();
  const visible = session.busy || routeLoading || (session.signedIn && featuresBusy);
  return (
    <div
      className="top-progress"
      data-visible={visible}
      data-testid="top-progress"
      role="progressbar"
      aria-label={t('app.loading')}
      aria-hidden={!visible}
      aria-busy={visible}
    >
      <div className="top-progress__bar" />
    </div>
  );
}
