/**
 * /control-panel/records (§2 auth route; issue 16 §2 records; §8 "Records: device does not exist or not
 * connected for removal"; §9 "Recorded video codec vp8"): choose a connected device (the others disabled, with
 * why), its recordings (name, camera, size, date) with Play (read in chunks → <video> from a Blob URL),
 * Download, Remove (confirmation), and an upload input to put a .webm on the device.
 * Test ids: records-screen, records-device, records-table, records-row-<name>, records-upload, records-player,
 * records-transfer, records-error, records-confirm.
 */
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  FileInput,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMachine } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { NOT_CONNECTED_FOR_REMOVAL } from '../../../../../machines/records/records.machine';
import type { TransferInput } from '../../../../../machines/records/transfer.machine';
import { transferLogic } from '../actors';
import '../i18n';
import { formatSize, useRecordDevices, useRecordsRef, useRecordsView } from '../selectors';

type Job = TransferInput & { purpose: 'play' | 'download' | 'upload'; key: number };

function Transfer({ job, onEnd }: { job: Job; onEnd: (blob: Blob | null) => void }) {
  const { t } = useTranslation();
  const [s, send] = useMachine(transferLogic(), { input: job });
  useEffect(() => {
    if (s.value === 'done') onEnd(s.context.blob);
    if (s.value === 'cancelled') onEnd(null);
  }, [s.value, s.context.blob, onEnd]);
  const percent = s.context.total ? Math.round((100 * s.context.done) / s.context.total) : 0;
  const label = t(job.direction === 'upload' ? 'records.uploading' : 'records.downloading', {
    name: job.name,
  });
  return (
    <Stack gap={4} data-testid="records-transfer">
      <Text size="sm">{label}</Text>
      {s.value === 'failed' ? (
        <Group>
          <Text size="sm" c="red" role="alert">
            {t('records.failed', { error: s.context.error })}
          </Text>
          <Button size="xs" onClick={() => send({ type: 'retry' })}>
            {t('records.retry')}
          </Button>
          <Button size="xs" variant="default" onClick={() => onEnd(null)}>
            {t('records.close')}
          </Button>
        </Group>
      ) : (
        <Group>
          <Progress value={percent} aria-label={label} style={{ flex: 1 }} />
          <Text size="xs">{t('records.progress', { percent })}</Text>
          <Button size="xs" variant="default" onClick={() => send({ type: 'cancel' })}>
            {t('records.cancelTransfer')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

export default function RecordsScreen() {
  const { t, i18n } = useTranslation();
  const records = useRecordsRef();
  const view = useRecordsView();
  const devices = useRecordDevices();
  const [job, setJob] = useState<Job | null>(null);
  const [player, setPlayer] = useState<{ name: string; url: string } | null>(null);
  const [badFile, setBadFile] = useState(false);
  const current = devices.find((d) => d.deviceId === view.deviceId);
  const firstConnected = devices.find((d) => d.connected);

  // Choose the first connected device; keep the machine told of the chosen one's connection.
  useEffect(() => {
    if (!current && firstConnected)
      records.send({ type: 'device.select', deviceId: firstConnected.deviceId, connected: true });
    else if (current) {
      records.send({ type: 'device.connection', connected: current.connected });
      if (current.connected && view.state === 'offline') records.send({ type: 'refresh' });
    }
  }, [current, firstConnected, records, view.state]);

  useEffect(
    () => () => {
      if (player) URL.revokeObjectURL(player.url);
    },
    [player],
  );

  const start = (purpose: Job['purpose'], name: string, blob?: Blob) =>
    view.deviceId &&
    setJob({
      purpose,
      name,
      blob,
      deviceId: view.deviceId,
      direction: purpose === 'upload' ? 'upload' : 'download',
      key: Date.now(),
    });

  const onEnd = (blob: Blob | null) => {
    const done = job;
    setJob(null);
    if (!done) return;
    if (done.purpose === 'upload') records.send({ type: 'refresh' });
    else if (blob && done.purpose === 'play') setPlayer({ name: done.name, url: URL.createObjectURL(blob) });
    else if (blob && done.purpose === 'download') {
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = done.name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    }
  };

  const errorText =
    view.error === NOT_CONNECTED_FOR_REMOVAL ? t('records.texts.notConnectedForRemoval') : view.error;
  const dateFmt = new Intl.DateTimeFormat(
    i18n.language === 'ch' ? 'zh' : i18n.language === 'jp' ? 'ja' : i18n.language,
    {
      dateStyle: 'medium',
      timeStyle: 'short',
    },
  );

  return (
    <Stack gap="md" data-testid="records-screen">
      <Title order={1}>{t('records.title')}</Title>
      <Text size="sm">{t('records.intro')}</Text>
      {devices.length === 0 || !firstConnected ? (
        <Alert color="blue" title={t('records.title')} data-testid="records-no-device">
          <Text size="sm">{t('records.noDevice')}</Text>
          <Anchor component={Link} to="/control-panel/devices" size="sm">
            {t('records.connectDevices')}
          </Anchor>
        </Alert>
      ) : null}
      {devices.length > 0 && (
        <Group align="end">
          <NativeSelect
            label={t('records.device')}
            data-testid="records-device"
            w={320}
            value={view.deviceId ?? ''}
            onChange={(e) => {
              const d = devices.find((x) => x.deviceId === e.currentTarget.value);
              if (d) records.send({ type: 'device.select', deviceId: d.deviceId, connected: d.connected });
            }}
            data={[
              ...(view.deviceId ? [] : [{ value: '', label: '—', disabled: true }]),
              ...devices.map((d) => ({
                value: d.deviceId,
                label: d.connected ? d.name : t('records.notConnected', { name: d.name }),
                disabled: !d.connected,
              })),
            ]}
          />
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t('records.refresh')}
            disabled={!current?.connected}
            onClick={() => records.send({ type: 'refresh' })}
          >
            <span aria-hidden="true">↻</span>
          </ActionIcon>
          <FileInput
            w={280}
            label={t('records.upload')}
            data-testid="records-upload"
            accept="video/webm,.webm"
            disabled={!current?.connected || !!job}
            value={null}
            onChange={(f) => {
              if (!f) return;
              const ok = /\.webm$/i.test(f.name);
              setBadFile(!ok);
              if (ok) start('upload', f.name.replace(/[^A-Za-z0-9 ._-]/g, '_').replace(/^[. ]+/, ''), f);
            }}
            error={badFile ? t('records.badFile') : undefined}
          />
        </Group>
      )}
      {view.state === 'offline' && <Alert color="yellow">{t('records.offline')}</Alert>}
      {errorText && (
        <Alert
          color="red"
          data-testid="records-error"
          role="alert"
          withCloseButton
          onClose={() => records.send({ type: 'error.dismiss' })}
        >
          {errorText}
        </Alert>
      )}
      {job && <Transfer key={job.key} job={job} onEnd={onEnd} />}
      {player && (
        <Stack gap={4} data-testid="records-player">
          <Group justify="space-between">
            <Text size="sm">{t('records.player', { name: player.name })}</Text>
            <Button size="xs" variant="default" onClick={() => setPlayer(null)}>
              {t('records.close')}
            </Button>
          </Group>
          <video
            src={player.url}
            controls
            autoPlay
            muted
            style={{ maxWidth: 640 }}
            aria-label={t('records.player', { name: player.name })}
          />
        </Stack>
      )}
      {view.state === 'loading' && (
        <Group>
          <Loader size="sm" />
          <Text size="sm">{t('records.loading')}</Text>
        </Group>
      )}
      {view.deviceId &&
        current?.connected &&
        view.state !== 'loading' &&
        view.items.length === 0 &&
        view.state !== 'failed' && (
          <Text size="sm" data-testid="records-empty">
            {t('records.empty')}
          </Text>
        )}
      {view.items.length > 0 && (
        <Table data-testid="records-table" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('records.name')}</Table.Th>
              <Table.Th>{t('records.camera')}</Table.Th>
              <Table.Th>{t('records.size')}</Table.Th>
              <Table.Th>{t('records.date')}</Table.Th>
              <Table.Th>{t('records.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.items.map((r) => (
              <Table.Tr key={r.name} data-testid={`records-row-${r.name}`}>
                <Table.Td>{r.name}</Table.Td>
                <Table.Td>{r.camera ?? '—'}</Table.Td>
                <Table.Td>{formatSize(r.size)}</Table.Td>
                <Table.Td>{dateFmt.format(new Date(r.created))}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('records.play', { name: r.name })}
                      disabled={!!job}
                      onClick={() => start('play', r.name)}
                    >
                      <span aria-hidden="true">▶</span>
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('records.download', { name: r.name })}
                      disabled={!!job}
                      onClick={() => start('download', r.name)}
                    >
                      <span aria-hidden="true">⬇</span>
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('records.remove', { name: r.name })}
                      onClick={() => records.send({ type: 'remove.ask', name: r.name })}
                    >
                      <span aria-hidden="true">✕</span>
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal
        opened={view.state === 'confirming' || view.state === 'removing'}
        onClose={() => records.send({ type: 'remove.cancel' })}
        title={t('records.removeTitle')}
      >
        <Stack data-testid="records-confirm">
          <Text size="sm">{t('records.removeConfirm', { name: view.target })}</Text>
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => records.send({ type: 'remove.cancel' })}
              disabled={view.state === 'removing'}
            >
              {t('records.cancel')}
            </Button>
            <Button
              color="red"
              loading={view.state === 'removing'}
              onClick={() => records.send({ type: 'remove.confirm' })}
            >
              {t('records.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
