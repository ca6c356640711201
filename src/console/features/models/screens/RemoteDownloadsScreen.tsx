/**
 * /remote-downloads (§2 route; issue 9: "shows every device download in flight and done"): every model
 * deployment of the user's devices as the devices reported it to the server (state, bytes, error), refreshed
 * every REMOTE_DOWNLOADS_POLL_MS while shown; finished entries can be removed from the list; and per device the
 * model versions it has installed. Test ids: remote-downloads-screen, remote-downloads-table,
 * remote-downloads-row-<deployment id>, remote-downloads-forget-<deployment id>, remote-downloads-installed.
 */
import {
  ActionIcon,
  Alert,
  Badge,
  Card,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { DEPLOY_FINAL_STATES } from '../../../../protocol/models';
import '../i18n';
import { formatSize, useRemoteDownloadsRef, useRemoteDownloadsView } from '../selectors';

export default function RemoteDownloadsScreen() {
  const { t, i18n } = useTranslation();
  const ref = useRemoteDownloadsRef();
  const view = useRemoteDownloadsView();
  useEffect(() => {
    ref.send({ type: 'downloads.open' });
    return () => ref.send({ type: 'downloads.close' });
  }, [ref]);
  const date = (iso: string) => new Date(iso).toLocaleString(i18n.language);

  return (
    <Stack gap="md" p="md" data-testid="remote-downloads-screen">
      <Title order={1} size="h2">
        {t('models.remoteTitle')}
      </Title>
      <Text size="sm">{t('models.remoteIntro')}</Text>
      {view.error && (
        <Alert color="red" role="alert">
          {t('models.error', { error: view.error })}
        </Alert>
      )}
      {view.loading && <Text size="sm">{t('models.loading')}</Text>}
      {!view.loading && view.deployments.length === 0 && <Text size="sm">{t('models.remoteEmpty')}</Text>}
      {view.deployments.length > 0 && (
        <Table striped data-testid="remote-downloads-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('models.device')}</Table.Th>
              <Table.Th>{t('models.name')}</Table.Th>
              <Table.Th>{t('models.version')}</Table.Th>
              <Table.Th>{t('models.state')}</Table.Th>
              <Table.Th>{t('models.progress')}</Table.Th>
              <Table.Th>{t('models.updated')}</Table.Th>
              <Table.Th>{t('models.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.deployments.map((d) => {
              const label = `${d.model_name} v${d.version} → ${d.device_label}`;
              return (
                <Table.Tr key={d.id} data-testid={`remote-downloads-row-${d.id}`} data-state={d.state}>
                  <Table.Td>{d.device_label}</Table.Td>
                  <Table.Td>{d.model_name}</Table.Td>
                  <Table.Td>v{d.version}</Table.Td>
                  <Table.Td>
                    <Badge
                      variant="light"
                      color={d.state === 'failed' ? 'red' : d.state === 'installed' ? 'green' : 'blue'}
                    >
                      {t(`models.deployState.${d.state}`)}
                    </Badge>
                    {d.error && (
                      <Text size="xs" c="red">
                        {d.error.message}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td miw={180}>
                    <Group gap={6} wrap="nowrap">
                      <Progress value={d.percent} style={{ flex: 1 }} aria-label={label} />
                      <Text size="xs">
                        {formatSize(d.bytes_done)} / {formatSize(d.bytes_total)}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>{date(d.updated_at)}</Table.Td>
                  <Table.Td>
                    {DEPLOY_FINAL_STATES.includes(d.state) && (
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('models.forget', {
                          name: `${d.model_name} v${d.version}`,
                          device: d.device_label,
                        })}
                        data-testid={`remote-downloads-forget-${d.id}`}
                        onClick={() => ref.send({ type: 'deployment.forget', id: d.id })}
                      >
                        <svg
                          width="16"
                          height="16"
                          viewBox="0 0 24 24"
                          aria-hidden="true"
                          fill="none"
                          stroke="currentColor"
                          strokeWidth="2"
                        >
                          <path d="M6 6l12 12M18 6L6 18" />
                        </svg>
                      </ActionIcon>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {view.devices.length > 0 && (
        <>
          <Title order={2} size="h4">
            {t('models.installedOn')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="remote-downloads-installed">
            {view.devices.map((dev) => (
              <Card key={dev.deviceId} withBorder padding="sm">
                <Text fw={600}>{dev.label}</Text>
                {dev.installed.length === 0 ? (
                  <Text size="sm">—</Text>
                ) : (
                  dev.installed.map((d) => (
                    <Text size="sm" key={d.id}>
                      {d.model_name} v{d.version} · {formatSize(d.bytes_total)}
                    </Text>
                  ))
                )}
              </Card>
            ))}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
