/**
 * The device page's Remote desktop tab (§1 "control a remote desktop"): what it is, whether the device's link
 * is open (§5: the device must be connected), and the button that opens the desktop in the stream modal.
 *
 * Test ids: remote-desktop-tab, remote-desktop-open, remote-desktop-not-connected.
 */
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { FeatureReady } from '../../../shell/FeatureReady';
import { useConnectionView, useDeviceConnectionRef } from '../../devices/selectors';
import '../i18n';
import { useRemoteDesktopRef } from '../selectors';

export default function RemoteDesktopTab({ deviceId }: { deviceId: string }) {
  return (
    <FeatureReady feature="remoteDesktop">
      <Tab deviceId={deviceId} />
    </FeatureReady>
  );
}

function Tab({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const desktop = useRemoteDesktopRef();
  const connection = useDeviceConnectionRef(deviceId);
  const link = useConnectionView(connection);
  const label = useSelector(connection, (s) => s?.context.device.label) ?? deviceId;
  const open = link.status === 'open';
  return (
    <Stack gap="md" data-testid="remote-desktop-tab">
      <Title order={2}>{t('remoteDesktop.title')}</Title>
      <Text>{t('remoteDesktop.intro', { device: label })}</Text>
      {!open && (
        <Alert color="yellow" role="status" data-testid="remote-desktop-not-connected">
          {t('remoteDesktop.notConnected')}
        </Alert>
      )}
      <div>
        <Button
          disabled={!open}
          data-testid="remote-desktop-open"
          onClick={() => desktop.send({ type: 'desktop.open', deviceId, label })}
        >
          {t('remoteDesktop.open')}
        </Button>
      </div>
    </Stack>
  );
}
