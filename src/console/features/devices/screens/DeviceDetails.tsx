/**
 * Details of the device named by `?device={id}` (§2 log-warning link): the listed fields (§3 Device) and,
 * while connected, what the device reports about itself.
 */
import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Device } from '../../../../protocol/rest';
import type { Resource } from '../../../i18n/en';
import { localeOf } from '../../../i18n/language';
import { deviceType, formatMemoryMb } from '../format';
import { useConnectionStatus, useDeviceConnectionRef, useLiveMetrics } from '../selectors';
import { LiveMetricsLine } from './LiveMetricsLine';

export function DeviceDetails({ device }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const connection = useDeviceConnectionRef(device.device_id);
  const state = useConnectionStatus(connection);
  const m = useLiveMetrics(connection);
  const locale = localeOf(i18n.language);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const facts: Array<[keyof Resource['devices']['facts'], string]> = [
    ['deviceId', device.device_id],
    ['label', device.label],
    ['type', deviceType(device.chipset_id)],
    ['client', device.client_name],
    ['clientVersion', m.clientVersion ?? device.client_version ?? '–'],
    ['jetpack', device.jetpack ?? '–'],
    ['created', new Date(device.created_at).toLocaleString(locale)],
    ['connection', t(`connection.${state}`)],
    ['memory', formatMemoryMb(m.memoryUsedMb, m.memoryTotalMb)],
    ['temperature', m.temperatureC === null ? '–' : `${number.format(m.temperatureC)} °C`],
    ['uptime', m.uptimeS === null ? '–' : t('devices.minutes', { n: number.format(m.uptimeS / 60) })],
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
                {t(`devices.facts.${k}`)}:
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
