/**
 * /logs (§2 auth route; issue 16 "Logs"): pick a connected device, then its log in the viewer (topic,
 * subtopic, count, follow/pause/stop, search, download). The chosen device is the registry's
 * currentDeviceId (§3 Log info). With no device connected, a link to the devices. A device whose link closes
 * while its log is shown stays chosen (issue 15): the viewer then says the follow ended because the device went
 * offline, instead of vanishing with the log.
 * Test ids: logs-screen, logs-device, logs-no-device (+ the viewer's).
 */
import { Alert, Anchor, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
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
  // The device of the page's open log (ended or not), kept shown when its link is gone.
  const logDevice = useSelector(
    logs,
    (s: LogsSnapshot) => s.context.logs.find((l) => l.id === 'page')?.deviceId ?? null,
  );
  const names = useRef(new Map<string, string>());
  for (const d of devices) names.current.set(d.deviceId, d.name);
  const gone =
    current && current === logDevice && !devices.some((d) => d.deviceId === current)
      ? { deviceId: current, name: names.current.get(current) ?? current }
      : undefined;
  const choices = gone ? [...devices, gone] : devices;
  const device = choices.find((d) => d.deviceId === current) ?? devices[0];

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
            data={choices.map((d) => ({ value: d.deviceId, label: d.name }))}
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
