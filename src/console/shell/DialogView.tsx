/**
 * The generic dialog's modal (§2), in its own chunk: Mantine's Modal brings a scroll area and floating-ui,
 * which /login should not ship until a dialog actually opens.
 */
import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export default function DialogView({
  title,
  message,
  onClose,
}: {
  title: string;
  message: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <Text data-testid="dialog-message">{message}</Text>
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose} data-autofocus data-testid="dialog-ok">
          {t('dialog.ok')}
        </Button>
      </Group>
    </Modal>
  );
}
