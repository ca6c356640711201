/**
 * The root shell's top progress bar (§2 "a progress bar"): an indeterminate strip shown while auth is
 * busy, the devices table loads, or a route chunk arrives.
 */
import { useTranslation } from 'react-i18next';
import { useDevicesTableLoading } from '../features/devices/selectors';
import { useSession } from '../features/accounts/selectors';
import { useAnyRouteLoading } from './routeLoading';

export function ProgressBar() {
  const { t } = useTranslation();
  const session = useSession();
  const tableLoading = useDevicesTableLoading();
  const routeLoading = useAnyRouteLoading();
  const visible = session.busy || routeLoading || (session.signedIn && tableLoading);
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
