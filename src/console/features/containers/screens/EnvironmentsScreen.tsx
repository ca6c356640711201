/**
 * /containers (§2 "environments"): the catalogue as cards — name, description, image, tags, Jupyter and GPU
 * badges — each linking to /containers/{alias}. The catalogue is read when the screen opens.
 */
import { useEffect } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import '../i18n';
import { useCatalogueView, useEnvironmentsRef } from '../selectors';
import { EnvironmentBadges } from './parts';

/** Test ids: environments-grid, environment-card-{alias}, environments-empty, environments-error. */
export default function EnvironmentsScreen() {
  const { t } = useTranslation();
  const environments = useEnvironmentsRef();
  const view = useCatalogueView();
  useEffect(() => {
    environments.send({ type: 'environments.load' });
  }, [environments]);

  return (
    <Stack gap="md">
      <div>
        <Title order={1}>{t('containers.envTitle')}</Title>
        <Text c="dimmed" size="sm">
          {t('containers.envIntro')}
        </Text>
      </div>
      {view.error && (
        <Alert
          color="red"
          role="alert"
          title={t('containers.envLoadFailed')}
          data-testid="environments-error"
        >
          <Text size="sm">{view.error}</Text>
          <Button
            mt="xs"
            size="xs"
            variant="light"
            onClick={() => environments.send({ type: 'environments.load' })}
          >
            {t('containers.retry')}
          </Button>
        </Alert>
      )}
      {!view.loading && !view.error && view.environments.length === 0 && (
        <Text c="dimmed" data-testid="environments-empty">
          {t('containers.envEmpty')}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="environments-grid" aria-busy={view.loading}>
        {view.environments.map((env) => (
          <Card
            key={env.id}
            withBorder
            padding="md"
            data-testid={`environment-card-${env.alias}`}
            component="article"
          >
            <Stack gap="xs">
              <Group justify="space-between" wrap="nowrap">
                <Title order={2} size="h4">
                  <Anchor
                    component={Link}
                    to={`/containers/${env.alias}`}
                    aria-label={t('containers.openEnvironment', { name: env.name })}
                  >
                    {env.name}
                  </Anchor>
                </Title>
                <EnvironmentBadges jupyter={env.jupyter} gpu={env.gpu} />
              </Group>
              {env.description && <Text size="sm">{env.description}</Text>}
              <Text size="xs">
                {t('containers.image')}: <Code>{env.image}</Code>
              </Text>
              <Group gap={4}>
                <Text size="xs">{t('containers.tags')}:</Text>
                {env.tags.map((tag) => (
                  <Badge key={tag.tag} variant="outline" color="gray" tt="none">
                    {tag.tag}
                  </Badge>
                ))}
              </Group>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
