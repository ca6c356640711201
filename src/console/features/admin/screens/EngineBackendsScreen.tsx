/**
 * /admin-panel/engines/engine-backends (§2; issue 13; §7 inference-url reads this table): the JetPack version /
 * NVIDIA driver version → inference engine image rows, added, edited (dialog) and removed (confirmation).
 * Test ids: admin-backends-screen, admin-backends-table, admin-backend-row-<platform>-<version>,
 * admin-backends-add, admin-backend-form, admin-backend-save, admin-backend-remove-confirm.
 */
import {
  ActionIcon,
  Alert,
  Button,
  Group,
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
import type { BackendDraft } from '../../../../../machines/admin/engineBackends.machine';
import { SYSTEM_IDS } from '../../../../../machines/systemIds';
import { DeleteIcon, EditIcon } from '../../../shell/icons';
import '../i18n';
import { useAdminRef, useBackendsView } from '../selectors';
import { AdminNav, useTimeFormat } from './parts';

export default function EngineBackendsScreen() {
  const { t } = useTranslation();
  const ref = useAdminRef(SYSTEM_IDS.adminEngineBackends);
  const view = useBackendsView();
  const time = useTimeFormat();
  useEffect(() => {
    ref.send({ type: 'backends.load' });
  }, [ref]);
  const change = (patch: Partial<BackendDraft>) => ref.send({ type: 'edit.change', patch });
  const platformText = (p: string) =>
    p === 'jetpack' ? t('admin.backends.jetpack') : t('admin.backends.driver');

  return (
    <Stack gap="md" data-testid="admin-backends-screen">
      <AdminNav />
      <Group justify="space-between">
        <Title order={1}>{t('admin.backends.title')}</Title>
        <Button
          data-testid="admin-backends-add"
          onClick={() => ref.send({ type: 'edit.open', id: null })}
          disabled={view.state !== 'ready'}
        >
          {t('admin.backends.add')}
        </Button>
      </Group>
      <Text size="sm">{t('admin.backends.intro')}</Text>
      {view.error && !view.editing && (
        <Alert color="red" role="alert">
          <Text size="sm">
            {view.state === 'failed' ? t('admin.backends.failed', { error: view.error }) : view.error}
          </Text>
        </Alert>
      )}
      <Table.ScrollContainer minWidth={700}>
        <Table striped data-testid="admin-backends-table" aria-busy={view.busy}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.backends.platform')}</Table.Th>
              <Table.Th>{t('admin.backends.version')}</Table.Th>
              <Table.Th>{t('admin.backends.image')}</Table.Th>
              <Table.Th>{t('admin.backends.note')}</Table.Th>
              <Table.Th>{t('admin.backends.updated')}</Table.Th>
              <Table.Th>{t('admin.list.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.rows.length === 0 && view.state === 'ready' && (
              <Table.Tr>
                <Table.Td colSpan={6}>{t('admin.backends.empty')}</Table.Td>
              </Table.Tr>
            )}
            {view.rows.map((b) => (
              <Table.Tr key={b.id} data-testid={`admin-backend-row-${b.platform}-${b.version}`}>
                <Table.Td>{platformText(b.platform)}</Table.Td>
                <Table.Td>{b.version}</Table.Td>
                <Table.Td>
                  <code>{b.image}</code>
                </Table.Td>
                <Table.Td>{b.note}</Table.Td>
                <Table.Td>{time(b.updated_at)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('admin.backends.edit', {
                        version: `${platformText(b.platform)} ${b.version}`,
                      })}
                      onClick={() => ref.send({ type: 'edit.open', id: b.id })}
                    >
                      <EditIcon />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('admin.backends.remove', {
                        version: `${platformText(b.platform)} ${b.version}`,
                      })}
                      onClick={() => ref.send({ type: 'delete.ask', id: b.id })}
                    >
                      <DeleteIcon />
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Modal
        opened={view.editing}
        onClose={() => ref.send({ type: 'edit.cancel' })}
        title={t('admin.backends.editTitle')}
      >
        <form
          data-testid="admin-backend-form"
          onSubmit={(e) => {
            e.preventDefault();
            ref.send({ type: 'edit.save' });
          }}
        >
          <Stack gap="sm">
            <Select
              label={t('admin.backends.platform')}
              value={view.draft.platform}
              onChange={(v) => change({ platform: v === 'driver' ? 'driver' : 'jetpack' })}
              data={[
                { value: 'jetpack', label: t('admin.backends.jetpack') },
                { value: 'driver', label: t('admin.backends.driver') },
              ]}
              allowDeselect={false}
            />
            <TextInput
              label={t('admin.backends.version')}
              description={t('admin.backends.versionHelp')}
              value={view.draft.version}
              onChange={(e) => change({ version: e.currentTarget.value })}
              required
            />
            <TextInput
              label={t('admin.backends.image')}
              value={view.draft.image}
              onChange={(e) => change({ image: e.currentTarget.value })}
              required
            />
            <TextInput
              label={t('admin.backends.note')}
              value={view.draft.note}
              onChange={(e) => change({ note: e.currentTarget.value })}
            />
            {view.error && (
              <Alert color="red" role="alert">
                <Text size="sm">{view.error}</Text>
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => ref.send({ type: 'edit.cancel' })}>
                {t('admin.backends.cancel')}
              </Button>
              <Button
                type="submit"
                loading={view.state === 'saving'}
                disabled={!view.canSave}
                data-testid="admin-backend-save"
              >
                {t('admin.backends.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <Modal
        opened={view.target !== null}
        onClose={() => ref.send({ type: 'delete.cancel' })}
        title={t('admin.backends.removeTitle')}
      >
        <Stack gap="sm">
          <Text size="sm">
            {view.target
              ? t('admin.backends.removeConfirm', {
                  platform: platformText(view.target.platform),
                  version: view.target.version,
                  image: view.target.image,
                })
              : ''}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => ref.send({ type: 'delete.cancel' })}>
              {t('admin.backends.cancel')}
            </Button>
            <Button
              color="red"
              loading={view.state === 'deleting'}
              onClick={() => ref.send({ type: 'delete.confirm' })}
              data-testid="admin-backend-remove-confirm"
            >
              {t('admin.backends.confirmRemove')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
