/**
 * The device page's Storage tab (§7 "Storage"; §3 Storage item): the device's disks with usage bars (the
 * values written out too), "Scan a folder" with progress and the largest folders as a bar chart, the three
 * image kinds (RepoTags, Size), and the product data with delete after confirmation.
 * Opens the storage actor on the device while shown (storage.open / storage.close).
 *
 * Test ids: storage-tab, storage-filesystems, storage-scan-form, storage-scan (per scan, data-status),
 * storage-largest, storage-images-<kind>, storage-product-data, storage-delete-<folder>,
 * storage-delete-dialog, storage-deleted.
 */
import { Alert, Button, Group, Loader, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FeatureReady } from '../../../shell/FeatureReady';
import '../i18n';
import { formatBytes, useStorageRef, useStorageView, type StorageView } from '../selectors';
import { ProductDataSection } from './ProductDataSection';
import { ScanSection } from './ScanSection';

export default function StorageTab({ deviceId }: { deviceId: string }) {
  return (
    <FeatureReady feature="storage">
      <StorageTabReady deviceId={deviceId} />
    </FeatureReady>
  );
}

function StorageTabReady({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const ref = useStorageRef();
  const view = useStorageView();
  useEffect(() => {
    ref.send({ type: 'storage.open', deviceId });
  }, [ref, deviceId]);
  useEffect(() => () => ref.send({ type: 'storage.close' }), [ref]);

  return (
    <Stack gap="lg" data-testid="storage-tab">
      <Group justify="space-between">
        <Title order={2}>{t('storage.title')}</Title>
        <Button
          variant="default"
          onClick={() => ref.send({ type: 'storage.refresh' })}
          loading={view.loading}
          disabled={view.deviceId !== deviceId}
        >
          {t('storage.refresh')}
        </Button>
      </Group>
      {view.loading && !view.loaded && (
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden />
          <Text>{t('storage.loading')}</Text>
        </Group>
      )}
      {view.loadError && (
        <Alert color="red" role="alert" data-testid="storage-load-error">
          <Stack gap="xs" align="flex-start">
            <Text>{t('storage.loadFailed', { error: view.loadError.message })}</Text>
            <Button size="xs" variant="light" onClick={() => ref.send({ type: 'storage.refresh' })}>
              {t('storage.retry')}
            </Button>
          </Stack>
        </Alert>
      )}
      {view.loaded && <Filesystems view={view} />}
      <ScanSection view={view} />
      {view.loaded && <Images view={view} />}
      {view.loaded && <ProductDataSection view={view} />}
    </Stack>
  );
}

/** The disks: mount, device, type, a usage bar named by its mount with the values as text, free. */
function Filesystems({ view }: { view: StorageView }) {
  const { t, i18n } = useTranslation();
  const bytes = (n: number) => formatBytes(n, i18n.language);
  const usedText = (f: { used: number; size: number; percent: number }) =>
    t('storage.filesystems.used', { used: bytes(f.used), size: bytes(f.size), percent: f.percent });
  return (
    <section aria-labelledby="storage-filesystems-title">
      <Title order={3} id="storage-filesystems-title" mb="xs">
        {t('storage.filesystems.title')}
      </Title>
      <Paper withBorder>
        <Table data-testid="storage-filesystems">
          <Table.Caption>{t('storage.filesystems.caption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('storage.filesystems.mount')}</Table.Th>
              <Table.Th scope="col">{t('storage.filesystems.device')}</Table.Th>
              <Table.Th scope="col">{t('storage.filesystems.type')}</Table.Th>
              <Table.Th scope="col">{t('storage.filesystems.usage')}</Table.Th>
              <Table.Th scope="col">{t('storage.filesystems.free')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.filesystems.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>{t('storage.filesystems.empty')}</Table.Td>
              </Table.Tr>
            )}
            {view.filesystems.map((f) => (
              <Table.Tr key={`${f.device}|${f.mount}`} data-mount={f.mount}>
                <Table.Th scope="row">{f.mount}</Table.Th>
                <Table.Td>{f.device}</Table.Td>
                <Table.Td>{f.type}</Table.Td>
                <Table.Td miw={200}>
                  <Progress.Root>
                    <Progress.Section
                      value={f.percent}
                      color={f.percent >= 90 ? 'red' : f.percent >= 75 ? 'yellow' : 'blue'}
                      aria-label={t('storage.filesystems.usedLabel', { mount: f.mount })}
                      aria-valuetext={usedText(f)}
                    />
                  </Progress.Root>
                  <Text size="sm" mt={4}>
                    {usedText(f)}
                  </Text>
                </Table.Td>
                <Table.Td>{bytes(f.free)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          {view.total && view.filesystems.length > 1 && (
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th scope="row" colSpan={3}>
                  {t('storage.filesystems.total')}
                </Table.Th>
                <Table.Td>{usedText(view.total)}</Table.Td>
                <Table.Td>{bytes(view.total.free)}</Table.Td>
              </Table.Tr>
            </Table.Tfoot>
          )}
        </Table>
      </Paper>
    </section>
  );
}

/** The three image kinds of §3 Storage item, each a table of RepoTags and Size. */
function Images({ view }: { view: StorageView }) {
  const { t, i18n } = useTranslation();
  const bytes = (n: number) => formatBytes(n, i18n.language);
  return (
    <section aria-labelledby="storage-images-title">
      <Title order={3} id="storage-images-title" mb="xs">
        {t('storage.images.title')}
      </Title>
      <Stack gap="md">
        {view.images.map((kind) => (
          <Paper withBorder key={kind.kind}>
            <Table data-testid={`storage-images-${kind.kind}`}>
              <Table.Caption>
                {t(`storage.images.kinds.${kind.kind}`)} —{' '}
                {t('storage.images.summary', { count: kind.count, bytes: bytes(kind.bytes) })}
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('storage.images.tags')}</Table.Th>
                  <Table.Th scope="col">{t('storage.images.size')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {kind.rows.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={2}>{t('storage.images.empty')}</Table.Td>
                  </Table.Tr>
                )}
                {kind.rows.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>
                      {row.tags.length > 0 ? row.tags.join(', ') : t('storage.images.untagged')}
                    </Table.Td>
                    <Table.Td>{bytes(row.size)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {kind.count > kind.rows.length && (
              <Text size="sm" p="xs">
                {t('storage.images.more', { shown: kind.rows.length, count: kind.count })}
              </Text>
            )}
          </Paper>
        ))}
      </Stack>
    </section>
  );
}
