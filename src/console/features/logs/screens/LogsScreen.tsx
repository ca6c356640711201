/**
 * /logs (§2 auth route; issue 16 "Logs"): pick a connected device, then its log in the viewer (topic,
 * subtopic, count, follow/pause/stop, search, download). The chosen device is the registry's
 * currentDeviceId (§3 Log info). With no device connected, a link to the devices.
 * Test ids: logs-screen, logs-device, logs-no-device (+ the viewer's).
 */
import { Alert, Anchor, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import '../i18n';
import { useLogDevices, useLogsRef, type LogsSnapshot } from '../selectors';
import { LogViewer } from './LogViewer';

export default function LogsScreen() {
  const { t } = useTranslation();
  const logs = useLogsRef();
  const devices = useLogDevices();
  const current = useSelector(logs, (s: LogsSnapshot) => s.context.currentDeviceId);
  const device = devices.find((d) => d.deviceId === current) ?? devices[0];

  useEffect(() => {
    if (device && device.deviceId !== current) logs.send({ type: 'logs.select', deviceId: device.deviceId });
  }, [device, current, logs]);

  return (
    <Stack gap="md" data-testid="logs-screen">
      <Title order={1}>{t('logs.title')}</Title>
      {!device ? (
        <Alert color="blue" data-testid="logs-no-device" title={t('logs.title')}>
          <Text size="sm">{t('logs.noDevice')}</Text>
          <Anchor component={Link} to="/control-panel/devices" size="sm">
            {t('logs.connectDevices')}
          </Anchor>
        </Alert>
      ) : (
        <>
          <NativeSelect
            label={t('logs.device')}
            data-testid="logs-device"
            w={320}
            value={device.deviceId}
            onChange={(e) => logs.send({ type: 'logs.select', deviceId: e.currentTarget.value })}
            data={devices.map((d) => ({ value: d.deviceId, label: d.name }))}
          />
          <LogViewer
            key={device.deviceId}
            viewerId="page"
            deviceId={device.deviceId}
            deviceName={device.name}
          />
        </>
      )}
    </Stack>
  );
}
