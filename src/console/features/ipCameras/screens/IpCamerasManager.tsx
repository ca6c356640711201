/**
 * The IP cameras manager dialog (issue 16 §2 IP cameras): the list (name, address without credentials, the
 * device that reaches each), Add / Edit (screens/IpCameraForm.tsx, with Test and the still), Remove with a
 * confirmation (§7 remove-ip-camera).
 */
import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ManagedIpCamera } from '../../../../protocol/ipCameras';
import '../i18n';
import { useIpCamerasRef, useManagerView } from '../selectors';
import { IpCameraForm } from './IpCameraForm';

export default function IpCamerasManager() {
  const { t } = useTranslation();
  const ref = useIpCamerasRef();
  const view = useManagerView();
  const [confirm, setConfirm] = useState<ManagedIpCamera | null>(null);
  return (
    <Modal
      opened
      onClose={() => ref.send({ type: 'ipc.close' })}
      title={t('ipCameras.title')}
      size="xl"
      // Escape in a dialog opened from this one (preview, confirmation) reaches this one through React's
      // portal bubbling: only the list view closes on Escape.
      closeOnEscape={!view.form && confirm === null}
    >
      {view.form ? (
        <IpCameraForm
          formRef={view.form}
          devices={view.devices}
          onClose={() => ref.send({ type: 'ipc.closeForm' })}
        />
      ) : (
        <Stack data-testid="ip-cameras-manager">
          {view.phase === 'failed' ? (
            <Alert color="red" role="alert">
              {t('ipCameras.loadFailed', { message: view.error ?? '' })}{' '}
              <Button size="xs" variant="subtle" onClick={() => ref.send({ type: 'ipc.refresh' })}>
                {t('ipCameras.retry')}
              </Button>
            </Alert>
          ) : null}
          {view.removeError ? (
            <Alert color="red" role="alert">
              {view.removeError}
            </Alert>
          ) : null}
          {view.phase !== 'failed' && view.cameras.length === 0 && view.phase === 'ready' ? (
            <Text>{t('ipCameras.none')}</Text>
          ) : null}
          {view.cameras.length > 0 ? (
            <Table aria-label={t('ipCameras.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('ipCameras.name')}</Table.Th>
                  <Table.Th>{t('ipCameras.url')}</Table.Th>
                  <Table.Th>{t('ipCameras.device')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('ipCameras.edit')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {view.cameras.map((c) => (
                  <Table.Tr key={c.id} data-testid={`ip-camera-row-${c.label}`}>
                    <Table.Td>{c.label}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{c.url}</Table.Td>
                    <Table.Td>{c.device_label ?? t('ipCameras.deviceGone')}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          aria-label={t('ipCameras.editNamed', { name: c.label })}
                          onClick={() => ref.send({ type: 'ipc.edit', camera: c })}
                        >
                          {t('ipCameras.edit')}
                        </Button>
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          aria-label={t('ipCameras.removeNamed', { name: c.label })}
                          onClick={() => setConfirm(c)}
                        >
                          {t('ipCameras.remove')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : null}
          <Group>
            <Button
              onClick={() => ref.send({ type: 'ipc.edit', camera: null })}
              disabled={view.phase !== 'ready'}
              data-testid="ip-camera-add"
            >
              {t('ipCameras.add')}
            </Button>
          </Group>
        </Stack>
      )}
      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={t('ipCameras.removeNamed', { name: confirm?.label ?? '' })}
      >
        <Stack>
          <Text>{t('ipCameras.confirmRemove', { name: confirm?.label ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              {t('ipCameras.cancel')}
            </Button>
            <Button
              color="red"
              data-testid="ip-camera-remove-confirm"
              onClick={() => {
                if (confirm) ref.send({ type: 'ipc.remove', id: confirm.id });
                setConfirm(null);
              }}
            >
              {t('ipCameras.remove')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Modal>
  );
}
