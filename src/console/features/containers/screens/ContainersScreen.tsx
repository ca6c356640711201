/**
 * /control-panel/containers (§2): every container of every connected device (§3 Container: Id (short),
 * Status, State, Jupyter, LocalPort, device name), filtered by device and state (held by the containers
 * actor), with each container's actions and the running action's progress (§4), and its log in a dialog.
 * With no device connected, an empty state links to the devices.
 */
import { Alert, Anchor, Button, Group, NativeSelect, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import '../i18n';
import { useContainersRef, useContainersView, type ContainerRow } from '../selectors';
import { ContainerActions } from './ContainerActions';
import { LogsDialog } from './LogsDialog';
import { ContainerIdLink, EmptyRow, StateBadge, TableHead, YesNoBadge } from './parts';

const ALL = '';

/** Test ids: containers-table, containers-filter-device, containers-filter-state, containers-refresh,
 * containers-empty, containers-no-device, containers-catalogue-link, container-row-{shortId}. */
export default function ContainersScreen() {
  const { t } = useTranslation();
  const containers = useContainersRef();
  const view = useContainersView();

  if (view.noDevice) {
    return (
      <Stack gap="md">
        <Title order={1}>{t('containers.title')}</Title>
        <Alert color="blue" data-testid="containers-no-device" title={t('containers.title')}>
          <Text size="sm">{t('containers.noDevice')}</Text>
          <Group gap="md">
            <Anchor component={Link} to="/control-panel/devices" size="sm">
              {t('containers.connectDevices')}
            </Anchor>
            <Anchor component={Link} to="/containers" size="sm">
              {t('containers.envTitle')}
            </Anchor>
          </Group>
        </Alert>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{t('containers.title')}</Title>
        <Group align="flex-end">
          <NativeSelect
            label={t('containers.filterDevice')}
            value={view.filter.deviceId ?? ALL}
            onChange={(e) =>
              containers.send({
                type: 'containers.filter',
                filter: { deviceId: e.currentTarget.value || null },
              })
            }
            data={[
              { value: ALL, label: t('containers.all') },
              ...view.devices.map((d) => ({ value: d.deviceId, label: d.name })),
            ]}
            data-testid="containers-filter-device"
          />
          <NativeSelect
            label={t('containers.filterState')}
            value={view.filter.state ?? ALL}
            onChange={(e) =>
              containers.send({
                type: 'containers.filter',
                filter: { state: (e.currentTarget.value || null) as ContainerRow['state'] | null },
              })
            }
            data={[
              { value: ALL, label: t('containers.all') },
              ...view.states.map((s) => ({ value: s, label: s })),
            ]}
            data-testid="containers-filter-state"
          />
          <Button component={Link} to="/containers" variant="light" data-testid="containers-catalogue-link">
            {t('containers.envTitle')}
          </Button>
          <Button
            variant="default"
            loading={view.loading}
            onClick={() => containers.send({ type: 'containers.refresh' })}
            data-testid="containers-refresh"
          >
            {t('containers.refresh')}
          </Button>
        </Group>
      </Group>

      {view.errors.map((e) => (
        <Alert key={e.deviceId} color="red" role="alert" data-testid={`containers-error-${e.deviceId}`}>
          {t('containers.loadFailed', { device: e.deviceName, error: e.error })}
        </Alert>
      ))}

      <Paper withBorder>
        <Table.ScrollContainer minWidth={1000}>
          <Table
            striped
            highlightOnHover
            aria-busy={view.loading}
            data-testid="containers-table"
            captionSide="top"
          >
            <TableHead
              caption={t('containers.caption')}
              columns={[
                t('containers.columns.id'),
                t('containers.columns.name'),
                t('containers.columns.status'),
                t('containers.columns.state'),
                t('containers.columns.jupyter'),
                t('containers.columns.localPort'),
                t('containers.columns.device'),
                t('containers.columns.actions'),
              ]}
            />
            <Table.Tbody>
              {view.rows.map((row) => (
                <Table.Tr key={row.key} data-testid={`container-row-${row.shortId}`} data-state={row.state}>
                  <Table.Td>
                    <ContainerIdLink shortId={row.shortId} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{row.name}</Text>
                    {row.envName && (
                      <Anchor component={Link} to={`/containers/${row.envName}`} size="xs">
                        {row.envName}
                      </Anchor>
                    )}
                  </Table.Td>
                  <Table.Td>{row.status}</Table.Td>
                  <Table.Td>
                    <StateBadge state={row.state} />
                  </Table.Td>
                  <Table.Td>
                    <YesNoBadge value={row.jupyter} />
                  </Table.Td>
                  <Table.Td>{row.localPort ?? t('containers.none')}</Table.Td>
                  <Table.Td>{row.deviceName}</Table.Td>
                  <Table.Td>
                    <ContainerActions row={row} />
                  </Table.Td>
                </Table.Tr>
              ))}
              {view.rows.length === 0 && !view.loading && (
                <EmptyRow columns={8} text={t('containers.empty')} testId="containers-empty" />
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <LogsDialog />
    </Stack>
  );
}
