/**
 * The device page's Overview tab: the §3 Device facts and, while connected, what the device reports (the
 * devices feature's DeviceDetails), the link (Connect / Disconnect, §4), the GPU driver check (x86 only, §5),
 * a new device token (§7 generate_token; §8 "Generated!", shown once and copied, "New token is copied to
 * clipboard.") and deleting the device (§7 DELETE device; §8 "Delete devices failed: issue on our end.").
 */
import { Alert, Button, Code, Group, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceDetails } from '../../devices/screens/DeviceDetails';
import { useConnectionView, useDeviceConnectionRef, useDevicePoolRef } from '../../devices/selectors';
import { useDevicePageRef, useDevicePageView } from '../selectors';

export function OverviewTab({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const page = useDevicePageRef();
  const view = useDevicePageView();
  const pool = useDevicePoolRef();
  const connection = useDeviceConnectionRef(deviceId);
  const link = useConnectionView(connection);
  const device = view.device;
  if (!device) return null;
  const open = link.status === 'open';

  return (
    <Stack gap="md">
      <Group>
        {link.canConnect ? (
          <Button
            onClick={() => pool.send({ type: 'device.connect', device })}
            data-testid="overview-connect"
          >
            {link.down ? t('devices.retry') : t('devices.connect')}
          </Button>
        ) : (
          <Button
            variant="default"
            onClick={() => pool.send({ type: 'device.disconnect', deviceId })}
            data-testid="overview-disconnect"
          >
            {t('devices.disconnect')}
          </Button>
        )}
      </Group>
      <DeviceDetails device={device} />

      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        <Paper withBorder p="md" component="section" aria-labelledby="gpu-title">
          <Stack gap="xs">
            <Title order={2} size="h5" id="gpu-title">
              {t('devicePage.gpuTitle')}
            </Title>
            <Button
              variant="light"
              onClick={() => page.send({ type: 'gpu.check' })}
              loading={view.gpu.checking}
              disabled={!open && device.chipset_id === '0'}
              data-testid="gpu-check"
            >
              {view.gpu.checking ? t('devicePage.gpuChecking') : t('devicePage.gpuCheck')}
            </Button>
            {!open && device.chipset_id === '0' && (
              <Text size="sm" c="dimmed">
                {t('devicePage.gpuNeedsLink')}
              </Text>
            )}
            <div aria-live="polite" data-testid="gpu-result">
              {view.gpu.result && (
                <Text size="sm">
                  {view.gpu.result.driver_version
                    ? t('devicePage.gpuVersion', { version: view.gpu.result.driver_version })
                    : t('devicePage.gpuNone')}
                  {view.gpu.result.gpus.length > 0 &&
                    ` · ${t('devicePage.gpus', { names: view.gpu.result.gpus.join(', ') })}`}
                </Text>
              )}
              {view.gpu.error && (
                <Text size="sm" c="red.8">
                  {view.gpu.error}
                </Text>
              )}
            </div>
          </Stack>
        </Paper>

        <Paper withBorder p="md" component="section" aria-labelledby="token-title">
          <Stack gap="xs">
            <Title order={2} size="h5" id="token-title">
              {t('devicePage.tokenTitle')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('devicePage.tokenHint')}
            </Text>
            <Button
              variant="light"
              onClick={() => page.send({ type: 'token.ask' })}
              loading={view.token.busy}
              data-testid="token-generate"
            >
              {t('devicePage.tokenGenerate')}
            </Button>
            {view.token.error && (
              <Text size="sm" c="red.8" role="alert">
                {view.token.error}
              </Text>
            )}
          </Stack>
        </Paper>

        <Paper withBorder p="md" component="section" aria-labelledby="delete-title">
          <Stack gap="xs">
            <Title order={2} size="h5" id="delete-title">
              {t('devicePage.dangerTitle')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('devicePage.deleteHint')}
            </Text>
            <Button
              color="red"
              variant="light"
              onClick={() => page.send({ type: 'removal.ask' })}
              loading={view.removal.busy}
              data-testid="device-delete"
            >
              {t('devicePage.delete')}
            </Button>
            {view.removal.error && (
              <Alert color="red" role="alert" data-testid="device-delete-error">
                {view.removal.error}
              </Alert>
            )}
          </Stack>
        </Paper>
      </SimpleGrid>

      <Modal
        opened={view.token.asking}
        onClose={() => page.send({ type: 'token.cancel' })}
        title={t('devicePage.tokenConfirmTitle')}
      >
        <Stack>
          <Text size="sm">{t('devicePage.tokenHint')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => page.send({ type: 'token.cancel' })}>
              {t('devicePage.cancel')}
            </Button>
            <Button onClick={() => page.send({ type: 'token.confirm' })} data-testid="token-confirm">
              {t('devicePage.tokenConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <TokenShown token={view.token.shown} onDone={() => page.send({ type: 'token.dismiss' })} />

      <Modal
        opened={view.removal.asking}
        onClose={() => page.send({ type: 'removal.cancel' })}
        title={t('devicePage.deleteConfirmTitle', { label: device.label })}
      >
        <Stack>
          <Text size="sm">{t('devicePage.deleteHint')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => page.send({ type: 'removal.cancel' })}>
              {t('devicePage.cancel')}
            </Button>
            <Button
              color="red"
              onClick={() => page.send({ type: 'removal.confirm' })}
              data-testid="delete-confirm"
            >
              {t('devicePage.deleteConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** §8 "Generated!": the token once, copied to the clipboard when it arrives (and on request). */
function TokenShown({ token, onDone }: { token: string | null; onDone: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = (value: string) =>
    navigator.clipboard.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  useEffect(() => {
    setCopied(null);
    if (token) void copy(token);
  }, [token]);
  return (
    <Modal opened={token !== null} onClose={onDone} title={t('devicePage.tokenGenerated')}>
      <Stack>
        <Text size="sm">{t('devicePage.tokenOnce')}</Text>
        <Code block data-testid="token-value" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {token}
        </Code>
        <Text size="sm" aria-live="polite" data-testid="token-copied">
          {copied === true
            ? t('devicePage.tokenCopied')
            : copied === false
              ? t('devicePage.tokenCopyFailed')
              : ''}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => token && void copy(token)}>
            {t('devicePage.tokenCopy')}
          </Button>
          <Button onClick={onDone} data-testid="token-done">
            {t('devicePage.tokenDone')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
