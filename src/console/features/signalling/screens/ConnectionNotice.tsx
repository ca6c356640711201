/**
 * The connectivity notice in the shell's header (issue 15; machines/signalling/connectivity.machine.ts): "You are
 * offline…", "Connection to the server lost. Reconnecting…", or "The server is still unreachable…" with "Try
 * now". A live region (role=status), so screen readers announce it. Loaded with the console (not lazily): it must
 * render while the network is gone.
 */
import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import '../i18n';
import { useConnectivityNotice, useConnectivityRef } from '../selectors';

export function ConnectionNotice() {
  const { t } = useTranslation();
  const notice = useConnectivityNotice();
  const connectivity = useConnectivityRef();
  if (!notice) return null;
  return (
    <Alert
      role="status"
      aria-live="polite"
      data-testid="connection-notice"
      data-state={notice}
      color={notice === 'offline' ? 'gray' : 'yellow'}
      variant="light"
      p={4}
      px="xs"
    >
      <Group gap="xs" wrap="nowrap">
        <Text size="xs">{t(`connectivity.${notice}`)}</Text>
        {notice !== 'offline' && (
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => connectivity.send({ type: 'connectivity.retry' })}
          >
            {t('connectivity.retry')}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
