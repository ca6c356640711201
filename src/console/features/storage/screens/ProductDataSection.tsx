/**
 * Product data (§7 "delete of product data"): the product's folders on the device (recordings, downloaded
 * models, caches) with size and files, each with Delete; Delete asks first in a dialog (storage.delete →
 * confirm or cancel), then shows what was freed or why nothing was deleted.
 */
import { Alert, Button, Group, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatBytes, useStorageRef, type StorageView } from '../selectors';

export function ProductDataSection({ view }: { view: StorageView }) {
  const { t, i18n } = useTranslation();
  const ref = useStorageRef();
  const bytes = (n: number) => formatBytes(n, i18n.language);
  const confirming = view.confirming;
  const folderName = (id: string | null) =>
    id ? t(`storage.productData.folders.${id}`) : (confirming?.path ?? '');
  return (
    <section aria-labelledby="storage-product-data-title">
      <Title order={3} id="storage-product-data-title" mb="xs">
        {t('storage.productData.title')}
      </Title>
      <Stack gap="sm">
        <Text size="sm">{t('storage.productData.intro', { root: view.productRoot ?? '' })}</Text>
        {view.lastDeleted && (
          <Alert color="green" role="status" data-testid="storage-deleted">
            {t('storage.productData.deleted', {
              files: view.lastDeleted.files.toLocaleString(i18n.language),
              bytes: bytes(view.lastDeleted.freed),
            })}
          </Alert>
        )}
        {view.deleteError && (
          <Alert color="red" role="alert" data-testid="storage-delete-error">
            {t('storage.productData.deleteFailed', { error: view.deleteError.message })}
          </Alert>
        )}
        <Paper withBorder>
          <Table data-testid="storage-product-data">
            <Table.Caption>{t('storage.productData.caption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('storage.productData.folder')}</Table.Th>
                <Table.Th scope="col">{t('storage.productData.path')}</Table.Th>
                <Table.Th scope="col">{t('storage.productData.size')}</Table.Th>
                <Table.Th scope="col">{t('storage.productData.files')}</Table.Th>
                <Table.Th scope="col">{t('storage.productData.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.productFolders.map((f) => (
                <Table.Tr key={f.id} data-folder={f.id}>
                  <Table.Th scope="row">{t(`storage.productData.folders.${f.id}`)}</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{f.path}</Table.Td>
                  <Table.Td>{bytes(f.bytes)}</Table.Td>
                  <Table.Td>{f.files.toLocaleString(i18n.language)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      color="red"
                      variant="light"
                      data-testid={`storage-delete-${f.id}`}
                      aria-label={t('storage.productData.deleteLabel', {
                        folder: t(`storage.productData.folders.${f.id}`),
                      })}
                      disabled={view.deleting || f.files === 0}
                      onClick={() => ref.send({ type: 'storage.delete', path: f.path })}
                    >
                      {t('storage.productData.delete')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
        {view.deleting && (
          <Text size="sm" role="status">
            {t('storage.productData.deleting')}
          </Text>
        )}
      </Stack>
      <Modal
        opened={confirming !== null}
        onClose={() => ref.send({ type: 'storage.delete.cancel' })}
        title={t('storage.productData.confirmTitle', { folder: folderName(confirming?.id ?? null) })}
        data-testid="storage-delete-dialog"
        centered
      >
        {confirming && (
          <Stack gap="md">
            <Text>
              {confirming.id
                ? t('storage.productData.confirmText', {
                    path: confirming.path,
                    files: (confirming.files ?? 0).toLocaleString(i18n.language),
                    bytes: bytes(confirming.bytes ?? 0),
                  })
                : t('storage.productData.confirmPathText', { path: confirming.path })}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => ref.send({ type: 'storage.delete.cancel' })}>
                {t('storage.productData.cancel')}
              </Button>
              <Button
                color="red"
                data-testid="storage-delete-confirm"
                onClick={() => ref.send({ type: 'storage.delete.confirm' })}
              >
                {t('storage.productData.confirm')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </section>
  );
}
