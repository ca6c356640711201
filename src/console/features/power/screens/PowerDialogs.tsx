/**
 * The power action's two dialogs: the confirmation (named by its title, Confirm / Cancel) and the §5 sudo
 * dialog (a labelled password field whose error is the §5 text — "Password field can not be empty",
 * "Invalid Password." — or §8 "Sudo privileged is required"; "save on the device" checkbox; Enter submits,
 * Escape cancels).
 */
import { Button, Checkbox, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PowerActionRef } from '../../../../../machines/power/power.machine';
import { textKeyOf, type PowerActionView } from '../selectors';

/**
 * The error text and the typed value in colours with enough contrast (WCAG AA 4.5:1) on white: Mantine's error
 * red (#fa5252) has 3.3:1.
 */
const FIELD_STYLES = {
  error: { color: 'var(--mantine-color-red-8)' },
  input: { color: 'var(--mantine-color-text)' },
  innerInput: { color: 'var(--mantine-color-text)' },
};

interface DialogProps {
  action: PowerActionRef;
  view: PowerActionView;
  deviceName: string;
}

export function ConfirmDialog({ action, view, deviceName }: DialogProps) {
  const { t } = useTranslation();
  const cancel = () => action.send({ type: 'power.cancel' });
  return (
    <Modal
      opened={view.step === 'confirming'}
      onClose={cancel}
      title={t(`power.confirmTitle.${view.action}`)}
      data-testid="power-confirm-dialog"
      centered
    >
      <Stack gap="md">
        <Text>{t(`power.confirmText.${view.action}`, { device: deviceName })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={cancel}>
            {t('power.cancel')}
          </Button>
          <Button
            color={view.action === 'forceShutdown' ? 'red' : undefined}
            data-testid="power-confirm"
            onClick={() => action.send({ type: 'power.confirm' })}
          >
            {t('power.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function SudoDialog({ action, view, deviceName }: DialogProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [save, setSave] = useState(false);
  const cancel = () => action.send({ type: 'power.cancel' });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    action.send({ type: 'sudo.submit', password, save });
    setPassword('');
  };
  const errorKey = view.sudoError ? textKeyOf(view.sudoError) : null;
  const checking = view.step === 'checking';
  return (
    <Modal
      opened={view.sudoOpen}
      onClose={cancel}
      title={t('power.sudo.title')}
      data-testid="power-sudo-dialog"
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text>{t('power.sudo.intro', { device: deviceName })}</Text>
          <PasswordInput
            label={t('power.sudo.password')}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={view.sudoError ? (errorKey ? t(errorKey) : view.sudoError) : undefined}
            autoComplete="current-password"
            data-autofocus
            data-testid="power-sudo-password"
            styles={FIELD_STYLES}
          />
          <Checkbox
            label={t('power.sudo.save')}
            checked={save}
            onChange={(e) => setSave(e.currentTarget.checked)}
            data-testid="power-sudo-save"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={cancel}>
              {t('power.cancel')}
            </Button>
            <Button type="submit" loading={checking} data-testid="power-sudo-submit">
              {t('power.sudo.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
