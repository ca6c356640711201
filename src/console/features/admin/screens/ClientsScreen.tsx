/**
 * /admin-panel/clients (§2 admin child "clients"; issue 13 "clients (devices of every user, online state)"):
 * every user's devices with owner, online state (signalling presence, as the device list shows it), client
 * version, platform and last seen; search, online/offline filter, keyset paging.
 * Test ids: admin-clients-screen, admin-clients-table, admin-client-row-<device_id>, admin-clients-search.
 */
import { Badge, Group, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SYSTEM_IDS } from '../../../../../machines/systemIds';
import '../i18n';
import { useAdminRef, useClientsView } from '../selectors';
import { AdminNav, ListError, ListTable, Pager, useKeysetList, useTimeFormat } from './parts';

export default function ClientsScreen() {
  const { t } = useTranslation();
  const ref = useAdminRef(SYSTEM_IDS.adminClients);
  const view = useClientsView();
  const time = useTimeFormat();
  const [search, setSearch] = useKeysetList(ref, view);

  return (
    <Stack gap="md" data-testid="admin-clients-screen">
      <AdminNav />
      <Title order={1}>{t('admin.clients.title')}</Title>
      <Text size="sm">{t('admin.clients.intro')}</Text>
      <Group align="end" wrap="wrap">
        <TextInput
          label={t('admin.list.search')}
          placeholder={t('admin.clients.searchPlaceholder')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-testid="admin-clients-search"
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="admin-clients-state">
            {t('admin.clients.state')}
          </Text>
          <SegmentedControl
            aria-labelledby="admin-clients-state"
            value={view.query.state ?? 'all'}
            onChange={(v) => ref.send({ type: 'list.query', patch: { state: v } })}
            data={[
              { value: 'all', label: t('admin.clients.stateAll') },
              { value: 'online', label: t('admin.clients.online') },
              { value: 'offline', label: t('admin.clients.offline') },
            ]}
          />
        </Stack>
        <Text size="sm" data-testid="admin-clients-online">
          {t('admin.clients.onlineCount', { count: view.extra.online ?? 0 })}
        </Text>
      </Group>
      <ListError view={view} onRetry={() => ref.send({ type: 'list.refresh' })} />
      <ListTable
        view={view}
        testId="admin-clients-table"
        headers={[
          t('admin.clients.device'),
          t('admin.clients.owner'),
          t('admin.clients.state'),
          t('admin.clients.version'),
          t('admin.clients.platform'),
          t('admin.clients.lastSeen'),
        ]}
      >
        {view.rows.map((c) => (
          <Table.Tr key={c.id} data-testid={`admin-client-row-${c.device_id}`}>
            <Table.Td>
              <Text size="sm">{c.label}</Text>
              <Text size="xs" c="dimmed">
                {c.client_name || c.device_id}
              </Text>
            </Table.Td>
            <Table.Td>{c.owner.email}</Table.Td>
            <Table.Td>
              <Badge color={c.online ? 'green' : 'gray'} variant="light">
                {c.online ? t('admin.clients.online') : t('admin.clients.offline')}
              </Badge>
            </Table.Td>
            <Table.Td>{c.client_version ?? t('admin.clients.unknown')}</Table.Td>
            <Table.Td>
              {c.chipset_id === '0'
                ? t('admin.clients.x86')
                : t('admin.clients.jetson', { jetpack: c.jetpack ?? '?' })}
            </Table.Td>
            <Table.Td>{c.last_seen ? time(c.last_seen) : t('admin.clients.never')}</Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <Pager
        view={view}
        onPage={(cursor) => ref.send({ type: 'list.page', cursor })}
        testId="admin-clients"
      />
    </Stack>
  );
}
