/**
 * The actions offered for one container (§2 /control-panel/containers, /containers/{alias},
 * /containers/details/{envId}; §4 Container action): Start, Stop, Remove (after a confirmation), Open
 * Jupyter (when Jupyter runs: §7 request_remote_device), Start Jupyter (running without it), Logs. Every
 * button names its container in its accessible label. Actions go to the registry (`actions.start`), which
 * refuses a second one on the same environment ("Ongoing Process"); the running action's progress shows
 * below the buttons.
 */
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ContainerActionRequest } from '../../../../../machines/containers/containerAction.machine';
import {
  useActionRef,
  useActionsRef,
  useActionView,
  useContainersRef,
  useOpeningJupyter,
  useLogsRef,
  type ContainerRow,
} from '../selectors';
import { ActionProgress } from './ActionProgress';

/** Test ids: `container-{action}-{shortId}` for start, stop, remove, open-jupyter, start-jupyter, logs. */
export function ContainerActions({
  row,
  withProgress = true,
}: {
  row: ContainerRow;
  withProgress?: boolean;
}) {
  const { t } = useTranslation();
  const registry = useActionsRef();
  const containers = useContainersRef();
  const logs = useLogsRef();
  const opening = useOpeningJupyter();
  const actionRef = useActionRef(row.deviceId, row.envName, row.id);
  const action = useActionView(actionRef);
  const busy = action?.busy ?? false;
  const [confirmRemove, setConfirmRemove] = useState(false);

  const start = (kind: 'start' | 'stop' | 'remove', jupyter = false) => {
    const request: ContainerActionRequest = {
      deviceId: row.deviceId,
      deviceName: row.deviceName,
      envName: row.envName,
      image: row.image,
      action: kind,
      containerId: row.id,
      containerRunning: row.state === 'running',
      jupyter,
      gpu: row.gpu,
    };
    registry.send({ type: 'actions.start', request });
  };
  const label = (action: string) => t('containers.rowAction', { action, name: row.name || row.shortId });
  const id = (action: string) => `container-${action}-${row.shortId}`;

  return (
    <Stack gap={4}>
      <Group gap={4} wrap="wrap">
        {row.canStart && (
          <Button
            size="compact-xs"
            disabled={busy}
            onClick={() => start('start')}
            aria-label={label(t('containers.start'))}
            data-testid={id('start')}
          >
            {t('containers.start')}
          </Button>
        )}
        {row.canStop && (
          <Button
            size="compact-xs"
            variant="default"
            disabled={busy}
            onClick={() => start('stop')}
            aria-label={label(t('containers.stop'))}
            data-testid={id('stop')}
          >
            {t('containers.stop')}
          </Button>
        )}
        <Button
          size="compact-xs"
          color="red"
          variant="light"
          disabled={busy}
          onClick={() => setConfirmRemove(true)}
          aria-label={label(t('containers.remove'))}
          data-testid={id('remove')}
        >
          {t('containers.remove')}
        </Button>
        {row.canOpenJupyter && (
          <Button
            size="compact-xs"
            variant="light"
            loading={opening === row.id}
            onClick={() =>
              containers.send({ type: 'containers.openJupyter', deviceId: row.deviceId, containerId: row.id })
            }
            aria-label={label(t('containers.openJupyter'))}
            data-testid={id('open-jupyter')}
          >
            {t('containers.openJupyter')}
          </Button>
        )}
        {row.canStartJupyter && (
          <Button
            size="compact-xs"
            variant="light"
            disabled={busy}
            onClick={() => start('start', true)}
            aria-label={label(t('containers.startJupyter'))}
            data-testid={id('start-jupyter')}
          >
            {t('containers.startJupyter')}
          </Button>
        )}
        <Button
          size="compact-xs"
          variant="subtle"
          onClick={() =>
            logs.send({
              type: 'logs.open',
              deviceId: row.deviceId,
              containerId: row.id,
              title: row.name || row.shortId,
            })
          }
          aria-label={label(t('containers.logs'))}
          data-testid={id('logs')}
        >
          {t('containers.logs')}
        </Button>
      </Group>
      {withProgress && actionRef && (
        <ActionProgress actionRef={actionRef} testId={`container-progress-${row.shortId}`} />
      )}
      <Modal
        opened={confirmRemove}
        onClose={() => setConfirmRemove(false)}
        title={t('containers.confirmRemoveTitle')}
        data-testid="confirm-remove-dialog"
      >
        <Text size="sm">
          {t('containers.confirmRemoveText', { name: row.name || row.shortId, device: row.deviceName })}
        </Text>
        <Group justify="flex-end" mt="md">
          <Button
            variant="default"
            onClick={() => setConfirmRemove(false)}
            data-testid="confirm-remove-cancel"
          >
            {t('containers.cancel')}
          </Button>
          <Button
            color="red"
            onClick={() => {
              setConfirmRemove(false);
              start('remove');
            }}
            data-testid="confirm-remove-ok"
          >
            {t('containers.remove')}
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
