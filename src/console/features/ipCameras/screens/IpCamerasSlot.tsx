/**
 * The header slot of the ipCameras feature: on the camera page (/control-panel/cameras) an "IP cameras…" button
 * that opens the manager (screens/IpCamerasManager.tsx); nothing elsewhere.
 */
import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router-dom';
import { Button } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import '../i18n';
import { useIpCamerasRef } from '../selectors';

const IpCamerasManager = lazy(() => import('./IpCamerasManager'));

/** The camera page's path. */
export const CAMERAS_PATH = '/control-panel/cameras';

export default function IpCamerasSlot() {
  const { pathname } = useLocation();
  const { t } = useTranslation();
  const ref = useIpCamerasRef();
  const open = useSelector(ref, (s) => s.matches('open'));
  if (pathname !== CAMERAS_PATH && !open) return null;
  return (
    <>
      {pathname === CAMERAS_PATH ? (
        <Button
          size="xs"
          variant="default"
          onClick={() => ref.send({ type: 'ipc.open' })}
          data-testid="ip-cameras-manage"
        >
          {t('ipCameras.manage')}
        </Button>
      ) : null}
      {open ? (
        <Suspense fallback={null}>
          <IpCamerasManager />
        </Suspense>
      ) : null}
    </>
  );
}
