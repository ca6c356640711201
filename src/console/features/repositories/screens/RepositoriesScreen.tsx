/**
 * /repositories (§2 auth route; anchor: Harbor's project repositories): the repositories of the registry
 * project (§9 `<project>_prod`) with their tag counts, each linking to its tag list; says clearly when no
 * registry is configured. Test ids: repositories-screen, repositories-table, repository-row-<alias>,
 * repositories-not-configured, repositories-error.
 */
import { ActionIcon, Alert, Anchor, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import '../i18n';
import { useRepositoriesRef, useRepositoriesView } from '../selectors';

/** The route of a repository's tag list (its alias in one path segment). */
export const tagsPath = (alias: string) => `/repositories/${encodeURIComponent(alias)}`;

export function NotConfigured() {
  const { t } = useTranslation();
  return (
    <Alert color="blue" title={t('repositories.notConfigured')} data-testid="repositories-not-configured">
      <Text size="sm">{t('repositories.notConfiguredHelp')}</Text>
    </Alert>
  );
}

export default function RepositoriesScreen() {
  const { t } = useTranslation();
  const ref = useRepositoriesRef();
  const view = useRepositoriesView();
  useEffect(() => {
    ref.send({ type: 'repositories.show', alias: null });
  }, [ref]);
  const mine = view.alias === null;
  return (
    <Stack gap="md" data-testid="repositories-screen">
      <Group justify="space-between">
        <Title order={1}>{t('repositories.title')}</Title>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('repositories.refresh')}
          onClick={() => ref.send({ type: 'repositories.refresh' })}
          disabled={view.busy}
        >
          <span aria-hidden="true">↻</span>
        </ActionIcon>
      </Group>
      {!mine || view.state === 'loading' ? (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text size="sm">{t('repositories.loading')}</Text>
        </Group>
      ) : view.state === 'notConfigured' ? (
        <NotConfigured />
      ) : view.state === 'failed' || view.state === 'notFound' ? (
        <Alert color="red" data-testid="repositories-error" role="alert">
          <Text size="sm">{t('repositories.failed', { error: view.error })}</Text>
          <Button size="xs" mt="xs" onClick={() => ref.send({ type: 'repositories.refresh' })}>
            {t('repositories.retry')}
          </Button>
        </Alert>
      ) : (
        <>
          <Text size="sm">{t('repositories.intro', { project: view.project, registry: view.registry })}</Text>
          {view.repositories.length === 0 ? (
            <Text size="sm">{t('repositories.empty')}</Text>
          ) : (
            <Table striped data-testid="repositories-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('repositories.name')}</Table.Th>
                  <Table.Th>{t('repositories.tags')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {view.repositories.map((r) => (
                  <Table.Tr key={r.name} data-testid={`repository-row-${r.alias}`}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={tagsPath(r.alias)}
                        aria-label={t('repositories.open', { name: r.name })}
                      >
                        {r.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{t('repositories.tagCount', { count: r.tag_count })}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
    </Stack>
  );
}
