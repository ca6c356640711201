/**
 * The header slot of the SSH install feature: on the device list (/control-panel/devices) an "Add device over
 * SSH" link to /control-panel/devices/ssh-install; everywhere, while an install is in its installing state, the
 * §2 unload warning "SSH installing process is running. Would you like to continue?" (beforeunload).
 */
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import '../i18n';
import { useSshInstallsRef } from '../selectors';

export const DEVICES_PATH = '/control-panel/devices';
export const SSH_INSTALL_PATH = '/control-panel/devices/ssh-install';

export default function SshInstallSlot() {
  const { pathname, search } = useLocation();
  const { t } = useTranslation();
  const ref = useSshInstallsRef();
  const installing = useSelector(ref, (s) => s.context.installing.length > 0);
  useEffect(() => {
    if (!installing) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Browsers show their own text; older ones show this one (§2).
      e.returnValue = t('sshInstall.texts.unloadWarning');
      return e.returnValue;
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [installing, t]);
  if (pathname !== DEVICES_PATH || search.includes('device=')) return null;
  return (
    <Button component={Link} to={SSH_INSTALL_PATH} size="xs" variant="default" data-testid="ssh-install-add">
      {t('sshInstall.add')}
    </Button>
  );
}
