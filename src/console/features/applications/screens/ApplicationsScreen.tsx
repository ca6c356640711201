/**
 * /applications (§2 auth route; §3 "Model/application list: data, lastUpdate, loading, page_info"; §7 POST
 * applications): every application of the user — name, model version, input, threshold, classes, tracker —
 * with New (the form, from a model version), Edit and Delete (confirmation).
 * Test ids: applications-screen, applications-table, application-row-<name>, applications-add,
 * applications-confirm, applications-error.
 */
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Application } from '../../../../protocol/applications';
import '../i18n';
import { useApplicationsRef, useApplicationsView } from '../selectors';
import { ApplicationForm } from './ApplicationForm';
import { DeleteIcon, EditIcon } from '../../../shell/icons';

export default function ApplicationsScreen() {
  const { t, i18n } = useTranslation();
  const ref = useApplicationsRef();
  const view = useApplicationsView();
  const [form, setForm] = useState<{ application: Application | null; key: number } | null>(null);
  useEffect(() => {
    ref.send({ type: 'applications.load' });
  }, [ref]);
  const onClose = useCallback(
    (saved: boolean) => {
      setForm(null);
      if (saved) ref.send({ type: 'applications.refresh' });
    },
    [ref],
  );
  const full = (id: string) =>
    (ref.getSnapshot() as { context: { data: Application[] } }).context.data.find((a) => a.id === id) ?? null;
  const timeFmt = new Intl.DateTimeFormat(
    i18n.language === 'ch' ? 'zh' : i18n.language === 'jp' ? 'ja' : i18n.language,
    { timeStyle: 'medium' },
  );
  return (
    <Stack gap="md" data-testid="applications-screen">
      <Group justify="space-between">
        <Title order={1}>{t('applications.title')}</Title>
        <Group gap="xs">
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t('applications.refresh')}
            disabled={view.loading}
            onClick={() => ref.send({ type: 'applications.refresh' })}
          >
            <span aria-hidden="true">↻</span>
          </ActionIcon>
          <Button
            data-testid="applications-add"
            onClick={() => setForm({ application: null, key: Date.now() })}
          >
            {t('applications.add')}
          </Button>
        </Group>
      </Group>
      <Text size="sm">{t('applications.intro')}</Text>
      {view.error && (
        <Alert color="red" role="alert" data-testid="applications-error">
          <Text size="sm">{t('applications.failed', { error: view.error })}</Text>
          {view.state === 'failed' && (
            <Button size="xs" mt="xs" onClick={() => ref.send({ type: 'applications.refresh' })}>
              {t('applications.retry')}
            </Button>
          )}
        </Alert>
      )}
      {view.lastUpdate === null && view.loading ? (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text size="sm">{t('applications.loading')}</Text>
        </Group>
      ) : view.rows.length === 0 && view.state !== 'failed' ? (
        <Text size="sm">{t('applications.empty')}</Text>
      ) : view.rows.length > 0 ? (
        <>
          <Text size="xs" c="dimmed" aria-live="polite">
            {t('applications.count', { count: view.total })}
            {view.lastUpdate !== null &&
              ` · ${t('applications.lastUpdate', { time: timeFmt.format(new Date(view.lastUpdate)) })}`}
          </Text>
          <Table.ScrollContainer minWidth={800}>
            <Table striped data-testid="applications-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('applications.name')}</Table.Th>
                  <Table.Th>{t('applications.model')}</Table.Th>
                  <Table.Th>{t('applications.input')}</Table.Th>
                  <Table.Th>{t('applications.threshold')}</Table.Th>
                  <Table.Th>{t('applications.classes')}</Table.Th>
                  <Table.Th>{t('applications.tracker')}</Table.Th>
                  <Table.Th>{t('applications.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {view.rows.map((r) => (
                  <Table.Tr key={r.id} data-testid={`application-row-${r.name}`}>
                    <Table.Td>
                      <Text fw={600} size="sm">
                        {r.name}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {t('applications.modelVersion', { name: r.modelName, version: r.version })}
                    </Table.Td>
                    <Table.Td>
                      {t(`applications.sources.${r.source}`)}
                      {r.size ? ` · ${r.size}` : ''} · {r.fps} fps
                    </Table.Td>
                    <Table.Td data-testid="app-row-threshold">{r.threshold}</Table.Td>
                    <Table.Td>
                      {r.classes ? (
                        <Group gap={4}>
                          {r.classes.map((c) => (
                            <Badge key={c} variant="light" color="dark">
                              {c}
                            </Badge>
                          ))}
                        </Group>
                      ) : (
                        t('applications.allClasses')
                      )}
                    </Table.Td>
                    <Table.Td>{t(`applications.trackers.${r.tracker}`)}</Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={t('applications.edit', { name: r.name })}
                          onClick={() => setForm({ application: full(r.id), key: Date.now() })}
                        >
                          <EditIcon />
                        </Button>
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          aria-label={t('applications.remove', { name: r.name })}
                          onClick={() => ref.send({ type: 'delete.ask', id: r.id })}
                        >
                          <DeleteIcon />
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      ) : null}
      {form && <ApplicationForm key={form.key} application={form.application} onClose={onClose} />}
      <Modal
        opened={view.state === 'confirming' || view.state === 'deleting'}
        onClose={() => ref.send({ type: 'delete.cancel' })}
        title={t('applications.removeTitle')}
      >
        <Stack data-testid="applications-confirm">
          <Text size="sm">{t('applications.removeConfirm', { name: view.target?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => ref.send({ type: 'delete.cancel' })}>
              {t('applications.cancel')}
            </Button>
            <Button
              color="red"
              loading={view.state === 'deleting'}
              onClick={() => ref.send({ type: 'delete.confirm' })}
            >
              {t('applications.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
