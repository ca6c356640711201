/**
 * Details of the device named by `?device={id}` (§2 log-warning link): the listed fields (§3 Device) and,
 * while connected, what the device reports about itself.
 */
import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Device } from '../../../../protocol/rest';
import { deviceType, formatMemoryMb } from '../format';
import { useConnectionStatus, useDeviceConnectionRef, useLiveMetrics } from '../selectors';
import { LiveMetricsLine } from './LiveMetricsLine';

export function DeviceDetails({ device }: { device: Device }) {
  const { t } = useTranslation();
  const connection = useDeviceConnectionRef(device.device_id);
  const state = useConnectionStatus(connection);
  const m = useLiveMetrics(connection);
  const facts: Array<[string, string]> = [
    ['Device id', device.device_id],
    ['Label', device.label],
    ['Type', deviceType(device.chipset_id)],
    ['Client', device.client_name],
    ['Client version', m.clientVersion ?? device.client_version ?? '–'],
    ['JetPack', device.jetpack ?? '–'],
    ['Created', new Date(device.created_at).toLocaleString()],
    ['Connection', t(`connection.${state}`)],
    ['Memory', formatMemoryMb(m.memoryUsedMb, m.memoryTotalMb)],
    ['Temperature', m.temperatureC === null ? '–' : `${Math.round(m.temperatureC)} °C`],
    ['Uptime', m.uptimeS === null ? '–' : `${Math.round(m.uptimeS / 60)} min`],
  ];
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby="device-details-title"
      data-testid="device-details"
    >
      <Stack gap="sm">
        <Title order={2} id="device-details-title" size="h4">
          {t('devices.details')}: {device.label}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="xs">
          {facts.map(([k, v]) => (
            <Text key={k} size="sm">
              <Text span c="dimmed" size="sm">
                {k}:
              </Text>{' '}
              {v}
            </Text>
          ))}
        </SimpleGrid>
        {state === 'open' && <LiveMetricsLine connection={connection} />}
        {m.error && (
          <Text c="red" size="sm">
            {m.error}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
