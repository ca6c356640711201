/**
 * /profile/network-data-usage (spec §2 Profile; issue 13 "bytes relayed per device through the tunnel/TURN,
 * per day"): bytes relayed through the server's reverse tunnel over the last 30 days as a chart (from and to
 * devices, all devices summed per day) and a table per day and device (the accessible alternative). TURN is
 * not run here and camera video is peer to peer: the page says so instead of showing numbers it has not got.
 * Test ids: network-screen, network-total (data-from, data-to), network-chart, network-table, network-turn.
 */
import { Alert, Button, Group, Loader, Table, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PROFILE_IDS } from '../../../../../machines/profile/ids';
import type { NetworkUsage } from '../../../../protocol/profile';
import '../i18n';
import { useProfileRef, useReportView } from '../selectors';
import { networkDaysOf, networkRowsOf, networkSeriesOf } from '../views';
import { formatBytes, useFormats } from './format';
import { ProfilePage } from './ProfileNav';
import { UsageChart } from './UsageChart';

export default function NetworkUsageScreen() {
  const { t } = useTranslation();
  const ref = useProfileRef(PROFILE_IDS.network);
  const view = useReportView<NetworkUsage>(PROFILE_IDS.network);
  const f = useFormats();
  useEffect(() => {
    ref.send({ type: 'report.load' });
  }, [ref]);
  const n = view.data;
  const days = n ? networkDaysOf(n) : [];
  const [xs, from, to] = networkSeriesOf(days);
  const totalFrom = from.reduce((a, b) => a + b, 0);
  const totalTo = to.reduce((a, b) => a + b, 0);
  const rows = n ? networkRowsOf(n) : [];
  return (
    <ProfilePage title={t('profile.network.title')} testId="network-screen">
      <Text size="sm">{t('profile.network.intro')}</Text>
      <Alert color="blue" data-testid="network-turn">
        <Text size="sm">{t('profile.network.turn')}</Text>
      </Alert>
      {view.state === 'failed' && (
        <Alert color="red" role="alert">
          {t('profile.failed', { error: view.error })}
        </Alert>
      )}
      {!n ? (
        view.state !== 'failed' && (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">{t('profile.loading')}</Text>
          </Group>
        )
      ) : (
        <>
          <Group justify="space-between">
            <Text fw={600} data-testid="network-total" data-from={totalFrom} data-to={totalTo}>
              {t('profile.network.total', {
                days: n.days,
                from: formatBytes(totalFrom),
                to: formatBytes(totalTo),
              })}
            </Text>
            <Button
              size="xs"
              variant="default"
              loading={view.busy}
              onClick={() => ref.send({ type: 'report.load' })}
              data-testid="network-refresh"
            >
              {t('profile.refresh')}
            </Button>
          </Group>
          <UsageChart
            testId="network-chart"
            title={t('profile.network.chartTitle')}
            label={t('profile.network.chartLabel')}
            days={xs}
            series={[
              { label: t('profile.network.fromDevice'), color: '#1c7ed6', values: from },
              { label: t('profile.network.toDevice'), color: '#e8590c', values: to },
            ]}
          />
          <Text size="xs">{t('profile.network.counted')}</Text>
          {rows.length === 0 ? (
            <Text size="sm">{t('profile.network.none')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={480}>
              <Table striped aria-label={t('profile.network.chartTitle')} data-testid="network-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('profile.network.day')}</Table.Th>
                    <Table.Th scope="col">{t('profile.network.device')}</Table.Th>
                    <Table.Th scope="col">{t('profile.network.fromDevice')}</Table.Th>
                    <Table.Th scope="col">{t('profile.network.toDevice')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={`${r.day}-${r.device_id}`} data-testid={`network-row-${r.device_id}`}>
                      <Table.Td>{f.day(r.day)}</Table.Td>
                      <Table.Td>{r.label}</Table.Td>
                      <Table.Td>{formatBytes(r.bytes_from_device)}</Table.Td>
                      <Table.Td>{formatBytes(r.bytes_to_device)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}
    </ProfilePage>
  );
}
