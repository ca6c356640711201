/**
 * /download (§2 route; the device client for x86 and Jetson): the published client release (version, size,
 * SHA-256), what a device needs per kind (Node, ffmpeg, Docker, JetPack), and a form that names a new device:
 * the server creates it with its token (§8 "Generated!", shown once) and the page shows the one-line install
 * command and the npm command, each with a copy button.
 * Test ids: download-screen, download-release, download-version, download-sha256, download-requirements-<kind>,
 * download-form, download-name, download-kind, download-create, download-created, download-curl,
 * download-npm, copy-curl, copy-npm, download-another, download-error.
 */
import {
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  List,
  Loader,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AGENT_NODE_MIN, type DeviceKind } from '../../../../protocol/download';
import { CopyButton } from '../../repositories/screens/CopyButton';
import { formatBytes } from '../../repositories/selectors';
import '../../repositories/i18n';
import '../i18n';
import { REQUIREMENTS, useDownloadRef, useDownloadView } from '../selectors';

function Command({
  title,
  help,
  text,
  copyLabel,
  id,
}: {
  title: string;
  help: string;
  text: string;
  copyLabel: string;
  id: string;
}) {
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      <Text size="xs">{help}</Text>
      <Group gap="xs" wrap="nowrap" align="start">
        <Code
          block
          data-testid={`download-${id}`}
          style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap', flex: 1 }}
        >
          {text}
        </Code>
        <CopyButton text={text} label={copyLabel} testId={`copy-${id}`} />
      </Group>
    </Stack>
  );
}

export default function DownloadScreen() {
  const { t, i18n } = useTranslation();
  const ref = useDownloadRef();
  const view = useDownloadView();
  const [label, setLabel] = useState('');
  const [kind, setKind] = useState<DeviceKind>('x86');
  useEffect(() => {
    ref.send({ type: 'download.load' });
  }, [ref]);
  const dateFmt = new Intl.DateTimeFormat(
    i18n.language === 'ch' ? 'zh' : i18n.language === 'jp' ? 'ja' : i18n.language,
    { dateStyle: 'medium' },
  );
  return (
    <Stack gap="md" data-testid="download-screen">
      <Title order={1}>{t('download.title')}</Title>
      <Text size="sm">{t('download.intro')}</Text>
      {view.state === 'idle' || (view.state === 'loading' && !view.server) ? (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text size="sm">{t('download.loading')}</Text>
        </Group>
      ) : view.state === 'failed' ? (
        <Alert color="red" role="alert" data-testid="download-error">
          <Text size="sm">{t('download.failed', { error: view.error })}</Text>
          <Button size="xs" mt="xs" onClick={() => ref.send({ type: 'download.retry' })}>
            {t('download.retry')}
          </Button>
        </Alert>
      ) : (
        <>
          <Paper withBorder p="md" data-testid="download-release">
            <Title order={2} size="h4" mb="xs">
              {t('download.release')}
            </Title>
            {view.release ? (
              <Stack gap={4}>
                <Text size="sm" data-testid="download-version" data-version={view.release.version}>
                  {t('download.version', { version: view.release.version })} ·{' '}
                  {t('download.published', { date: dateFmt.format(new Date(view.release.created_at)) })}
                </Text>
                <Text size="sm">
                  {t('download.size')}: {formatBytes(view.release.size)}
                </Text>
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm">{t('download.sha256')}:</Text>
                  <Code data-testid="download-sha256" style={{ wordBreak: 'break-all' }}>
                    {view.release.sha256}
                  </Code>
                </Group>
              </Stack>
            ) : (
              <Text size="sm">{t('download.noRelease')}</Text>
            )}
          </Paper>
          <Title order={2} size="h4">
            {t('download.requirements')}
          </Title>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {(['x86', 'jetson'] as const).map((k) => (
              <Paper withBorder p="md" key={k} data-testid={`download-requirements-${k}`}>
                <Title order={3} size="h5" mb="xs">
                  {t(`download.${k}`)}
                </Title>
                <List size="sm">
                  {REQUIREMENTS[k].map((key) => (
                    <List.Item key={key}>{t(`download.${key}`, { version: AGENT_NODE_MIN })}</List.Item>
                  ))}
                </List>
              </Paper>
            ))}
          </SimpleGrid>
          <Paper withBorder p="md">
            <Title order={2} size="h4" mb="xs">
              {t('download.addDevice')}
            </Title>
            {view.created ? (
              <Stack gap="sm" data-testid="download-created">
                <Alert color="green" title={t('download.created', { name: view.created.label })}>
                  <Text size="sm">{t('download.tokenOnce')}</Text>
                </Alert>
                <Command
                  id="curl"
                  title={t('download.curlTitle')}
                  help={t('download.curlHelp')}
                  text={view.created.commands.curl}
                  copyLabel={t('download.copyCurl')}
                />
                <Command
                  id="npm"
                  title={t('download.npmTitle')}
                  help={t('download.npmHelp')}
                  text={view.created.commands.npm}
                  copyLabel={t('download.copyNpm')}
                />
                <Group>
                  <Button
                    variant="default"
                    data-testid="download-another"
                    onClick={() => ref.send({ type: 'device.another' })}
                  >
                    {t('download.another')}
                  </Button>
                  <Anchor component={Link} to="/control-panel/devices" size="sm">
                    {t('download.openDevices')}
                  </Anchor>
                </Group>
              </Stack>
            ) : (
              <form
                data-testid="download-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  ref.send({ type: 'device.create', label, kind });
                }}
              >
                <Stack gap="sm">
                  <Text size="sm">{t('download.addIntro')}</Text>
                  <Group align="start">
                    <TextInput
                      label={t('download.deviceName')}
                      withAsterisk
                      w={280}
                      data-testid="download-name"
                      value={label}
                      maxLength={100}
                      error={view.invalid ? t('download.nameRequired') : undefined}
                      onChange={(e) => setLabel(e.currentTarget.value)}
                    />
                    <NativeSelect
                      label={t('download.kind')}
                      w={200}
                      data-testid="download-kind"
                      value={kind}
                      onChange={(e) => setKind(e.currentTarget.value as DeviceKind)}
                      data={[
                        { value: 'x86', label: t('download.x86') },
                        { value: 'jetson', label: t('download.jetson') },
                      ]}
                    />
                  </Group>
                  {view.error && (
                    <Alert color="red" role="alert" data-testid="download-error">
                      {t('download.createFailed', { error: view.error })}
                    </Alert>
                  )}
                  <Group>
                    <Button type="submit" loading={view.state === 'creating'} data-testid="download-create">
                      {t('download.create')}
                    </Button>
                  </Group>
                </Stack>
              </form>
            )}
          </Paper>
        </>
      )}
    </Stack>
  );
}
