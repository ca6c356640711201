/**
 * /containers/details/{envId} (§2): one running environment — the container `envId` (Docker id or its
 * 12-character prefix) on a connected device: state, status, image, device, environment, local port,
 * Jupyter, and its actions (Open Jupyter, logs, start / stop / remove with the action's progress).
 */
import type { ReactNode } from 'react';
import { Alert, Anchor, Code, Paper, Stack, Table, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import '../i18n';
import { useContainer } from '../selectors';
import { ContainerActions } from './ContainerActions';
import { LogsDialog } from './LogsDialog';
import { StateBadge, YesNoBadge } from './parts';

/** Test ids: container-details, container-details-missing. */
export default function ContainerDetailsScreen() {
  const { t } = useTranslation();
  const { envId = '' } = useParams();
  const row = useContainer(envId);
  if (!row) {
    return (
      <Stack gap="md">
        <Title order={1}>{t('containers.detailsTitle', { id: envId.slice(0, 12) })}</Title>
        <Alert color="yellow" data-testid="container-details-missing">
          {t('containers.notOnDevice', { id: envId.slice(0, 12) })}
        </Alert>
        <Anchor component={Link} to="/control-panel/containers" size="sm">
          {t('containers.title')}
        </Anchor>
      </Stack>
    );
  }
  const facts: Array<[string, ReactNode]> = [
    [t('containers.columns.name'), row.name],
    [t('containers.columns.state'), <StateBadge key="s" state={row.state} />],
    [t('containers.columns.status'), row.status],
    [t('containers.columns.image'), <Code key="i">{row.image}</Code>],
    [t('containers.columns.device'), row.deviceName],
    [
      t('containers.columns.environment'),
      row.envName ? (
        <Anchor key="e" component={Link} to={`/containers/${row.envName}`}>
          {row.envName}
        </Anchor>
      ) : (
        t('containers.none')
      ),
    ],
    [t('containers.columns.localPort'), row.localPort ?? t('containers.none')],
    [t('containers.columns.jupyter'), <YesNoBadge key="j" value={row.jupyter} />],
  ];
  return (
    <Stack gap="md" data-testid="container-details">
      <Anchor component={Link} to="/control-panel/containers" size="sm">
        {t('containers.title')}
      </Anchor>
      <Title order={1}>{t('containers.detailsTitle', { id: row.shortId })}</Title>
      <Paper withBorder>
        <Table>
          <Table.Tbody>
            {facts.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th scope="row" w={200}>
                  {label}
                </Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      <ContainerActions row={row} />
      <LogsDialog />
    </Stack>
  );
}
