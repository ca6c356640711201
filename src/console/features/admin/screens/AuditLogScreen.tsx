/**
 * /admin-panel/audit-log (issue 13 "Every admin action is written to an audit log that admins can read"):
 * newest first, filtered by admin (email contains), action and a time window, keyset-paged.
 * Test ids: admin-audit-screen, admin-audit-table, admin-audit-row (one per entry, data-action).
 */
import { Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SYSTEM_IDS } from '../../../../../machines/systemIds';
import { AUDIT_ACTIONS } from '../../../../protocol/admin';
import '../i18n';
import { detailsText, useAdminRef, useAuditView } from '../selectors';
import { AdminNav, ListError, ListTable, Pager, useTimeFormat } from './parts';

const EMPTY = { actor: '', action: '', from: '', to: '' };

export default function AuditLogScreen() {
  const { t } = useTranslation();
  const ref = useAdminRef(SYSTEM_IDS.adminAudit);
  const view = useAuditView();
  const time = useTimeFormat();
  const [filter, setFilter] = useState({ ...EMPTY, ...view.query });
  useEffect(() => {
    ref.send({ type: 'list.load' });
  }, [ref]);
  const apply = (f: typeof filter) => ref.send({ type: 'list.query', patch: f });

  return (
    <Stack gap="md" data-testid="admin-audit-screen">
      <AdminNav />
      <Title order={1}>{t('admin.audit.title')}</Title>
      <Text size="sm">{t('admin.audit.intro')}</Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          apply(filter);
        }}
      >
        <Group align="end" wrap="wrap">
          <TextInput
            label={t('admin.audit.actor')}
            placeholder={t('admin.audit.actorPlaceholder')}
            value={filter.actor}
            onChange={(e) => setFilter({ ...filter, actor: e.currentTarget.value })}
          />
          <Select
            label={t('admin.audit.action')}
            value={filter.action}
            onChange={(v) => setFilter({ ...filter, action: v ?? '' })}
            data={[
              { value: '', label: t('admin.list.any') },
              ...AUDIT_ACTIONS.map((a) => ({ value: a, label: a })),
            ]}
            allowDeselect={false}
            data-testid="admin-audit-action"
          />
          <TextInput
            type="datetime-local"
            label={t('admin.audit.from')}
            value={filter.from}
            onChange={(e) => setFilter({ ...filter, from: e.currentTarget.value })}
          />
          <TextInput
            type="datetime-local"
            label={t('admin.audit.to')}
            value={filter.to}
            onChange={(e) => setFilter({ ...filter, to: e.currentTarget.value })}
          />
          <Button type="submit" data-testid="admin-audit-apply">
            {t('admin.audit.apply')}
          </Button>
          <Button
            variant="default"
            onClick={() => {
              setFilter(EMPTY);
              apply(EMPTY);
            }}
          >
            {t('admin.audit.clear')}
          </Button>
        </Group>
      </form>
      <ListError view={view} onRetry={() => ref.send({ type: 'list.refresh' })} />
      <ListTable
        view={view}
        testId="admin-audit-table"
        headers={[
          t('admin.audit.time'),
          t('admin.audit.actor'),
          t('admin.audit.action'),
          t('admin.audit.target'),
          t('admin.audit.details'),
          t('admin.audit.address'),
        ]}
      >
        {view.rows.map((e) => (
          <Table.Tr key={e.id} data-testid="admin-audit-row" data-action={e.action}>
            <Table.Td>{time(e.at)}</Table.Td>
            <Table.Td>{e.actor.email ?? t('admin.audit.gone')}</Table.Td>
            <Table.Td>
              <code>{e.action}</code>
            </Table.Td>
            <Table.Td>
              {e.target_label ?? (e.target_id ? `${e.target_type} ${e.target_id}` : e.target_type)}
            </Table.Td>
            <Table.Td>
              <Text size="xs">{detailsText(e.details)}</Text>
            </Table.Td>
            <Table.Td>{e.ip ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <Pager view={view} onPage={(cursor) => ref.send({ type: 'list.page', cursor })} testId="admin-audit" />
    </Stack>
  );
}
