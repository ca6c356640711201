/**
 * A route whose screen a later issue builds (§2 "Screen contents of most routes ...: not shown"): a clear
 * page naming the screen and its route, with a link back — never a blank page.
 */
import { Link, useLocation } from 'react-router-dom';
import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RouteEntry } from '../../routes/table';

export function ComingLater({ entry }: { entry: RouteEntry }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Paper p="lg" withBorder maw={640} data-testid="coming-later">
      <Stack gap="sm">
        <Title order={1}>{t('later.title', { title: entry.title })}</Title>
        <Text c="dimmed">{t('later.body', { path: pathname })}</Text>
        <Anchor component={Link} to="/dashboard">
          {t('app.backToDashboard')}
        </Anchor>
      </Stack>
    </Paper>
  );
}
