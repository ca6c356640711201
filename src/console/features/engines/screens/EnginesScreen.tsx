/**
 * /control-panel/engines (§2 auth route; §3 inferenceEngines, deepStream; §5 "GPU Driver check is just for x86
 * devices."; §7 check-inference-engine-exist, get-gpu-driver-version, download-docker-image; §9 device score;
 * issue 10 "Engines"): the §9 scores of the connected devices with the chosen one marked, then per device its
 * engines (state, version, execution providers or image, download with progress and cancel), its GPU driver
 * and links to its Logs and Settings tabs (the engine restart lives there).
 * Test ids: engines-screen, engines-no-device, engines-scores, engines-score-<id>, engines-device-<id>,
 * engines-row-<id>-<engine>, engines-driver-<id>, engines-download-<id>-<engine>, engines-progress-<id>.
 */
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Progress,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMachine } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { deviceEnginesLogic } from '../actors';
import '../i18n';
import {
  deviceEnginesToView,
  useEngineDevices,
  useScoresRef,
  useScoresView,
  type EngineDevice,
  type EngineRow,
} from '../selectors';

const STATE_COLOR: Record<EngineRow['state'], string> = {
  ready: 'green',
  not_installed: 'gray',
  downloading: 'blue',
  unavailable: 'red',
};

function Details({ row, device }: { row: EngineRow; device: string }) {
  const { t } = useTranslation();
  if (row.name === 'onnxruntime') {
    return (
      <Stack gap={2}>
        <Text size="sm">
          {t('engines.providers')}:{' '}
          {row.providers
            .map((p) => (p.available ? p.name : `${p.name} (${t('engines.providerMissing')})`))
            .join(', ')}
        </Text>
        {row.provider && <Text size="sm">{t('engines.providerUsed', { provider: row.provider })}</Text>}
        {row.message && <Text size="sm">{row.message}</Text>}
      </Stack>
    );
  }
  return (
    <Stack gap={2}>
      <Text size="sm">{t(`engines.runsIn.${row.runsIn}`)}</Text>
      {row.image && (
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {t('engines.image')}: <code>{row.image}</code>
          {row.sizeMb !== null && row.state !== 'ready'
            ? ` · ${t('engines.size', { size: row.sizeMb })}`
            : ''}
        </Text>
      )}
      {row.percent !== null && (
        <Group gap="xs" data-testid={`engines-progress-${device}`}>
          <Progress
            value={row.percent}
            style={{ flex: 1, minWidth: 120 }}
            aria-label={t('engines.downloading', {
              engine: t(`engines.engineName.${row.name}`),
              percent: Math.round(row.percent),
            })}
          />
          <Text size="xs">{Math.round(row.percent)} %</Text>
        </Group>
      )}
      {row.message && <Text size="sm">{row.message}</Text>}
    </Stack>
  );
}

