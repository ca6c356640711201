/**
 * /admin-panel/engines/inferences (§2 admin child "engines (with inferences …)"; §3 Job; §4 job states):
 * every user's inference jobs, newest first, read-only: job, application, owner, device and camera, state and
 * the engine error the device reported; search, state filter, keyset paging.
 * Test ids: admin-inferences-screen, admin-inferences-table, admin-inference-row.
 */
import { Badge, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SYSTEM_IDS } from '../../../../../machines/systemIds';
import '../i18n';
import { useAdminRef, useInferencesView } from '../selectors';
import { AdminNav, ListError, ListTable, Pager, useKeysetList, useTimeFormat } from './parts';

const STATES = ['created', 'deploying', 'started', 'error', 'stopped'] as const;
const COLORS: Record<string, string> = {
  started: 'green',
  error: 'red',
  deploying: 'blue',
  stopped: 'gray',
  created: 'gray',
};

export default function InferencesScreen() {
  const { t } = useTranslation();
  const ref = useAdminRef(SYSTEM_IDS.adminInferences);
  const view = useInferencesView();
  const time = useTimeFormat();
  const [search, setSearch] = useKeysetList(ref, view);
  const stateText = (s: string) =>
    (STATES as readonly string[]).includes(s) ? t(`admin.inferences.states.${s}`) : s;

  return (
    <Stack gap="md" data-testid="admin-inferences-screen">
      <AdminNav />
      <Title order={1}>{t('admin.inferences.title')}</Title>
      <Text size="sm">{t('admin.inferences.intro')}</Text>
      <Group align="end" wrap="wrap">
        <TextInput
          label={t('admin.list.search')}
          placeholder={t('admin.inferences.searchPlaceholder')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <Select
          label={t('admin.inferences.state')}
          value={view.query.state ?? ''}
          onChange={(v) => ref.send({ type: 'list.query', patch: { state: v ?? '' } })}
          data={[
            { value: '', label: t('admin.list.any') },
            ...STATES.map((s) => ({ value: s, label: stateText(s) })),
          ]}
          allowDeselect={false}
        />
      </Group>
      <ListError view={view} onRetry={() => ref.send({ type: 'list.refresh' })} />
      <ListTable
        view={view}
        testId="admin-inferences-table"
        headers={[
          t('admin.inferences.job'),
          t('admin.inferences.application'),
          t('admin.inferences.owner'),
          t('admin.inferences.device'),
          t('admin.inferences.state'),
          t('admin.inferences.created'),
        ]}
      >
        {view.rows.map((j) => (
          <Table.Tr key={j.id} data-testid="admin-inference-row">
            <Table.Td>{j.job_name}</Table.Td>
            <Table.Td>{j.application_name}</Table.Td>
            <Table.Td>{j.owner_email}</Table.Td>
            <Table.Td>
              <Text size="sm">{j.device_label}</Text>
              {j.camera_label && (
                <Text size="xs" c="dimmed">
                  {t('admin.inferences.camera')}: {j.camera_label}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Badge color={COLORS[j.state] ?? 'gray'} variant="light">
                {stateText(j.state)}
              </Badge>
              {j.error && (
                <Text size="xs" c="red.9">
                  {t('admin.inferences.error')}: {j.error}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{time(j.created_at)}</Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <Pager
        view={view}
        onPage={(cursor) => ref.send({ type: 'list.page', cursor })}
        testId="admin-inferences"
      />
    </Stack>
  );
}
