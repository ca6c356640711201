/**
 * A container's log in a dialog (§2 /control-panel/containers "logs"; machines/containers/containerLogs):
 * the last lines, read again every few seconds while open; closing hides it, and the log actor clears the
 * lines 3 s later (§9 "Container log cleared after 3 s").
 */
import { Alert, Code, Loader, Modal, ScrollArea, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLogsRef, useLogsView } from '../selectors';

/** Test ids: `container-logs-dialog`, `container-logs-lines`. */
export function LogsDialog() {
  const { t } = useTranslation();
  const logs = useLogsRef();
  const view = useLogsView();
  return (
    <Modal
      opened={view.open}
      onClose={() => logs.send({ type: 'logs.close' })}
      title={t('containers.logsTitle', { name: view.title })}
      size="xl"
      data-testid="container-logs-dialog"
    >
      {view.error && (
        <Alert color="red" role="alert" mb="xs">
          {t('containers.logsFailed', { error: view.error })}
        </Alert>
      )}
      {view.loading && view.lines.length === 0 ? (
        <Text size="sm" role="status">
          <Loader size="xs" aria-hidden /> {t('containers.logsLoading')}
        </Text>
      ) : view.lines.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('containers.logsEmpty')}
        </Text>
      ) : (
        <ScrollArea h={400} type="auto">
          <Code
            block
            role="log"
            data-testid="container-logs-lines"
            tabIndex={0}
            aria-label={t('containers.logsTitle', { name: view.title })}
          >
            {view.lines.join('\n')}
          </Code>
        </ScrollArea>
      )}
    </Modal>
  );
}
