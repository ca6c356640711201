/**
 * /profile/storage-data-usage (spec §2 Profile; issue 13 "bytes stored per user"): the total, the bytes per
 * kind (model files, profile picture) as a table, and the bytes stored at the end of each of the last 30 days
 * as a chart with the same numbers in a table (the accessible alternative). Real rows: GET usage/storage.
 * Test ids: storage-screen, storage-total (data-bytes), storage-chart, storage-categories, storage-days.
 */
import { Alert, Button, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PROFILE_IDS } from '../../../../../machines/profile/ids';
import type { StorageUsage } from '../../../../protocol/profile';
import '../i18n';
import { useProfileRef, useReportView } from '../selectors';
import { storageSeriesOf } from '../views';
import { formatBytes, useFormats } from './format';
import { ProfilePage } from './ProfileNav';
import { UsageChart } from './UsageChart';

export default function StorageUsageScreen() {
  const { t } = useTranslation();
  const ref = useProfileRef(PROFILE_IDS.storage);
  const view = useReportView<StorageUsage>(PROFILE_IDS.storage);
  const f = useFormats();
  useEffect(() => {
    ref.send({ type: 'report.load' });
  }, [ref]);
  const u = view.data;
  const [days, bytes] = u ? storageSeriesOf(u) : [[], []];
  return (
    <ProfilePage title={t('profile.storage.title')} testId="storage-screen">
      <Text size="sm">{t('profile.storage.intro')}</Text>
      {view.state === 'failed' && (
        <Alert color="red" role="alert">
          {t('profile.failed', { error: view.error })}
        </Alert>
      )}
      {!u ? (
        view.state !== 'failed' && (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">{t('profile.loading')}</Text>
          </Group>
        )
      ) : (
        <>
          <Group justify="space-between">
            <Text fw={600} data-testid="storage-total" data-bytes={u.total_bytes}>
              {t('profile.storage.total', { size: formatBytes(u.total_bytes) })}
            </Text>
            <Button
              size="xs"
              variant="default"
              loading={view.busy}
              onClick={() => ref.send({ type: 'report.load' })}
            >
              {t('profile.refresh')}
            </Button>
          </Group>
          <Table aria-label={t('profile.storage.category')} data-testid="storage-categories" maw={560}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('profile.storage.category')}</Table.Th>
                <Table.Th scope="col">{t('profile.storage.files')}</Table.Th>
                <Table.Th scope="col">{t('profile.storage.size')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {u.categories.map((c) => (
                <Table.Tr
                  key={c.category}
                  data-testid={`storage-category-${c.category}`}
                  data-bytes={c.bytes}
                >
                  <Table.Td>{t(`profile.storage.${c.category}`)}</Table.Td>
                  <Table.Td>{c.files}</Table.Td>
                  <Table.Td>{formatBytes(c.bytes)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <UsageChart
            testId="storage-chart"
            title={t('profile.storage.chartTitle')}
            label={t('profile.storage.chartLabel')}
            days={days}
            series={[{ label: t('profile.storage.size'), color: '#1c7ed6', values: bytes }]}
          />
          <Paper withBorder p="sm">
            <Stack gap="xs">
              <Title order={2} size="h5">
                {t('profile.storage.tableDays')}
              </Title>
              <Table.ScrollContainer minWidth={320} mah={260}>
                <Table aria-label={t('profile.storage.tableDays')} data-testid="storage-days">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">{t('profile.storage.day')}</Table.Th>
                      <Table.Th scope="col">{t('profile.storage.size')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {[...u.history].reverse().map((h) => (
                      <Table.Tr key={h.day}>
                        <Table.Td>{f.day(h.day)}</Table.Td>
                        <Table.Td>{formatBytes(h.bytes)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Stack>
          </Paper>
          <Text size="xs">{t('profile.storage.note')}</Text>
        </>
      )}
    </ProfilePage>
  );
}
