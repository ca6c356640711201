/**
 * The device page's Software tab (issue 16 §1 "Software"; §7 check-version-update, check-stream-engine-update,
 * check-companion-update, check-companion-restart; §4 client update; §8 update failures; §9 restart 10 s after
 * confirm): the client version and the newest release (version, notes, size), "Update to …" with its
 * progress bar, the restart offer and its countdown, the §8 failure texts, and the stream engine and
 * companion service checks.
 *
 * Test ids: software-tab, software-current (data-version), software-check, software-latest,
 * software-update, software-update-status (data-step, data-error-type), software-progress,
 * software-restart, software-later, software-countdown, software-cancel-restart, software-dismiss,
 * software-check-<stream-engine|companion-update|companion-restart>, software-result-<op>,
 * software-on-device (an update under way on the device that this tab did not start).
 */
import { Alert, Button, Group, Loader, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { CheckOp, ClientUpdateRef } from '../../../../../machines/software/software.machine';
import { FeatureReady } from '../../../shell/FeatureReady';
import { useConnectionView, useDeviceConnectionRef } from '../../devices/selectors';
import '../i18n';
import { localeOf } from '../../../i18n/language';
import {
  componentOf,
  deviceUpdateOf,
  formatBytes,
  textKeyOf,
  useSoftwareRef,
  useSoftwareView,
  useUpdateView,
  type UpdateView,
} from '../selectors';

export default function SoftwareTab({ deviceId }: { deviceId: string }) {
  return (
    <FeatureReady feature="software">
      <SoftwareTabReady deviceId={deviceId} />
    </FeatureReady>
  );
}

/** A machine's English text in the interface language (the device's own words as they are). */
function useMachineText(): (text: string) => string {
  const { t } = useTranslation();
  return (text) => {
    const key = textKeyOf(text);
    return key ? t(key) : text;
  };
}

function SoftwareTabReady({ deviceId }: { deviceId: string }) {
  const { t, i18n } = useTranslation();
  const ref = useSoftwareRef();
  const view = useSoftwareView(deviceId);
  const connection = useDeviceConnectionRef(deviceId);
  const link = useConnectionView(connection);
  const deviceName = useSelector(connection, (s) => s?.context.device.label) ?? deviceId;
  const open = link.status === 'open';

  useEffect(() => {
    if (!open) return;
    ref.send({ type: 'software.check', deviceId, op: 'version' });
    ref.send({ type: 'software.check', deviceId, op: 'status' });
  }, [ref, deviceId, open]);

  const versionCheck = view.checks.version;
  const version = view.version;
  const latest = version?.latest ?? null;
  // An update the device runs that this tab did not start (e.g. before a reload of the console).
  const onDevice = view.update ? null : deviceUpdateOf(view.checks.status?.result ?? null);
  return (
    <Stack gap="lg" data-testid="software-tab">
      <Title order={2}>{t('software.title')}</Title>
      <Text>{t('software.intro', { device: deviceName })}</Text>
      {!open && !view.running && (
        <Alert color="yellow" role="status" data-testid="software-not-connected">
          {t('software.notConnected')}
        </Alert>
      )}
      <Paper withBorder p="md" component="section" aria-labelledby="software-client-title">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={3} id="software-client-title">
              {t('software.client.title')}
            </Title>
            <Button
              variant="light"
              size="xs"
              data-testid="software-check"
              disabled={!open}
              loading={versionCheck?.busy}
              onClick={() => ref.send({ type: 'software.check', deviceId, op: 'version' })}
            >
              {t('software.client.check')}
            </Button>
          </Group>
          <Text>
            {t('software.client.current')}:{' '}
            <Text span fw={600} data-testid="software-current" data-version={version?.current ?? ''}>
              {version?.current ?? t('software.client.unknown')}
            </Text>
          </Text>
          {versionCheck?.error && (
            <Text c="red" size="sm" role="alert">
              {t('software.checkFailed', { error: versionCheck.error })}
            </Text>
          )}
          {version && !latest && <Text>{t('software.client.none')}</Text>}
          {latest && (
            <Stack gap={4} data-testid="software-latest" data-version={latest.version}>
              <Text>
                {t('software.client.latest')}: <strong>{latest.version}</strong> · {t('software.client.size')}
                : {formatBytes(latest.size)} · {t('software.client.published')}:{' '}
                {new Date(latest.created_at).toLocaleDateString(localeOf(i18n.language))}
              </Text>
              {latest.notes && (
                <Text size="sm">
                  {t('software.client.notes')}: {latest.notes}
                </Text>
              )}
            </Stack>
          )}
          {onDevice && (
            <Group data-testid="software-on-device">
              <Text>
                {t('software.client.inFlight', {
                  version: onDevice.version ?? '',
                  percent: onDevice.percent,
                })}
              </Text>
              <Button
                variant="light"
                size="xs"
                disabled={!open}
                onClick={() => {
                  ref.send({ type: 'software.check', deviceId, op: 'status' });
                  ref.send({ type: 'software.check', deviceId, op: 'version' });
                }}
              >
                {t('software.client.refresh')}
              </Button>
            </Group>
          )}
          {version?.installed && <Text>{t('software.client.pending', { version: version.installed })}</Text>}
          {version && latest && !version.updateAvailable && !version.installed && (
            <Text c="green.8">{t('software.client.upToDate')}</Text>
          )}
          {version?.updateAvailable && latest && !version.installed && !onDevice && (
            <Group>
              <Text fw={600}>{t('software.client.available', { version: latest.version })}</Text>
              <Button
                data-testid="software-update"
                disabled={!open || view.running}
                onClick={() =>
                  ref.send({ type: 'update.start', deviceId, deviceName, version: latest.version })
                }
              >
                {t('software.client.update', { version: latest.version })}
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>
      {view.update && (
        <UpdatePanel
          key={view.update.id}
          update={view.update}
          onDismiss={() => ref.send({ type: 'update.dismiss', deviceId })}
        />
      )}
      <Components deviceId={deviceId} open={open} />
    </Stack>
  );
}

/** The step's text. */
function stepText(view: UpdateView, t: TFunction, text: (s: string) => string, seconds: number) {
  switch (view.step) {
    case 'downloading':
      return t('software.update.steps.downloading', {
        done: formatBytes(view.bytesDone),
        total: formatBytes(view.bytesTotal),
      });
    case 'countdown':
      return t('software.update.steps.countdown', { seconds });
    case 'failed':
      return t('software.update.steps.failed', { error: text(view.error ?? '') });
    default:
      return t(`software.update.steps.${view.step}`, { version: view.version ?? '' });
  }
}

/** Seconds left until `at` (ms since the epoch), ticking. */
function useSecondsLeft(at: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [at]);
  return at === null ? 0 : Math.max(0, Math.ceil((at - now) / 1000));
}

/** One client update: its step, the progress bar, the restart offer and countdown. */
function UpdatePanel({ update, onDismiss }: { update: ClientUpdateRef; onDismiss: () => void }) {
  const { t } = useTranslation();
  const text = useMachineText();
  const view = useUpdateView(update);
  const seconds = useSecondsLeft(view.restartAt);
  const color = view.step === 'failed' ? 'red' : view.step === 'done' ? 'green' : 'blue';
  return (
    <Alert
      color={color}
      role="status"
      title={t('software.update.title')}
      data-testid="software-update-status"
      data-step={view.step}
      data-error-type={view.errorType ?? ''}
    >
      <Stack gap="sm">
        <Group gap="xs">
          {view.busy && <Loader size="xs" aria-hidden />}
          <Text>{stepText(view, t, text, seconds)}</Text>
        </Group>
        {(view.step === 'downloading' || view.step === 'installing') && (
          <Progress
            value={view.step === 'installing' ? 100 : (view.percent ?? 0)}
            aria-label={t('software.update.progressLabel')}
            data-testid="software-progress"
            data-percent={view.percent ?? 0}
          />
        )}
        {view.step === 'awaitingRestartConfirm' && (
          <Group>
            <Button
              data-testid="software-restart"
              onClick={() => update.send({ type: 'update.confirmRestart' })}
            >
              {t('software.update.restart')}
            </Button>
            <Button
              variant="default"
              data-testid="software-later"
              onClick={() => update.send({ type: 'update.later' })}
            >
              {t('software.update.later')}
            </Button>
          </Group>
        )}
        {view.step === 'countdown' && (
          <Group>
            <Text fw={600} data-testid="software-countdown" aria-live="polite">
              {seconds}
            </Text>
            <Button
              variant="default"
              data-testid="software-cancel-restart"
              onClick={() => update.send({ type: 'update.cancelRestart' })}
            >
              {t('software.update.cancel')}
            </Button>
          </Group>
        )}
        {view.ended && (
          <Group>
            <Button size="xs" variant="default" data-testid="software-dismiss" onClick={onDismiss}>
              {t('software.update.dismiss')}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

const COMPONENT_CHECKS: ReadonlyArray<{ op: Exclude<CheckOp, 'version'>; label: string; name: string }> = [
  {
    op: 'stream-engine',
    label: 'software.components.checkStreamEngine',
    name: 'software.components.streamEngine',
  },
  {
    op: 'companion-update',
    label: 'software.components.checkCompanionUpdate',
    name: 'software.components.companion',
  },
  {
    op: 'companion-restart',
    label: 'software.components.checkCompanionRestart',
    name: 'software.components.companion',
  },
];

/** The stream engine and companion service checks. */
function Components({ deviceId, open }: { deviceId: string; open: boolean }) {
  const { t } = useTranslation();
  const ref = useSoftwareRef();
  const { checks } = useSoftwareView(deviceId);
  const yesNo = (v: boolean) => (v ? t('software.components.yes') : t('software.components.no'));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="software-components-title">
      <Stack gap="sm">
        <Title order={3} id="software-components-title">
          {t('software.components.title')}
        </Title>
        {COMPONENT_CHECKS.map(({ op, label, name }) => {
          const check = checks[op];
          const result = componentOf(check?.result ?? null);
          return (
            <Stack key={op} gap={4}>
              <Group justify="space-between">
                <Text fw={600}>{t(name)}</Text>
                <Button
                  variant="light"
                  size="xs"
                  data-testid={`software-check-${op}`}
                  disabled={!open}
                  loading={check?.busy}
                  onClick={() => ref.send({ type: 'software.check', deviceId, op })}
                >
                  {t(label)}
                </Button>
              </Group>
              <div data-testid={`software-result-${op}`}>
                {check?.error ? (
                  <Text c="red" size="sm" role="alert">
                    {t('software.checkFailed', { error: check.error })}
                  </Text>
                ) : !result ? (
                  <Text size="sm" c="gray.7">
                    {t('software.components.notChecked')}
                  </Text>
                ) : (
                  <Table withRowBorders={false} aria-label={t(label)}>
                    <Table.Tbody>
                      <Table.Tr>
                        <Table.Th scope="row">{t('software.components.installed')}</Table.Th>
                        <Table.Td>{result.installed ?? t('software.components.notInstalled')}</Table.Td>
                      </Table.Tr>
                      <Table.Tr>
                        <Table.Th scope="row">{t('software.components.status')}</Table.Th>
                        <Table.Td>
                          {result.updateAvailable
                            ? t('software.components.updateAvailable')
                            : t('software.components.upToDate')}
                          {result.latest && result.updateAvailable ? ` (${result.latest})` : ''}
                        </Table.Td>
                      </Table.Tr>
                      <Table.Tr>
                        <Table.Th scope="row">{t('software.components.running')}</Table.Th>
                        <Table.Td>{yesNo(result.running)}</Table.Td>
                      </Table.Tr>
                      <Table.Tr>
                        <Table.Th scope="row">{t('software.components.restartNeeded')}</Table.Th>
                        <Table.Td>{yesNo(result.restartNeeded)}</Table.Td>
                      </Table.Tr>
                    </Table.Tbody>
                  </Table>
                )}
                {result?.detail && (
                  <Text size="xs" c="gray.7">
                    {result.detail}
                  </Text>
                )}
              </div>
            </Stack>
          );
        })}
      </Stack>
    </Paper>
  );
}
