/**
 * The generic dialog's modal (§2), in its own chunk: Mantine's Modal brings a scroll area and floating-ui,
 * which /login should not ship until a dialog actually opens. It brings its own Mantine provider: the root
 * has none (shell/mantine.tsx).
 */
import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { WithMantine } from './mantine';

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
    <WithMantine>
      <Modal opened onClose={onClose} title={title} centered>
        <Text data-testid="dialog-message">{message}</Text>
        <Group justify="flex-end" mt="md">
          <Button onClick={onClose} data-autofocus data-testid="dialog-ok">
            {t('dialog.ok')}
          </Button>
        </Group>
      </Modal>
    </WithMantine>
  );
}