function DeviceEngines({ device, chosen }: { device: EngineDevice; chosen: boolean }) {
  const { t } = useTranslation();
  const [logic] = useState(() => deviceEnginesLogic());
  const [snapshot, send] = useMachine(logic, { input: { deviceId: device.deviceId, kind: device.kind } });
  const view = deviceEnginesToView(snapshot);
  const id = device.deviceId;
  const pageUrl = (tab: string) => `/control-panel/devices?device=${encodeURIComponent(id)}&tab=${tab}`;
  const driver = view.driver;

  return (
    <Card
      withBorder
      padding="md"
      data-testid={`engines-device-${id}`}
      data-chosen={chosen ? 'true' : 'false'}
      style={chosen ? { borderColor: 'var(--mantine-color-blue-8)', borderWidth: 2 } : undefined}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="center">
          <Group gap="xs">
            <Title order={2} size="h4">
              {device.name}
            </Title>
            <Badge variant="light" color="gray">
              {t(`engines.kind.${device.kind}`)}
            </Badge>
            {view.backend && (
              <Text size="sm" c="dimmed">
                {t(`engines.backend.${view.backend}`)}
              </Text>
            )}
            {chosen && (
              <Badge variant="filled" color="blue.8" data-testid={`engines-chosen-${id}`}>
                {t('engines.chosen')}
              </Badge>
            )}
          </Group>
          <Group gap="xs">
            <Anchor component={Link} to={pageUrl('logs')} size="sm">
              {t('engines.logs')}
            </Anchor>
            <Anchor component={Link} to={pageUrl('settings')} size="sm">
              {t('engines.settings')}
            </Anchor>
            <ActionIcon
              variant="default"
              aria-label={t('engines.refresh', { name: device.name })}
              disabled={view.status !== 'ready' && view.status !== 'failed' && view.status !== 'following'}
              onClick={() => send({ type: 'engines.refresh' })}
            >
              <span aria-hidden="true">↻</span>
            </ActionIcon>
          </Group>
        </Group>

        <Text size="sm" data-testid={`engines-driver-${id}`}>
          <strong>{t('engines.gpuDriver')}:</strong>{' '}
          {!driver
            ? '…'
            : driver.kind === 'x86Only'
              ? t('engines.x86Only')
              : driver.kind === 'error'
                ? t('engines.driverError', { error: driver.message })
                : driver.driver_version
                  ? t('engines.driverVersion', {
                      version: driver.driver_version,
                      gpus: driver.gpus.join(', '),
                    })
                  : t('engines.noDriver')}
        </Text>

        {view.loading && (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">{t('engines.checking')}</Text>
          </Group>
        )}
        {view.status === 'failed' && (
          <Alert color="red" role="alert">
            <Group justify="space-between">
              <Text size="sm">{t('engines.checkFailed', { error: view.error })}</Text>
              <Button size="xs" onClick={() => send({ type: 'engines.refresh' })}>
                {t('engines.retry')}
              </Button>
            </Group>
          </Alert>
        )}
        {view.status !== 'failed' && view.error && (
          <Alert color="red" role="alert">
            <Text size="sm">{t('engines.downloadFailed', { error: view.error })}</Text>
          </Alert>
        )}

        {view.engines.length > 0 && (
          <Table striped withTableBorder aria-label={`${t('engines.title')}: ${device.name}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('engines.engine')}</Table.Th>
                <Table.Th scope="col">{t('engines.state')}</Table.Th>
                <Table.Th scope="col">{t('engines.version')}</Table.Th>
                <Table.Th scope="col">{t('engines.details')}</Table.Th>
                <Table.Th scope="col">{t('engines.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.engines.map((row) => (
                <Table.Tr key={row.name} data-testid={`engines-row-${id}-${row.name}`} data-state={row.state}>
                  <Table.Td>{t(`engines.engineName.${row.name}`)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATE_COLOR[row.state]}>
                      {t(`engines.states.${row.state}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{row.version ?? '—'}</Table.Td>
                  <Table.Td>
                    <Details row={row} device={id} />
                  </Table.Td>
                  <Table.Td>
                    {row.canDownload && (
                      <Button
                        size="xs"
                        data-testid={`engines-download-${id}-${row.name}`}
                        aria-label={t('engines.downloadLabel', {
                          engine: t(`engines.engineName.${row.name}`),
                          device: device.name,
                        })}
                        onClick={() => send({ type: 'engines.download', image: row.image! })}
                      >
                        {t('engines.download')}
                      </Button>
                    )}
                    {row.canCancel && (
                      <Button size="xs" variant="default" onClick={() => send({ type: 'engines.cancel' })}>
                        {t('engines.cancel')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {view.gpu === false && (
          <Text size="sm" c="dimmed">
            {t('engines.noGpu')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

export default function EnginesScreen() {
  const { t } = useTranslation();
  const devices = useEngineDevices();
  const scoresRef = useScoresRef();
  const scores = useScoresView();
  const ids = devices.map((d) => d.deviceId).join('\n');

  // Watch the connected devices' usage while the page is shown.
  useEffect(() => {
    scoresRef.send({ type: 'devices.set', deviceIds: ids ? ids.split('\n') : [] });
  }, [ids, scoresRef]);
  useEffect(() => () => scoresRef.send({ type: 'devices.set', deviceIds: [] }), [scoresRef]);

  const nameOf = (id: string) => devices.find((d) => d.deviceId === id)?.name ?? id;

  return (
    <Stack gap="md" data-testid="engines-screen">
      <Title order={1}>{t('engines.title')}</Title>
      <Text size="sm">{t('engines.intro')}</Text>
      {devices.length === 0 ? (
        <Alert color="blue" title={t('engines.title')} data-testid="engines-no-device">
          <Text size="sm">{t('engines.noDevice')}</Text>
          <Anchor component={Link} to="/control-panel/devices" size="sm">
            {t('engines.connectDevices')}
          </Anchor>
        </Alert>
      ) : (
        <>
          <Card withBorder padding="md" data-testid="engines-scores">
            <Stack gap="xs">
              <Title order={2} size="h4">
                {t('engines.scoresTitle')}
              </Title>
              <Text size="sm">{t('engines.scoresHelp')}</Text>
              <Table aria-label={t('engines.scoresTitle')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('engines.device')}</Table.Th>
                    <Table.Th scope="col">{t('engines.score')}</Table.Th>
                    <Table.Th scope="col">
                      <VisuallyHidden>{t('engines.chosen')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {scores.scores.map((s) => (
                    <Table.Tr
                      key={s.deviceId}
                      data-testid={`engines-score-${s.deviceId}`}
                      data-chosen={scores.chosen === s.deviceId ? 'true' : 'false'}
                      style={scores.chosen === s.deviceId ? { fontWeight: 700 } : undefined}
                    >
                      <Table.Td>{nameOf(s.deviceId)}</Table.Td>
                      <Table.Td>{s.score === null ? t('engines.noScore') : s.score.toFixed(1)}</Table.Td>
                      <Table.Td>{scores.chosen === s.deviceId ? t('engines.chosen') : ''}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          </Card>
          {devices.map((d) => (
            <DeviceEngines key={d.deviceId} device={d} chosen={scores.chosen === d.deviceId} />
          ))}
        </>
      )}
    </Stack>
  );
}
