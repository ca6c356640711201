/**
 * `/alarm-channels` (spec §2 auth route; issue 11 "Channels … Every channel has a Test button … each attempt is
 * visible"): the user's channels with their delivery counts, a form to add one (e-mail, webhook, Telegram, Slack,
 * Web Push), a Test button per channel showing the attempt's result, the delivery log of a channel, the
 * webhook signing secret shown once, and a link to the embedded SMTP catcher's mailbox (/dev/mailbox).
 * Only reads the alarmChannels actor's view. Test ids: channels-screen, channel-form, channel-name,
 * channel-kind, channel-target, channel-secret, channel-create, channel-row-<name>, channel-test-<name>,
 * channel-test-result-<name>, channel-log-<name>, channel-log, attempt-row, channel-secret-shown.
 */
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { CHANNEL_KINDS, type ChannelInput, type ChannelKind } from '../../../../protocol/alarmChannels';
import { DeleteIcon } from '../../../shell/icons';
import '../i18n';
import { useChannelsRef, useChannelsView, type ChannelRowView } from '../selectors';

/** A green dark enough for small text and white badge text on light rows (Mantine's green.9 is 4.4:1, axe wants 4.5). */
const OK_GREEN = '#1b5e20';

function inputOf(kind: ChannelKind, name: string, target: string, secret: string): ChannelInput {
  switch (kind) {
    case 'email':
      return { name, config: { kind, to: target } };
    case 'webhook':
      return { name, config: { kind, url: target } };
    case 'telegram':
      return { name, config: { kind, chat_id: target }, secret };
    case 'slack':
      return { name, config: { kind }, secret };
    default:
      return { name, config: { kind: 'webpush' } };
  }
}

function ChannelForm({ saving, error }: { saving: boolean; error: string | null }) {
  const { t } = useTranslation();
  const ref = useChannelsRef();
  const [kind, setKind] = useState<ChannelKind>('webhook');
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [secret, setSecret] = useState('');
  const targetLabel = { email: 'to', webhook: 'url', telegram: 'chatId', slack: null, webpush: null }[kind];
  const secretLabel = kind === 'telegram' ? 'botToken' : kind === 'slack' ? 'slackUrl' : null;
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      data-testid="channel-form"
      onSubmit={(e) => {
        e.preventDefault();
        ref.send({
          type: 'channels.create',
          input: inputOf(kind, name.trim(), target.trim(), secret.trim()),
        });
        setName('');
        setTarget('');
        setSecret('');
      }}
    >
      <Title order={2} size="h4" mb="sm">
        {t('alarmChannels.add')}
      </Title>
      <Group align="flex-end" wrap="wrap">
        <NativeSelect
          label={t('alarmChannels.kind')}
          value={kind}
          onChange={(e) => setKind(e.currentTarget.value as ChannelKind)}
          data={CHANNEL_KINDS.map((k) => ({ value: k, label: t(`alarmChannels.kinds.${k}`) }))}
          data-testid="channel-kind"
        />
        <TextInput
          label={t('alarmChannels.name')}
          value={name}
          required
          onChange={(e) => setName(e.currentTarget.value)}
          data-testid="channel-name"
        />
        {targetLabel && (
          <TextInput
            label={t(`alarmChannels.${targetLabel}`)}
            value={target}
            required
            onChange={(e) => setTarget(e.currentTarget.value)}
            data-testid="channel-target"
            w={320}
          />
        )}
        {secretLabel && (
          <TextInput
            label={t(`alarmChannels.${secretLabel}`)}
            value={secret}
            required
            onChange={(e) => setSecret(e.currentTarget.value)}
            data-testid="channel-secret"
            w={320}
          />
        )}
        <Button type="submit" loading={saving} data-testid="channel-create">
          {t('alarmChannels.create')}
        </Button>
      </Group>
      {error && (
        <Alert color="red" mt="sm" role="alert">
          {error}
        </Alert>
      )}
    </Paper>
  );
}

function TestResult({ row }: { row: ChannelRowView }) {
  const { t } = useTranslation();
  const a = row.lastTest;
  if (!a) return null;
  return (
    <Text
      size="sm"
      c={a.ok ? OK_GREEN : 'red.9'}
      role="status"
      data-testid={`channel-test-result-${row.name}`}
    >
      {a.ok
        ? t('alarmChannels.testOk', { code: a.response_code ?? '', ms: a.duration_ms })
        : t('alarmChannels.testFailed', { error: a.error ?? String(a.response_code ?? '') })}
    </Text>
  );
}

