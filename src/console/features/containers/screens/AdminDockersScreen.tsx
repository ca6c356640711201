/**
 * /admin-panel/dockers (§2, admin only): the environment catalogue as a table — alias, name, image, tags,
 * Jupyter, GPU, public — with Add, Edit (a form dialog checked with the contract) and Delete (after a
 * confirmation; containers on devices keep running). Changes go to the environments actor.
 */
import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Code, Group, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import '../i18n';
import type { Environment } from '../../../../protocol/containers';
import { useCatalogueView, useEditView, useEnvironmentsRef } from '../selectors';
import { emptyForm, formFromEnvironment, type EnvironmentFormValues } from '../validation';
import { EnvironmentFormDialog } from './EnvironmentFormDialog';
import { EmptyRow, TableHead, YesNoBadge } from './parts';

/** Test ids: admin-environments-table, admin-environment-add, admin-environment-edit-{alias},
 * admin-environment-delete-{alias}, confirm-delete-dialog, confirm-delete-ok. */
export default function AdminDockersScreen() {
  const { t } = useTranslation();
  const environments = useEnvironmentsRef();
  const view = useCatalogueView();
  const edit = useEditView();
  const [form, setForm] = useState<{ id: string | null; initial: EnvironmentFormValues } | null>(null);
  const [deleting, setDeleting] = useState<Environment | null>(null);
  useEffect(() => {
    environments.send({ type: 'environments.load' });
  }, [environments]);
  const closeForm = useCallback(() => setForm(null), []);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1}>{t('containers.admin.title')}</Title>
        <Button
          onClick={() => setForm({ id: null, initial: emptyForm() })}
          data-testid="admin-environment-add"
        >
          {t('containers.admin.add')}
        </Button>
      </Group>
      {view.error && (
        <Alert color="red" role="alert">
          {view.error}
        </Alert>
      )}
      {/* A failed delete (the form shows its own failures). */}
      {edit.error && !form && (
        <Alert color="red" role="alert" data-testid="admin-environment-error">
          {edit.error}
        </Alert>
      )}
      <Paper withBorder>
        <Table.ScrollContainer minWidth={900}>
          <Table striped data-testid="admin-environments-table" aria-busy={view.loading} captionSide="top">
            <TableHead
              caption={t('containers.admin.caption')}
              columns={[
                t('containers.admin.alias'),
                t('containers.admin.name'),
                t('containers.image'),
                t('containers.tags'),
                t('containers.jupyterBadge'),
                t('containers.gpuBadge'),
                t('containers.admin.publicColumn'),
                t('containers.columns.actions'),
              ]}
            />
            <Table.Tbody>
              {view.environments.map((env) => (
                <Table.Tr key={env.id} data-testid={`admin-environment-${env.alias}`}>
                  <Table.Td>
                    <Code>{env.alias}</Code>
                  </Table.Td>
                  <Table.Td>{env.name}</Table.Td>
                  <Table.Td>
                    <Code>{env.image}</Code>
                  </Table.Td>
                  <Table.Td>{env.tags.map((x) => x.tag).join(', ')}</Table.Td>
                  <Table.Td>
                    <YesNoBadge value={env.jupyter} />
                  </Table.Td>
                  <Table.Td>
                    <YesNoBadge value={env.gpu} />
                  </Table.Td>
                  <Table.Td>
                    <YesNoBadge value={env.public} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="compact-xs"
                        variant="light"
                        onClick={() => setForm({ id: env.id, initial: formFromEnvironment(env) })}
                        aria-label={t('containers.admin.editAria', { name: env.name })}
                        data-testid={`admin-environment-edit-${env.alias}`}
                      >
                        {t('containers.admin.edit')}
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="light"
                        color="red"
                        onClick={() => setDeleting(env)}
                        aria-label={t('containers.admin.deleteAria', { name: env.name })}
                        data-testid={`admin-environment-delete-${env.alias}`}
                      >
                        {t('containers.admin.delete')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
              {view.environments.length === 0 && !view.loading && (
                <EmptyRow columns={8} text={t('containers.envEmpty')} />
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      {form && <EnvironmentFormDialog id={form.id} initial={form.initial} onClose={closeForm} />}
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('containers.admin.confirmDeleteTitle')}
        data-testid="confirm-delete-dialog"
      >
        <Text size="sm">{t('containers.admin.confirmDeleteText', { name: deleting?.name ?? '' })}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setDeleting(null)}>
            {t('containers.cancel')}
          </Button>
          <Button
            color="red"
            onClick={() => {
              if (deleting) environments.send({ type: 'environments.delete', id: deleting.id });
              setDeleting(null);
            }}
            data-testid="confirm-delete-ok"
          >
            {t('containers.admin.delete')}
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
