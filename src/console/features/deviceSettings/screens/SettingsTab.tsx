/**
 * The device page's Settings tab (`/control-panel/devices?device={id}&tab=settings`, order 30; spec §7 "Client
 * and settings", "Settings changes"): the client actions (restart client engine, restart FRP client, force
 * refresh, connect CIE, each confirmed) and one form per settings section, once the feature's actors run and
 * the device is connected. Test id: settings-tab.
 */
import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { INFO_TYPES } from '../../../../../machines/deviceSettings/settingsChecks';
import { FeatureReady } from '../../../shell/FeatureReady';
import '../i18n';
import { useConnectedLabel, useSettingsRef } from '../selectors';
import { ClientActions } from './ClientActions';
import { SettingsSection } from './SettingsSection';

function Tab({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const settings = useSettingsRef();
  const label = useConnectedLabel(deviceId);
  const connected = label !== null;
  useEffect(() => {
    if (connected) settings.send({ type: 'settings.open', deviceId });
  }, [settings, deviceId, connected]);
  if (!connected) {
    return (
      <Alert color="yellow" data-testid="settings-not-connected">
        <Text size="sm">{t('deviceSettings.notConnected')}</Text>
        <Anchor component={Link} to="/control-panel/devices" size="sm">
          {t('deviceSettings.goToDevices')}
        </Anchor>
      </Alert>
    );
  }
  return (
    <Stack gap="md">
      <Title order={2}>{t('deviceSettings.title')}</Title>
      <ClientActions deviceId={deviceId} deviceName={label} />
      {INFO_TYPES.map((infoType) => (
        <SettingsSection key={infoType} deviceId={deviceId} infoType={infoType} />
      ))}
    </Stack>
  );
}

export default function SettingsTab({ deviceId }: { deviceId: string }) {
  return (
    <div data-testid="settings-tab">
      <FeatureReady feature="deviceSettings">
        <Tab deviceId={deviceId} />
      </FeatureReady>
    </div>
  );
}
