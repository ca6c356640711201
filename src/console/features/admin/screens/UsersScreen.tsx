/**
 * /admin-panel/users (issue 13 "users (list, search, roles, disable, reset 2FA)"; §6 role admin): every account
 * with server-side search, role and status filters, sort and keyset paging; per row, actions confirmed in a
 * dialog (userAction machine): disable / enable, make admin / remove admin, reset two-factor.
 * Test ids: admin-users-screen, admin-users-table, admin-user-row-<email>, admin-users-search,
 * admin-user-action-dialog, admin-user-action-confirm.
 */
import {
  Alert,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { SYSTEM_IDS } from '../../../../../machines/systemIds';
import type { AdminUser } from '../../../../protocol/admin';
import { useSession } from '../../accounts/selectors';
import '../i18n';
import { useAdminRef, userActionsOf, useUserActionView, useUsersView } from '../selectors';
import { AdminNav, ListError, ListTable, Pager, useKeysetList, useTimeFormat } from './parts';

export default function UsersScreen() {
  const { t } = useTranslation();
  const ref = useAdminRef(SYSTEM_IDS.adminUsers);
  const actionRef = useAdminRef(SYSTEM_IDS.adminUserAction);
  const view = useUsersView();
  const action = useUserActionView();
  const { email: selfEmail } = useSession();
  const time = useTimeFormat();
  const [search, setSearch] = useKeysetList(ref, view);
  useEffect(() => {
    const sub = actionRef.on('applied', () => ref.send({ type: 'list.refresh' }));
    return () => sub.unsubscribe();
  }, [ref, actionRef]);
  const query = (patch: Record<string, string>) => ref.send({ type: 'list.query', patch });
  const ask = (user: AdminUser, kind: ReturnType<typeof userActionsOf>[number]) =>
    actionRef.send({ type: 'action.ask', action: kind, user: { id: user.id, email: user.email } });

  return (
    <Stack gap="md" data-testid="admin-users-screen">
      <AdminNav />
      <Title order={1}>{t('admin.users.title')}</Title>
      <Text size="sm">{t('admin.users.intro')}</Text>
      <Group align="end" wrap="wrap">
        <TextInput
          label={t('admin.list.search')}
          placeholder={t('admin.users.searchPlaceholder')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-testid="admin-users-search"
        />
        <Select
          label={t('admin.users.role')}
          value={view.query.role ?? ''}
          onChange={(v) => query({ role: v ?? '' })}
          data={[
            { value: '', label: t('admin.list.any') },
            { value: 'admin', label: t('admin.users.roleAdmin') },
            { value: 'user', label: t('admin.users.roleUser') },
          ]}
          allowDeselect={false}
        />
        <Select
          label={t('admin.users.status')}
          value={view.query.status ?? 'all'}
          onChange={(v) => query({ status: v ?? 'all' })}
          data={[
            { value: 'all', label: t('admin.users.statusAll') },
            { value: 'active', label: t('admin.users.statusActive') },
            { value: 'disabled', label: t('admin.users.statusDisabled') },
          ]}
          allowDeselect={false}
        />
        <Select
          label={t('admin.users.sortBy')}
          value={view.query.sort ?? 'email'}
          onChange={(v) => query({ sort: v ?? 'email' })}
          data={[
            { value: 'email', label: t('admin.users.email') },
            { value: 'username', label: t('admin.users.username') },
            { value: 'created_at', label: t('admin.users.created') },
          ]}
          allowDeselect={false}
        />
        <Select
          label={t('admin.users.direction')}
          value={view.query.dir ?? 'asc'}
          onChange={(v) => query({ dir: v ?? 'asc' })}
          data={[
            { value: 'asc', label: t('admin.users.asc') },
            { value: 'desc', label: t('admin.users.desc') },
          ]}
          allowDeselect={false}
        />
      </Group>
      <ListError view={view} onRetry={() => ref.send({ type: 'list.refresh' })} />
      <ListTable
        view={view}
        testId="admin-users-table"
        headers={[
          t('admin.users.email'),
          t('admin.users.username'),
          t('admin.users.roles'),
          t('admin.users.status'),
          t('admin.users.twoFactor'),
          t('admin.users.created'),
          t('admin.list.actions'),
        ]}
      >
        {view.rows.map((u) => (
          <Table.Tr key={u.id} data-testid={`admin-user-row-${u.email}`}>
            <Table.Td>
              {u.email}
              {u.email === selfEmail && (
                <Text span size="sm">
                  {' '}
                  ({t('admin.users.you')})
                </Text>
              )}
            </Table.Td>
            <Table.Td>{u.username}</Table.Td>
            <Table.Td>
              <Group gap={4}>
                {u.roles.map((r) => (
                  <Badge key={r} variant="light" color={r === 'admin' ? 'violet' : 'gray'}>
                    {r === 'admin' ? t('admin.users.roleAdmin') : t('admin.users.roleUser')}
                  </Badge>
                ))}
              </Group>
            </Table.Td>
            <Table.Td data-testid="admin-user-status">
              {u.disabled_at ? (
                <Badge color="red" variant="light">
                  {t('admin.users.statusDisabled')}
                </Badge>
              ) : (
                <Badge color="green" variant="light">
                  {t('admin.users.statusActive')}
                </Badge>
              )}
            </Table.Td>
            <Table.Td>{u.two_factor ? t('admin.users.on') : t('admin.users.off')}</Table.Td>
            <Table.Td>{time(u.created_at)}</Table.Td>
            <Table.Td>
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <Button
                    variant="default"
                    size="xs"
                    aria-label={t('admin.users.actionsFor', { email: u.email })}
                  >
                    {t('admin.list.actions')}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {userActionsOf(u, selfEmail).map((kind) => (
                    <Menu.Item
                      key={kind}
                      onClick={() => ask(u, kind)}
                      data-testid={`admin-user-action-${kind}`}
                    >
                      {t(`admin.users.${kind}`)}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <Pager view={view} onPage={(cursor) => ref.send({ type: 'list.page', cursor })} testId="admin-users" />
      <Modal
        opened={action.open}
        onClose={() => actionRef.send({ type: 'action.cancel' })}
        title={t('admin.users.confirmTitle')}
        data-testid="admin-user-action-dialog"
      >
        <Stack gap="sm">
          <Text size="sm">
            {action.action ? t(`admin.users.confirm.${action.action}`, { email: action.email }) : ''}
          </Text>
          {action.error && (
            <Alert color="red" role="alert">
              <Text size="sm">{action.error}</Text>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => actionRef.send({ type: 'action.cancel' })}
              disabled={action.busy}
            >
              {t('admin.users.cancel')}
            </Button>
            <Button
              color={action.action === 'disable' || action.action === 'removeAdmin' ? 'red' : undefined}
              loading={action.busy}
              onClick={() => actionRef.send({ type: 'action.confirm' })}
              data-testid="admin-user-action-confirm"
            >
              {t('admin.users.apply')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
