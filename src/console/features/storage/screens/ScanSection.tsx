/**
 * "Scan a folder" (§7 get-occupied-storage-of-directory): a form for the folder, then one card per scan with
 * its progress (files, folders, bytes so far; Cancel) and, when done, its largest child folders as a bar
 * chart — a table (folder, size, share) whose bars are drawn with CSS and hidden from assistive technology
 * (the numbers are in the cells).
 */
import { Alert, Badge, Box, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScanRef } from '../../../../../machines/storage/storage.machine';
import {
  formatBytes,
  useScanView,
  useStorageRef,
  type ScanStatus,
  type ScanView,
  type StorageView,
} from '../selectors';

const STATUS_COLOURS: Record<ScanStatus, string> = {
  scanning: 'blue',
  canceling: 'yellow',
  done: 'green',
  failed: 'red',
  canceled: 'gray',
};

export function ScanSection({ view }: { view: StorageView }) {
  const { t } = useTranslation();
  const ref = useStorageRef();
  const [path, setPath] = useState('/');
  const [invalid, setInvalid] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = path.trim();
    if (!value.startsWith('/')) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    ref.send({ type: 'storage.scan', path: value });
  };
  return (
    <section aria-labelledby="storage-scan-title">
      <Title order={3} id="storage-scan-title" mb="xs">
        {t('storage.scan.title')}
      </Title>
      <Stack gap="sm">
        <Text size="sm">{t('storage.scan.intro')}</Text>
        <form onSubmit={submit} data-testid="storage-scan-form" noValidate>
          <Group align="flex-end">
            <TextInput
              label={t('storage.scan.path')}
              description={t('storage.scan.pathHint')}
              value={path}
              onChange={(e) => setPath(e.currentTarget.value)}
              error={invalid ? t('storage.scan.pathInvalid') : undefined}
              maxLength={4096}
              spellCheck={false}
              autoComplete="off"
              w={320}
            />
            <Button type="submit" disabled={!view.deviceId}>
              {t('storage.scan.start')}
            </Button>
          </Group>
        </form>
        {view.scans.map((scan) => (
          <ScanCard key={scan.id} scanRef={scan} />
        ))}
      </Stack>
    </section>
  );
}

function ScanCard({ scanRef }: { scanRef: ScanRef }) {
  const { t, i18n } = useTranslation();
  const ref = useStorageRef();
  const scan = useScanView(scanRef);
  const bytes = (n: number) => formatBytes(n, i18n.language);
  const counts = {
    files: scan.files.toLocaleString(i18n.language),
    dirs: scan.dirs.toLocaleString(i18n.language),
    bytes: bytes(scan.bytes),
  };
  return (
    <Paper withBorder p="sm" data-testid="storage-scan" data-status={scan.status} data-path={scan.path}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Group gap="xs">
            <Text fw={600} component="span" style={{ wordBreak: 'break-all' }}>
              {scan.path}
            </Text>
            <Badge color={STATUS_COLOURS[scan.status]} variant="light">
              {t(`storage.scan.status.${scan.status}`)}
            </Badge>
          </Group>
          {scan.status === 'scanning' && (
            <Button
              size="xs"
              variant="default"
              aria-label={t('storage.scan.cancelLabel', { path: scan.path })}
              onClick={() => ref.send({ type: 'storage.cancelScan', scanId: scan.scanId })}
            >
              {t('storage.scan.cancel')}
            </Button>
          )}
          {!scan.running && (
            <Button
              size="xs"
              variant="subtle"
              onClick={() => ref.send({ type: 'storage.scan', path: scan.path })}
            >
              {t('storage.scan.remove')}
            </Button>
          )}
        </Group>
        {scan.running && (
          <Box>
            <Box
              role="progressbar"
              aria-label={t('storage.scan.progressLabel', { path: scan.path })}
              aria-valuetext={t('storage.scan.progress', counts)}
              h={6}
              bg="blue.1"
              style={{ borderRadius: 3, overflow: 'hidden' }}
            >
              <Box h="100%" w="30%" bg="blue.6" style={{ borderRadius: 3 }} />
            </Box>
            <Text size="sm" mt={4} aria-live="polite" data-testid="storage-scan-progress">
              {t('storage.scan.progress', counts)}
            </Text>
          </Box>
        )}
        {scan.status === 'done' && <ScanResult scan={scan} />}
        {scan.status === 'failed' && scan.error && (
          <Alert color="red" role="alert">
            {t('storage.scan.failed', { error: scan.error.message })}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

/** The totals and the largest folders chart of a finished scan. */
function ScanResult({ scan }: { scan: ScanView }) {
  const { t, i18n } = useTranslation();
  const bytes = (n: number) => formatBytes(n, i18n.language);
  return (
    <Stack gap="xs">
      <Text size="sm">
        {t('storage.scan.result', {
          bytes: bytes(scan.bytes),
          files: scan.files.toLocaleString(i18n.language),
          dirs: scan.dirs.toLocaleString(i18n.language),
        })}
      </Text>
      {scan.errors > 0 && (
        <Text size="sm" c="orange.9">
          {t('storage.scan.unreadable', { count: scan.errors })}
        </Text>
      )}
      {scan.largest.length === 0 ? (
        <Text size="sm">{t('storage.scan.noFolders')}</Text>
      ) : (
        <Table data-testid="storage-largest" withRowBorders={false} verticalSpacing={4}>
          <Table.Caption>{t('storage.scan.chartCaption', { path: scan.path })}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('storage.scan.folder')}</Table.Th>
              <Table.Th scope="col">{t('storage.scan.size')}</Table.Th>
              <Table.Th scope="col" w="45%">
                {t('storage.scan.share')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {scan.largest.map((f) => (
              <Table.Tr key={f.name}>
                <Table.Th scope="row" fw={400} style={{ wordBreak: 'break-all' }}>
                  {f.name === '.' ? t('storage.scan.filesHere') : f.name}
                </Table.Th>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{bytes(f.bytes)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Box aria-hidden h={14} w="100%" bg="gray.1" style={{ borderRadius: 2 }}>
                      <Box h="100%" w={`${f.bar}%`} bg="teal.7" style={{ borderRadius: 2 }} />
                    </Box>
                    <Text size="sm" w={44} ta="right">
                      {f.share} %
                    </Text>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
