/**
 * /admin-panel/engines (§2 admin child "engines (with inferences and engine-backends)"): what the two children
 * hold, linked. Test id: admin-engines-screen.
 */
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import '../i18n';
import { AdminNav } from './parts';

export default function EnginesScreen() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid="admin-engines-screen">
      <AdminNav />
      <Title order={1}>{t('admin.engines.title')}</Title>
      <Text size="sm">{t('admin.engines.intro')}</Text>
      <Paper withBorder p="md">
        <Link className="ui-link" to="/admin-panel/engines/engine-backends">
          {t('admin.engines.backendsLink')}
        </Link>
        <Text size="sm">{t('admin.engines.backendsText')}</Text>
      </Paper>
      <Paper withBorder p="md">
        <Link className="ui-link" to="/admin-panel/engines/inferences">
          {t('admin.engines.inferencesLink')}
        </Link>
        <Text size="sm">{t('admin.engines.inferencesText')}</Text>
      </Paper>
    </Stack>
  );
}