export default function AlarmChannelsScreen() {
  const { t, i18n } = useTranslation();
  const ref = useChannelsRef();
  const view = useChannelsView();
  useEffect(() => {
    ref.send({ type: 'channels.load' });
  }, [ref]);
  const time = (iso: string) =>
    new Date(iso).toLocaleString(
      i18n.language === 'ch' ? 'zh' : i18n.language === 'jp' ? 'ja' : i18n.language,
    );

  return (
    <Stack gap="md" data-testid="channels-screen" aria-busy={view.loading}>
      <Group justify="space-between">
        <Title order={1}>{t('alarmChannels.title')}</Title>
        <Group gap="xs">
          <Anchor component={Link} to="/dev/mailbox" size="sm">
            {t('alarmChannels.mailbox')}
          </Anchor>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t('alarmChannels.refresh')}
            disabled={view.acting}
            onClick={() => ref.send({ type: 'channels.load' })}
          >
            <span aria-hidden="true">↻</span>
          </ActionIcon>
        </Group>
      </Group>
      <Text c="dimmed">{t('alarmChannels.intro')}</Text>
      {view.error && (
        <Alert color="red" role="alert">
          {view.error}
        </Alert>
      )}
      <ChannelForm saving={view.saving} error={view.formError} />
      {view.rows.length === 0 && !view.loading ? (
        <Text>{t('alarmChannels.none')}</Text>
      ) : (
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('alarmChannels.name')}</Table.Th>
              <Table.Th>{t('alarmChannels.kind')}</Table.Th>
              <Table.Th>{t('alarmChannels.target')}</Table.Th>
              <Table.Th>{t('alarmChannels.delivered')}</Table.Th>
              <Table.Th>{t('alarmChannels.result')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.rows.map((r) => (
              <Table.Tr key={r.id} data-testid={`channel-row-${r.name}`}>
                <Table.Td>
                  {r.name}{' '}
                  <Badge size="xs" color={r.enabled ? OK_GREEN : 'gray.7'}>
                    {t(r.enabled ? 'alarmChannels.enabled' : 'alarmChannels.disabled')}
                  </Badge>
                </Table.Td>
                <Table.Td>{t(`alarmChannels.kinds.${r.kind}`)}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>
                  {r.kind === 'webpush' ? t('alarmChannels.browsers', { count: r.subscriptions }) : r.target}
                </Table.Td>
                <Table.Td>
                  {r.counts.delivered} · {t('alarmChannels.pending')} {r.counts.pending} ·{' '}
                  {t('alarmChannels.failed')} {r.counts.failed}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      loading={r.busy}
                      disabled={view.acting && !r.busy}
                      aria-label={t('alarmChannels.testChannel', { name: r.name })}
                      onClick={() => ref.send({ type: 'channels.test', id: r.id })}
                      data-testid={`channel-test-${r.name}`}
                    >
                      {t('alarmChannels.test')}
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      disabled={view.acting}
                      onClick={() =>
                        ref.send(
                          r.logOpen ? { type: 'channels.closeLog' } : { type: 'channels.openLog', id: r.id },
                        )
                      }
                      aria-expanded={r.logOpen}
                      data-testid={`channel-log-${r.name}`}
                    >
                      {t('alarmChannels.log')}
                    </Button>
                    {r.kind === 'webpush' && (
                      <Button
                        size="xs"
                        variant="default"
                        disabled={view.acting}
                        onClick={() => ref.send({ type: 'channels.subscribe', id: r.id })}
                      >
                        {t('alarmChannels.subscribe')}
                      </Button>
                    )}
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      disabled={view.acting}
                      aria-label={t('alarmChannels.remove', { name: r.name })}
                      onClick={() => ref.send({ type: 'channels.delete', id: r.id })}
                    >
                      <DeleteIcon />
                    </ActionIcon>
                  </Group>
                  <TestResult row={r} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {view.log && (
        <Paper withBorder p="md" data-testid="channel-log" aria-busy={view.log.loading}>
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4">
              {t('alarmChannels.logOf', { name: view.log.name })}
            </Title>
            <Button size="xs" variant="default" onClick={() => ref.send({ type: 'channels.closeLog' })}>
              {t('alarmChannels.closeLog')}
            </Button>
          </Group>
          {view.log.attempts.length === 0 ? (
            <Text>{t('alarmChannels.noAttempts')}</Text>
          ) : (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('alarmChannels.time')}</Table.Th>
                  <Table.Th>{t('alarmChannels.key')}</Table.Th>
                  <Table.Th>{t('alarmChannels.result')}</Table.Th>
                  <Table.Th>{t('alarmChannels.code')}</Table.Th>
                  <Table.Th>{t('alarmChannels.duration')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {view.log.attempts.map((a) => (
                  <Table.Tr key={a.id} data-testid="attempt-row">
                    <Table.Td>{time(a.at)}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>
                      {a.test
                        ? t('alarmChannels.testSend')
                        : `${a.idempotency_key ?? ''} (${t('alarmChannels.try', { n: a.attempt ?? 1 })})`}
                    </Table.Td>
                    <Table.Td>
                      {a.ok ? t('alarmChannels.ok') : `${t('alarmChannels.error')}: ${a.error ?? ''}`}
                    </Table.Td>
                    <Table.Td>{a.response_code ?? '—'}</Table.Td>
                    <Table.Td>{t('alarmChannels.ms', { ms: a.duration_ms })}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
      )}
      <Modal
        opened={view.secret !== null}
        onClose={() => ref.send({ type: 'channels.secret.dismiss' })}
        title={view.secret ? t('alarmChannels.secretTitle', { name: view.secret.name }) : ''}
      >
        <Stack>
          <Text size="sm">{t('alarmChannels.secretText')}</Text>
          <Code block data-testid="channel-secret-shown">
            {view.secret?.secret}
          </Code>
          <Button onClick={() => ref.send({ type: 'channels.secret.dismiss' })}>
            {t('alarmChannels.secretDone')}
          </Button>
        </Stack>
      </Modal>
    </Stack>
  );
}
