/**
 * The progress of one container action (§4; §3 Docker process): its step, a progress bar while the image
 * downloads (role progressbar with aria-valuenow and a label naming the action, environment and device),
 * Cancel while the download runs, and its outcome (the §8 failure text and the device's words) until it is
 * dismissed. Reads the action actor through `actionToView`.
 */
import { Alert, Button, Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { textKeyOf } from './texts';
import { useActionsRef, useActionView, type ContainerActionRef } from '../selectors';

export function ActionProgress({
  actionRef,
  testId,
}: {
  actionRef: ContainerActionRef | undefined;
  testId: string;
}) {
  const { t } = useTranslation();
  const registry = useActionsRef();
  const view = useActionView(actionRef);
  if (!view) return null;
  const actionName = t(`containers.actionNames.${view.action}`, { defaultValue: view.action });
  const label = t('containers.progressLabel', {
    action: actionName,
    env: view.envName ?? view.docker,
    device: view.deviceName,
  });
  const errorKey = view.error ? textKeyOf(view.error) : null;
  // A §8 / contract text as the message (e.g. "The device went offline…") is shown in the interface language.
  const messageKey = view.message ? textKeyOf(view.message) : null;
  return (
    <Stack gap={4} data-testid={testId} data-step={view.step} aria-live="polite">
      <Group gap="xs" wrap="nowrap">
        {view.busy && <Loader size="xs" aria-hidden />}
        <Text size="sm">
          {label}: {t(`containers.steps.${view.step}`)}
        </Text>
      </Group>
      {view.downloading && (
        <Group gap="xs" wrap="nowrap">
          <Progress
            value={view.percent ?? 0}
            aria-label={label}
            style={{ flex: 1, minWidth: 120 }}
            data-testid={`${testId}-bar`}
          />
          <Text size="xs" data-testid={`${testId}-percent`}>
            {t('containers.percent', { percent: Math.round(view.percent ?? 0) })}
          </Text>
          {view.canCancel && (
            <Button
              size="compact-xs"
              variant="default"
              onClick={() => actionRef?.send({ type: 'action.cancel' })}
              aria-label={`${t('containers.cancel')} ${label}`}
              data-testid={`${testId}-cancel`}
            >
              {t('containers.cancel')}
            </Button>
          )}
        </Group>
      )}
      {view.done && view.step !== 'succeeded' && (
        <Alert
          color={view.step === 'failed' ? 'red' : 'gray'}
          title={errorKey ? t(errorKey) : t(`containers.steps.${view.step}`)}
          role={view.step === 'failed' ? 'alert' : 'status'}
          data-testid={`${testId}-outcome`}
          p="xs"
        >
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{messageKey ? t(messageKey) : view.message}</Text>
            <Button
              size="compact-xs"
              variant="subtle"
              onClick={() => registry.send({ type: 'actions.dismiss', key: view.key })}
              data-testid={`${testId}-dismiss`}
            >
              {t('containers.dismiss')}
            </Button>
          </Group>
        </Alert>
      )}
    </Stack>
  );
}
