/**
 * The list page both analytics lists share (issue 11 Analytics): the collections of
 * `/analytics/dashboard-collections-manager` and the dashboards of `/analytics/dashboard-collection/{id}`.
 * A table (name as a link, how many dashboards/charts, last change) with rename and delete per row (named
 * icon buttons), a "New" button, a name form (modal; the server's error shown in it, e.g. a taken name) and a
 * delete confirmation. Driven by one namedList machine actor (machines/analytics/namedList.machine.ts).
 * Test ids: `<testId>-screen`, `-add`, `-row-<name>`, `-rename`, `-delete`, `-name`, `-save`, `-confirm`,
 * `-error`, `-empty`.
 */
import { Alert, Button, Group, Loader, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import type { namedListMachine } from '../../../../../machines/analytics/namedList.machine';
import { NAME_MAX } from '../../../../../machines/analytics/namedList.machine';
import { DeleteIcon, EditIcon } from '../../../shell/icons';
import '../i18n';
import { localeOf, useNamedListView } from '../selectors';

export interface NamedListPageProps {
  actor: ActorRefFrom<typeof namedListMachine>;
  /** Text group: 'collections' or 'collection'. */
  texts: 'collections' | 'collection';
  testId: string;
  hrefOf: (id: string) => string;
  /** Shown above the title (a back link). */
  above?: ReactNode;
}

export function NamedListPage({ actor, texts, testId, hrefOf, above }: NamedListPageProps) {
  const { t, i18n } = useTranslation();
  const view = useNamedListView(actor);
  const time = new Intl.DateTimeFormat(localeOf(i18n.language), { dateStyle: 'medium', timeStyle: 'short' });
  const k = (key: string) => `analytics.${texts}.${key}`;
  const title = texts === 'collection' ? t(k('title'), { name: view.title ?? '…' }) : t(k('title'));
  const idle = view.state === 'ready';

  return (
    <Stack gap="md" data-testid={`${testId}-screen`} data-state={view.state}>
      {above}
      <Group justify="space-between">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Group gap="xs">
          <Button variant="default" onClick={() => actor.send({ type: 'list.refresh' })} disabled={view.busy}>
            {t('analytics.list.refresh')}
          </Button>
          <Button
            onClick={() => actor.send({ type: 'create.open' })}
            disabled={!idle}
            data-testid={`${testId}-add`}
          >
            {t(k('add'))}
          </Button>
        </Group>
      </Group>
      {texts === 'collections' && <Text c="dimmed">{t('analytics.collections.intro')}</Text>}
      {view.error && (
        <Alert color="red" data-testid={`${testId}-error`}>
          <Group justify="space-between">
            <Text size="sm">
              {view.state === 'failed' ? t('analytics.list.failed', { error: view.error }) : view.error}
            </Text>
            {view.state === 'failed' && (
              <Button size="xs" variant="light" onClick={() => actor.send({ type: 'list.retry' })}>
                {t('analytics.list.retry')}
              </Button>
            )}
          </Group>
        </Alert>
      )}
      {view.state === 'loading' && view.items.length === 0 && (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('analytics.list.loading')}</Text>
        </Group>
      )}
      {view.state !== 'loading' && view.state !== 'failed' && view.items.length === 0 && (
        <Text c="dimmed" data-testid={`${testId}-empty`}>
          {t(k('empty'))}
        </Text>
      )}
      {view.items.length > 0 && (
        <Table striped highlightOnHover data-testid={`${testId}-table`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('analytics.list.nameColumn')}</Table.Th>
              <Table.Th>{t(k('count'))}</Table.Th>
              <Table.Th>{t('analytics.list.updated')}</Table.Th>
              <Table.Th>{t('analytics.list.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.items.map((item) => (
              <Table.Tr key={item.id} data-testid={`${testId}-row-${item.name}`}>
                <Table.Td>
                  <Link to={hrefOf(item.id)} className="ui-link" data-testid={`${testId}-open`}>
                    {item.name}
                  </Link>
                </Table.Td>
                <Table.Td>{item.count}</Table.Td>
                <Table.Td>{time.format(new Date(item.updatedAt))}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={t('analytics.list.rename', { name: item.name })}
                      disabled={!idle}
                      onClick={() => actor.send({ type: 'rename.open', id: item.id })}
                      data-testid={`${testId}-rename`}
                    >
                      <EditIcon />
                    </Button>
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      aria-label={t('analytics.list.remove', { name: item.name })}
                      disabled={!idle}
                      onClick={() => actor.send({ type: 'delete.ask', id: item.id })}
                      data-testid={`${testId}-delete`}
                    >
                      <DeleteIcon />
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      <Modal
        opened={view.edit !== null}
        onClose={() => actor.send({ type: 'edit.cancel' })}
        title={view.edit?.id ? t(k('renameTitle')) : t(k('createTitle'))}
      >
        {view.edit && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              actor.send({ type: 'edit.submit' });
            }}
          >
            <Stack gap="sm">
              <TextInput
                label={t(k('name'))}
                value={view.edit.name}
                maxLength={NAME_MAX}
                data-autofocus
                onChange={(e) => actor.send({ type: 'edit.change', name: e.currentTarget.value })}
                error={view.edit.error}
                data-testid={`${testId}-name`}
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => actor.send({ type: 'edit.cancel' })}>
                  {t('analytics.list.cancel')}
                </Button>
                <Button type="submit" loading={view.edit.saving} data-testid={`${testId}-save`}>
                  {t('analytics.list.save')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>

      <Modal
        opened={view.confirm !== null}
        onClose={() => actor.send({ type: 'delete.cancel' })}
        title={t('analytics.list.confirmTitle')}
      >
        {view.confirm && (
          <Stack gap="sm">
            <Text>{t(k('confirmDelete'), { name: view.confirm.name, count: view.confirm.count })}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => actor.send({ type: 'delete.cancel' })}>
                {t('analytics.list.cancel')}
              </Button>
              <Button
                color="red"
                loading={view.state === 'deleting'}
                onClick={() => actor.send({ type: 'delete.confirm' })}
                data-testid={`${testId}-confirm`}
              >
                {t('analytics.list.delete')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
