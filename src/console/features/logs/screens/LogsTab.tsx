/**
 * The device page's Logs tab (`/control-panel/devices?device={id}&tab=logs`, order 20): the log viewer of
 * that one device, once the feature's actors run. Test id: logs-tab (+ the viewer's).
 */
import { useTranslation } from 'react-i18next';
import { Text } from '@mantine/core';
import { FeatureReady } from '../../../shell/FeatureReady';
import '../i18n';
import { useLogDevices } from '../selectors';
import { LogViewer } from './LogViewer';

function Tab({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const device = useLogDevices().find((d) => d.deviceId === deviceId);
  if (!device) return <Text size="sm">{t('logs.noDevice')}</Text>;
  return <LogViewer viewerId={`tab-${deviceId}`} deviceId={deviceId} deviceName={device.name} />;
}

export default function LogsTab({ deviceId }: { deviceId: string }) {
  return (
    <div data-testid="logs-tab">
      <FeatureReady feature="logs">
        <Tab deviceId={deviceId} />
      </FeatureReady>
    </div>
  );
}
