/**
 * Live health and usage of one connected device (§3 live data: cpu; gpus with utilisation and memory
 * used/total; plus the ping round trip). Subscribes to that device's connection actor only.
 */
import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMemoryMb, formatPercent, formatRtt } from '../format';
import { useLiveMetrics, type DeviceConnectionRef } from '../selectors';

export function LiveMetricsLine({
  connection,
  testId,
}: {
  connection: DeviceConnectionRef | undefined;
  testId?: string;
}) {
  const { t } = useTranslation();
  const m = useLiveMetrics(connection);
  return (
    <Group gap="md" wrap="nowrap" data-testid={testId}>
      <Metric label={t('devices.cpu')} value={formatPercent(m.cpuPercent)} name="cpu" />
      <Metric label={t('devices.gpu')} value={formatPercent(m.gpuPercent)} name="gpu" />
      <Metric
        label={t('devices.gpuMemory')}
        value={formatMemoryMb(m.gpuMemoryUsedMb, m.gpuMemoryTotalMb)}
        name="gpu-memory"
      />
      <Metric label={t('devices.rtt')} value={formatRtt(m.rttMs)} name="rtt" />
    </Group>
  );
}

function Metric({ label, value, name }: { label: string; value: string; name: string }) {
  return (
    <Text size="xs" component="span" data-metric={name} style={{ whiteSpace: 'nowrap' }}>
      <Text span c="dimmed" size="xs">
        {label}
      </Text>{' '}
      {value}
    </Text>
  );
}
