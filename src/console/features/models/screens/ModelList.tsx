/**
 * The model list (issue 9 "List with search/sort/pages"): a search box, sort and order, the page's models as
 * a table (/models, /llm-models) or as model cards (/models-beta), pages, and delete with a confirmation.
 * Test ids: models-search, models-sort, models-order, models-table, models-cards, models-row-<name>,
 * models-open-<name>, models-delete-<name>, models-confirm, models-confirm-delete, models-failed, models-retry,
 * models-prev, models-next, models-page.
 */
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import type { ModelSortKey } from '../../../../../machines/models/modelList.machine';
import { LLM_TASKS, type Model } from '../../../../protocol/models';
import { DeleteIcon } from '../../../shell/icons';
import { formatSize, inputSizeText, type ModelListView } from '../selectors';

export function ModelList({
  view,
  list,
  cards,
  onOpen,
}: {
  view: ModelListView;
  list: AnyActorRef;
  cards: boolean;
  onOpen: (m: Model) => void;
}) {
  const { t, i18n } = useTranslation();
  const date = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  const sorts: { value: ModelSortKey; label: string }[] = [
    { value: 'updated_at', label: t('models.sortUpdated') },
    { value: 'name', label: t('models.sortName') },
    { value: 'size', label: t('models.sortSize') },
    { value: 'created_at', label: t('models.sortCreated') },
  ];
  const actions = (m: Model) => (
    <Group gap={4} wrap="nowrap">
      <Button
        size="xs"
        variant="light"
        onClick={() => onOpen(m)}
        data-testid={`models-open-${m.name}`}
        aria-label={t('models.open', { name: m.name })}
      >
        {t('models.openShort')}
      </Button>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={t('models.delete', { name: m.name })}
        data-testid={`models-delete-${m.name}`}
        onClick={() => list.send({ type: 'delete.ask', model: m })}
      >
        <DeleteIcon />
      </ActionIcon>
    </Group>
  );

  return (
    <Stack gap="sm">
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t('models.search')}
          value={view.query.search}
          onChange={(e) => list.send({ type: 'query.search', search: e.currentTarget.value })}
          data-testid="models-search"
          style={{ flex: 1, minWidth: 200 }}
        />
        <NativeSelect
          label={t('models.sort')}
          value={view.query.sort}
          data={sorts}
          data-testid="models-sort"
          onChange={(e) =>
            list.send({
              type: 'query.sort',
              sort: e.currentTarget.value as ModelSortKey,
              order: view.query.order,
            })
          }
        />
        <NativeSelect
          label={t('models.order')}
          value={view.query.order}
          data={[
            { value: 'desc', label: t('models.desc') },
            { value: 'asc', label: t('models.asc') },
          ]}
          data-testid="models-order"
          onChange={(e) =>
            list.send({
              type: 'query.sort',
              sort: view.query.sort,
              order: e.currentTarget.value as 'asc' | 'desc',
            })
          }
        />
        {view.loading && <Loader size="sm" aria-label={t('models.loading')} />}
      </Group>

      {view.status === 'failed' && (
        <Alert color="red" title={t('models.texts.failedTitle')} data-testid="models-failed" role="alert">
          <Group>
            <Text size="sm">{t('models.texts.fetchFailed')}</Text>
            <Button size="xs" onClick={() => list.send({ type: 'refresh' })} data-testid="models-retry">
              {t('models.retry')}
            </Button>
          </Group>
        </Alert>
      )}
      {view.status === 'loading' && <Text size="sm">{t('models.loading')}</Text>}
      {view.status === 'list' && view.models.length === 0 && (
        <Text size="sm" data-testid="models-empty">
          {view.query.search ? t('models.emptySearch', { search: view.query.search }) : t('models.empty')}
        </Text>
      )}

      {view.models.length > 0 && !cards && (
        <Table striped highlightOnHover data-testid="models-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('models.name')}</Table.Th>
              <Table.Th>{t('models.id')}</Table.Th>
              <Table.Th>{t('models.task')}</Table.Th>
              <Table.Th>{t('models.format')}</Table.Th>
              <Table.Th>{t('models.versions')}</Table.Th>
              <Table.Th>{t('models.size')}</Table.Th>
              <Table.Th>{t('models.uploadedBy')}</Table.Th>
              <Table.Th>{t('models.updated')}</Table.Th>
              <Table.Th>{t('models.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.models.map((m) => (
              <Table.Tr key={m.id} data-testid={`models-row-${m.name}`}>
                <Table.Td>
                  <Anchor component="button" type="button" onClick={() => onOpen(m)}>
                    {m.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace">
                    {m.id}
                  </Text>
                </Table.Td>
                <Table.Td>{m.task}</Table.Td>
                <Table.Td>{m.format}</Table.Td>
                <Table.Td>{m.versions}</Table.Td>
                <Table.Td>{formatSize(m.size)}</Table.Td>
                <Table.Td>{m.latest?.uploaded_by ?? '—'}</Table.Td>
                <Table.Td>{date(m.updated_at)}</Table.Td>
                <Table.Td>{actions(m)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      {view.models.length > 0 && cards && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="models-cards">
          {view.models.map((m) => (
            <Card key={m.id} withBorder padding="md" data-testid={`models-row-${m.name}`}>
              <Stack gap={6}>
                <Group justify="space-between" wrap="nowrap">
                  <Anchor component="button" type="button" fw={600} onClick={() => onOpen(m)}>
                    {m.name}
                  </Anchor>
                  <Badge variant="light">{m.format}</Badge>
                </Group>
                <Group gap={4}>
                  <Badge variant="outline" color="gray">
                    {m.task}
                  </Badge>
                  {LLM_TASKS.includes(m.task) && <Badge color="grape">{t('models.llmBadge')}</Badge>}
                </Group>
                <Text size="sm" lineClamp={3}>
                  {m.description || t('models.noDescription')}
                </Text>
                {m.classes.length > 0 && (
                  <Group gap={4} aria-label={t('models.classes')}>
                    {m.classes.slice(0, 8).map((c) => (
                      <Badge key={c} size="sm" variant="outline" color="gray">
                        {c}
                      </Badge>
                    ))}
                    {m.classes.length > 8 && <Text size="xs">+{m.classes.length - 8}</Text>}
                  </Group>
                )}
                <Text size="xs" c="dimmed">
                  {[
                    m.id,
                    inputSizeText(m),
                    `${m.versions} ${t('models.versions').toLowerCase()}`,
                    formatSize(m.size),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
                {actions(m)}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}

      {view.pages > 1 && (
        <Group justify="center">
          <Button
            size="xs"
            variant="default"
            disabled={view.page <= 1}
            onClick={() => list.send({ type: 'query.page', page: view.page - 1 })}
            data-testid="models-prev"
          >
            {t('models.prev')}
          </Button>
          <Text size="sm" data-testid="models-page">
            {t('models.page', { page: view.page, pages: view.pages })}
          </Text>
          <Button
            size="xs"
            variant="default"
            disabled={view.page >= view.pages}
            onClick={() => list.send({ type: 'query.page', page: view.page + 1 })}
            data-testid="models-next"
          >
            {t('models.next')}
          </Button>
        </Group>
      )}
      <Text size="xs" c="dimmed">
        {t('models.total', { count: view.total })}
      </Text>

      <Modal
        opened={view.confirming !== null}
        onClose={() => list.send({ type: 'delete.cancel' })}
        title={t('models.deleteTitle')}
      >
        <Stack data-testid="models-confirm">
          <Text size="sm">{t('models.deleteConfirm', { name: view.confirming?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => list.send({ type: 'delete.cancel' })}>
              {t('models.cancel')}
            </Button>
            <Button
              color="red"
              onClick={() => list.send({ type: 'delete.confirm' })}
              data-testid="models-confirm-delete"
            >
              {t('models.confirmDelete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
