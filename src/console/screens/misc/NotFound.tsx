/** §2 /404: unknown paths land here. */
import { Link } from 'react-router-dom';
import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Paper p="lg" withBorder data-testid="not-found">
      <Stack gap="sm">
        <Title order={1}>{t('notFound.title')}</Title>
        <Text>{t('notFound.body')}</Text>
        <Anchor component={Link} to="/dashboard">
          {t('app.backToDashboard')}
        </Anchor>
      </Stack>
    </Paper>
  );
}

/** §2 /expired, §8 "Session expired: Your session has expired". */
export function Expired() {
  const { t } = useTranslation();
  return (
    <Paper p="lg" withBorder data-testid="expired">
      <Stack gap="sm">
        <Title order={1}>{t('expired.title')}</Title>
        <Text>{t('expired.body')}</Text>
        <Anchor component={Link} to="/login">
          {t('expired.signIn')}
        </Anchor>
      </Stack>
    </Paper>
  );
}
