/**
 * The device page's Power tab (§7 restartDevice, shutDownDevice, force-shut-down, restartItself; "Sudo":
 * check-sudo-saved, remove-saved-sudo): Reboot, Shut down, Force shut down, Restart client (each confirmed in
 * a dialog), the §5 sudo dialog when the device has no saved password, the action's progress (offline, back
 * online) and "Saved sudo password: Yes/No — Remove".
 *
 * Test ids: power-tab, power-<reboot|shutdown|forceShutdown|restartClient>, power-confirm-dialog,
 * power-confirm, power-sudo-dialog, power-sudo-password, power-sudo-save, power-sudo-submit,
 * power-status (data-step), power-dismiss, power-sudo-saved (data-saved), power-sudo-remove.
 */
import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { PowerActionRef } from '../../../../../machines/power/power.machine';
import type { PowerActionKind } from '../../../../../machines/power/powerAction.machine';
import { FeatureReady } from '../../../shell/FeatureReady';
import { useConnectionView, useDeviceConnectionRef } from '../../devices/selectors';
import '../i18n';
import { textKeyOf, useActionView, usePowerRef, usePowerView, type PowerActionView } from '../selectors';
import { ConfirmDialog, SudoDialog } from './PowerDialogs';

const ACTIONS: readonly PowerActionKind[] = ['reboot', 'shutdown', 'forceShutdown', 'restartClient'];

export default function PowerTab({ deviceId }: { deviceId: string }) {
  return (
    <FeatureReady feature="power">
      <PowerTabReady deviceId={deviceId} />
    </FeatureReady>
  );
}

/** A machine's English text in the interface language (the device's own words as they are). */
export function useMachineText(): (text: string) => string {
  const { t } = useTranslation();
  return (text) => {
    const key = textKeyOf(text);
    return key ? t(key) : text;
  };
}

function PowerTabReady({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const ref = usePowerRef();
  const view = usePowerView(deviceId);
  const connection = useDeviceConnectionRef(deviceId);
  const link = useConnectionView(connection);
  const deviceName = useSelector(connection, (s) => s?.context.device.label) ?? deviceId;
  const open = link.status === 'open';

  useEffect(() => {
    if (open) ref.send({ type: 'sudo.refresh', deviceId });
  }, [ref, deviceId, open]);

  return (
    <Stack gap="lg" data-testid="power-tab">
      <Title order={2}>{t('power.title')}</Title>
      <Text>{t('power.intro', { device: deviceName })}</Text>
      {!open && !view.running && (
        <Alert color="yellow" role="status" data-testid="power-not-connected">
          {t('power.notConnected')}
        </Alert>
      )}
      <Group>
        {ACTIONS.map((action) => (
          <Button
            key={action}
            color={action === 'forceShutdown' ? 'red' : action === 'restartClient' ? 'gray' : undefined}
            variant={action === 'reboot' ? 'filled' : 'light'}
            disabled={!open || view.running}
            data-testid={`power-${action}`}
            onClick={() => ref.send({ type: 'power.start', deviceId, deviceName, action })}
          >
            {t(`power.actions.${action}`)}
          </Button>
        ))}
      </Group>
      {view.action && (
        <ActionPanel
          key={view.action.id}
          action={view.action}
          deviceName={deviceName}
          onDismiss={() => ref.send({ type: 'power.dismiss', deviceId })}
        />
      )}
      <SavedSudo deviceId={deviceId} open={open} />
    </Stack>
  );
}

/** "Saved sudo password: Yes/No — Remove". */
function SavedSudo({ deviceId, open }: { deviceId: string; open: boolean }) {
  const { t } = useTranslation();
  const ref = usePowerRef();
  const sudo = usePowerView(deviceId).sudo;
  const value =
    sudo === null || sudo.saved === null
      ? t('power.saved.unknown')
      : !sudo.needed
        ? t('power.saved.notNeeded')
        : sudo.saved
          ? t('power.saved.yes')
          : t('power.saved.no');
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="power-sudo-title">
      <Group justify="space-between">
        <Text id="power-sudo-title">
          {t('power.saved.label')}:{' '}
          <Text span fw={600} data-testid="power-sudo-saved" data-saved={String(sudo?.saved ?? '')}>
            {value}
          </Text>
        </Text>
        <Button
          variant="light"
          color="red"
          size="xs"
          aria-label={t('power.saved.removeLabel')}
          data-testid="power-sudo-remove"
          disabled={!open || !sudo?.saved || sudo.busy}
          loading={sudo?.busy}
          onClick={() => ref.send({ type: 'sudo.remove', deviceId })}
        >
          {t('power.saved.remove')}
        </Button>
      </Group>
      {sudo?.error && (
        <Text c="red" size="sm" role="alert">
          {t('power.saved.failed', { error: sudo.error })}
        </Text>
      )}
    </Paper>
  );
}

/** The step text of an action. */
function stepText(view: PowerActionView, t: TFunction, text: (s: string) => string) {
  switch (view.step) {
    case 'failed':
      return t('power.steps.failed', { error: text(view.error ?? '') });
    case 'waitingOnline':
      return view.wentOff ? t('power.steps.waitingPoweredOn') : t('power.steps.waitingOnline');
    default:
      return t(`power.steps.${view.step}`);
  }
}

/** One action's progress, its confirm dialog and its sudo dialog. */
function ActionPanel({
  action,
  deviceName,
  onDismiss,
}: {
  action: PowerActionRef;
  deviceName: string;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  const text = useMachineText();
  const view = useActionView(action);
  const waiting = !view.ended && view.step !== 'confirming' && view.step !== 'askingSudo';
  return (
    <>
      <Alert
        color={view.step === 'failed' ? 'red' : view.step === 'done' ? 'green' : 'blue'}
        role="status"
        data-testid="power-status"
        data-step={view.step}
        title={t(`power.actions.${view.action}`)}
      >
        <Group justify="space-between">
          <Group gap="xs">
            {waiting && <Loader size="xs" aria-hidden />}
            <Text>{stepText(view, t, text)}</Text>
          </Group>
          {view.ended && (
            <Button size="xs" variant="default" data-testid="power-dismiss" onClick={onDismiss}>
              {t('power.dismiss')}
            </Button>
          )}
        </Group>
      </Alert>
      <ConfirmDialog action={action} view={view} deviceName={deviceName} />
      <SudoDialog action={action} view={view} deviceName={deviceName} />
    </>
  );
}
