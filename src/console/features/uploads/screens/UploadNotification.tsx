/**
 * §2 "Upload notification" (root shell, signed in): a floating button appears while uploads run and opens the
 * dialog "Upload Progresses": a progress bar per file (name, percent, cancel button) and the list of success or
 * failure lines, plus a Close button (which also clears the lines). Reads the uploads actor through selectors.
 */
import { ActionIcon, Affix, Button, Group, List, Modal, Progress, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n';
import { useUploadRef, useUploadsRef, useUploadsView, useUploadView, type UploadRef } from '../selectors';

export function UploadNotification() {
  const { t } = useTranslation();
  const uploads = useUploadsRef();
  const view = useUploadsView();
  const [open, setOpen] = useState(false);
  const close = () => {
    setOpen(false);
    uploads.send({ type: 'uploads.results.clear' });
  };
  return (
    <>
      {view.visible && (
        <Affix position={{ bottom: 20, right: 20 }} zIndex={250}>
          <Button
            data-testid="uploads-button"
            aria-label={t('uploads.buttonLabel', { count: view.ids.length })}
            aria-haspopup="dialog"
            onClick={() => setOpen(true)}
            radius="xl"
            leftSection={<span aria-hidden="true">⇪</span>}
          >
            {t('uploads.button', { count: view.ids.length })}
          </Button>
        </Affix>
      )}
      <Modal opened={open && view.visible} onClose={close} title={t('uploads.dialogTitle')} size="lg">
        <Stack data-testid="uploads-dialog" gap="md">
          <Title order={3} size="h5">
            {t('uploads.running')}
          </Title>
          {view.ids.length === 0 ? (
            <Text size="sm">{t('uploads.none')}</Text>
          ) : (
            view.ids.map((id) => <UploadRow key={id} id={id} />)
          )}
          {view.results.length > 0 && (
            <>
              <Title order={3} size="h5">
                {t('uploads.results')}
              </Title>
              <List spacing="xs" size="sm" data-testid="upload-results">
                {view.results.map((line) => (
                  <List.Item
                    key={line.id}
                    data-testid="upload-result"
                    data-success={line.success ? 'true' : 'false'}
                    icon={
                      <Text component="span" c={line.success ? 'green.8' : 'red.8'} fw={700}>
                        {line.success ? `✓ ${t('uploads.succeeded')}` : `✕ ${t('uploads.failedLine')}`}
                      </Text>
                    }
                  >
                    {line.success
                      ? t('uploads.toast.uploaded', { file: line.fileName })
                      : t('uploads.toast.failed', { file: line.fileName })}
                    {line.error ? ` — ${line.error}` : ''}
                  </List.Item>
                ))}
              </List>
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-testid="uploads-close">
              {t('uploads.close')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function UploadRow({ id }: { id: string }) {
  const ref = useUploadRef(id);
  return ref ? <UploadProgressRow uploadRef={ref} /> : null;
}

function UploadProgressRow({ uploadRef }: { uploadRef: UploadRef }) {
  const { t } = useTranslation();
  const v = useUploadView(uploadRef);
  const label = v.phase === 'hashing' ? t('uploads.preparing', { name: v.fileName }) : v.fileName;
  return (
    <Stack gap={4} data-testid="upload-progress" data-file={v.fileName} data-phase={v.phase}>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" truncate>
          {label}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" data-testid="upload-percent">
            {t('uploads.percent', { percent: v.percent })}
          </Text>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('uploads.cancel', { name: v.fileName })}
            disabled={v.phase === 'cancelling'}
            onClick={() => uploadRef.send({ type: 'upload.cancel' })}
          >
            <span aria-hidden="true">✕</span>
          </ActionIcon>
        </Group>
      </Group>
      <Progress value={v.percent} aria-label={t('uploads.progressLabel', { name: v.fileName })} />
    </Stack>
  );
}

export default UploadNotification;
