/** What a route shows when its chunk failed to load (§2): a message, then the page reloads after 3 s. */
import { Alert, Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function ChunkLoadFailed() {
  const { t } = useTranslation();
  return (
    <Stack p="md" maw={560}>
      <Alert color="orange" role="alert" title={t('chunk.failed')}>
        <Button mt="sm" variant="light" onClick={() => window.location.reload()}>
          {t('chunk.reloadNow')}
        </Button>
      </Alert>
    </Stack>
  );
}
