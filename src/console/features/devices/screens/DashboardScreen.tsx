/**
 * /dashboard — overview: device counts (total and online, from the devices table; connected, from the
 * device pool), links to devices and cameras, and the live health and usage of every connected device.
 */
import { Link } from 'react-router-dom';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { connectionColour } from '../format';
import {
  useConnectedDeviceIds,
  useConnectionDevice,
  useConnectionRefs,
  useConnectionStatus,
  useDevicesTableView,
  useDevicesTableVisit,
  type DeviceConnectionRef,
} from '../selectors';
import { LiveMetricsLine } from './LiveMetricsLine';

export default function DashboardScreen() {
  const { t } = useTranslation();
  const { totalItems, activeDevicesCount } = useDevicesTableView();
  const connectedCount = useConnectedDeviceIds().length;
  const connections = useConnectionRefs();

  useDevicesTableVisit();

  return (
    <Stack gap="lg">
      <Title order={1}>{t('dashboard.title')}</Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Stat label={t('dashboard.totalDevices')} value={totalItems} testId="stat-total" />
        <Stat label={t('dashboard.onlineDevices')} value={activeDevicesCount} testId="stat-online" />
        <Stat label={t('dashboard.connectedDevices')} value={connectedCount} testId="stat-connected" />
      </SimpleGrid>
      <Group>
        <Button component={Link} to="/control-panel/devices">
          {t('dashboard.openDevices')}
        </Button>
        <Button component={Link} to="/control-panel/cameras" variant="light">
          {t('dashboard.openCameras')}
        </Button>
      </Group>
      <section aria-labelledby="live-title">
        <Title order={2} size="h4" id="live-title" mb="sm">
          {t('dashboard.liveTitle')}
        </Title>
        {connections.length === 0 ? (
          <Text c="dimmed">{t('dashboard.noneConnected')}</Text>
        ) : (
          <Stack gap="xs">
            {connections.map((ref) => (
              <ConnectedDevice key={ref.id} connection={ref} />
            ))}
          </Stack>
        )}
      </section>
    </Stack>
  );
}

function Stat({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Paper withBorder p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}

function ConnectedDevice({ connection }: { connection: DeviceConnectionRef }) {
  const { t } = useTranslation();
  const device = useConnectionDevice(connection);
  const state = useConnectionStatus(connection);
  return (
    <Paper withBorder p="sm" data-testid={`dashboard-device-${device.device_id}`}>
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <Text fw={500}>{device.label}</Text>
          <Badge color={connectionColour(state)} variant="light">
            {t(`connection.${state}`)}
          </Badge>
        </Group>
        {state === 'open' && <LiveMetricsLine connection={connection} />}
      </Group>
    </Paper>
  );
}
