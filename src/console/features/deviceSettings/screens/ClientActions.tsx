/**
 * The client actions of a device (spec §7 restart-client-engine, restart-frp-client,
 * force-refresh-device-settings, connect-cie; machines/deviceSettings/clientAction.machine.ts): a button each,
 * a confirmation dialog (with the CIE address, checked before sending), then the outcome — done, or the
 * device's error. Test ids: settings-action-<action>, settings-action-dialog, settings-action-confirm,
 * settings-action-done, settings-action-failed, settings-cie-url.
 */
import {
  Alert,
  Button,
  CloseButton,
  Group,
  Modal,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CLIENT_ACTIONS } from '../../../../../machines/deviceSettings/clientAction.machine';
import { useActionRef, useActionView } from '../selectors';
import { deviceText, FIELD_STYLES, fieldErrorText } from './SettingsSection';

export function ClientActions({ deviceId, deviceName }: { deviceId: string; deviceName: string }) {
  const { t } = useTranslation();
  const ref = useActionRef(deviceId);
  const view = useActionView(ref);
  if (!ref || !view) return null;
  const running = view.status === 'running';
  const action = view.action;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="settings-actions-title">
      <Stack gap="sm">
        <Title order={3} id="settings-actions-title">
          {t('deviceSettings.actions.title')}
        </Title>
        <Group gap="xs">
          {CLIENT_ACTIONS.map((a) => (
            <Button
              key={a}
              variant="default"
              disabled={running}
              onClick={() => ref.send({ type: 'action.ask', action: a })}
              data-testid={`settings-action-${a}`}
            >
              {t(`deviceSettings.actions.${a}`)}
            </Button>
          ))}
        </Group>
        {view.status === 'done' && action && (
          <Alert color="green" role="status" data-testid="settings-action-done">
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm">{t(`deviceSettings.done.${action}`)}</Text>
              <CloseButton
                aria-label={t('deviceSettings.dismiss')}
                onClick={() => ref.send({ type: 'action.dismiss' })}
              />
            </Group>
          </Alert>
        )}
        {view.status === 'failed' && action && view.error && (
          <Alert
            color="red"
            role="alert"
            data-testid="settings-action-failed"
            title={t('deviceSettings.actionFailed', { action: t(`deviceSettings.actions.${action}`) })}
          >
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm">{deviceText(t, view.error.message)}</Text>
              <CloseButton
                aria-label={t('deviceSettings.dismiss')}
                onClick={() => ref.send({ type: 'action.dismiss' })}
              />
            </Group>
          </Alert>
        )}
      </Stack>
      <Modal
        opened={(view.status === 'confirming' || running) && action !== null}
        onClose={() => {
          if (!running) ref.send({ type: 'action.cancel' });
        }}
        title={action ? t(`deviceSettings.actions.${action}`) : ''}
        data-testid="settings-action-dialog"
      >
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            ref.send({ type: 'action.confirm' });
          }}
        >
          <Stack gap="sm">
            <Text size="sm">
              {action ? t(`deviceSettings.confirm.${action}`, { device: deviceName }) : ''}
            </Text>
            {action === 'connectCie' && (
              <TextInput
                label={t('deviceSettings.cieUrl')}
                placeholder="https://cie.example.com"
                value={view.cieUrl}
                disabled={running}
                onChange={(e) => ref.send({ type: 'action.setUrl', url: e.currentTarget.value })}
                error={fieldErrorText(t, view.cieError ?? undefined)}
                styles={FIELD_STYLES}
                data-testid="settings-cie-url"
                data-autofocus
              />
            )}
            <Group justify="flex-end" gap="xs">
              <Button
                variant="default"
                disabled={running}
                onClick={() => ref.send({ type: 'action.cancel' })}
              >
                {t('deviceSettings.cancel')}
              </Button>
              <Button type="submit" loading={running} data-testid="settings-action-confirm">
                {running ? t('deviceSettings.running') : t('deviceSettings.confirmButton')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}
