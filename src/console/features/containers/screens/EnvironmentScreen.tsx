/**
 * /containers/{alias} (§2): one environment of the catalogue — its versions (tags with platform and
 * download size), the connected devices that run it (containers whose EnvName is the alias, §3) with each
 * container's actions, and the "Create on a device" form with the running create's progress (§4).
 */
import { useEffect } from 'react';
import { Alert, Anchor, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import '../i18n';
import { useEnvironmentContainers, useEnvironmentDetail, useEnvironmentsRef } from '../selectors';
import { ContainerActions } from './ContainerActions';
import { CreateOnDevice } from './CreateOnDevice';
import { LogsDialog } from './LogsDialog';
import { ContainerIdLink, EmptyRow, EnvironmentBadges, StateBadge, TableHead } from './parts';

/** Test ids: environment-detail, environment-versions, environment-containers, environment-missing. */
export default function EnvironmentScreen() {
  const { t } = useTranslation();
  const { alias = '' } = useParams();
  const environments = useEnvironmentsRef();
  const view = useEnvironmentDetail(alias);
  const running = useEnvironmentContainers(alias);
  useEffect(() => {
    environments.send({ type: 'environments.open', alias });
  }, [environments, alias]);

  const env = view.environment;
  return (
    <Stack gap="md" data-testid="environment-detail">
      <Anchor component={Link} to="/containers" size="sm">
        {t('containers.allEnvironments')}
      </Anchor>
      {view.missing && (
        <Alert color="yellow" data-testid="environment-missing">
          {t('containers.notFound', { alias })}
        </Alert>
      )}
      {view.error && (
        <Alert color="red" role="alert">
          {view.error}
        </Alert>
      )}
      {view.loading && !env && <Text role="status">{t('containers.loading')}</Text>}
      {env && (
        <>
          <Group justify="space-between" align="flex-start">
            <div>
              <Title order={1}>{env.name}</Title>
              {env.description && <Text size="sm">{env.description}</Text>}
              <Text size="sm">
                {t('containers.image')}: <Code>{env.image}</Code>
              </Text>
            </div>
            <EnvironmentBadges jupyter={env.jupyter} gpu={env.gpu} />
          </Group>

          <Paper withBorder>
            <Table data-testid="environment-versions" captionSide="top">
              <TableHead
                caption={t('containers.versions')}
                columns={[t('containers.tag'), t('containers.platform'), t('containers.size')]}
              />
              <Table.Tbody>
                {env.tags.map((tag) => (
                  <Table.Tr key={tag.tag}>
                    <Table.Td>
                      <Code>{tag.tag}</Code>
                    </Table.Td>
                    <Table.Td>{t(`containers.platforms.${tag.platform}`)}</Table.Td>
                    <Table.Td>{t('containers.sizeMb', { size: tag.size_mb })}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>

          <CreateOnDevice environment={env} />

          <Paper withBorder>
            <Table data-testid="environment-containers" captionSide="top">
              <TableHead
                caption={t('containers.runningOn')}
                columns={[
                  t('containers.columns.id'),
                  t('containers.columns.device'),
                  t('containers.columns.state'),
                  t('containers.columns.image'),
                  t('containers.columns.actions'),
                ]}
              />
              <Table.Tbody>
                {running.map((row) => (
                  <Table.Tr key={row.key} data-testid={`environment-container-${row.shortId}`}>
                    <Table.Td>
                      <ContainerIdLink shortId={row.shortId} />
                    </Table.Td>
                    <Table.Td>{row.deviceName}</Table.Td>
                    <Table.Td>
                      <StateBadge state={row.state} />
                    </Table.Td>
                    <Table.Td>
                      <Code>{row.image}</Code>
                    </Table.Td>
                    <Table.Td>
                      {/* The environment's running action shows in the create form above. */}
                      <ContainerActions row={row} withProgress={false} />
                    </Table.Td>
                  </Table.Tr>
                ))}
                {running.length === 0 && <EmptyRow columns={5} text={t('containers.noneRunning')} />}
              </Table.Tbody>
            </Table>
          </Paper>
          <LogsDialog />
        </>
      )}
    </Stack>
  );
}
