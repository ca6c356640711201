/**
 * The download offer of a container create (§4 "A 404 offers a download"; §8 "Environment not found, then a
 * download offer"): the image, the device, its download size, the last download's failure if any; Download
 * (or Download again) and Cancel go to the action actor. Closing the dialog cancels.
 */
import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import '../i18n';
import type { ActionView, ContainerActionRef } from '../selectors';

/** Test ids: `download-offer-dialog`, `download-offer-download`, `download-offer-cancel`. */
export default function DownloadOfferDialog({
  actionRef,
  view,
}: {
  actionRef: ContainerActionRef;
  view: ActionView;
}) {
  const { t } = useTranslation();
  const cancel = () => actionRef.send({ type: 'action.cancel' });
  return (
    <Modal
      opened
      onClose={cancel}
      title={t('containers.texts.envNotFound')}
      data-testid="download-offer-dialog"
    >
      <Stack gap="sm">
        <Text size="sm">{t('containers.offerText', { image: view.docker, device: view.deviceName })}</Text>
        <Code>{view.docker}</Code>
        <Text size="sm" data-testid="download-offer-size">
          {view.sizeMb !== null
            ? t('containers.offerSize', { size: view.sizeMb })
            : t('containers.offerSizeUnknown')}
        </Text>
        {view.error && (
          <Alert color="red" role="alert" p="xs">
            {t('containers.downloadFailed', { error: view.error })}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={cancel} data-testid="download-offer-cancel">
            {t('containers.cancel')}
          </Button>
          <Button
            onClick={() => actionRef.send({ type: 'action.download' })}
            data-testid="download-offer-download"
          >
            {view.error ? t('containers.downloadAgain') : t('containers.download')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
