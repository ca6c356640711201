/**
 * /control-panel/cameras (route name cameraPage; §2 "Camera control page"). Lists the cameras of connected
 * devices (each open deviceConnection's context.cameras), grouped by device, each with an Open button
 * (§5: opening requires the device to be connected — the streams machine checks and warns). Open streams
 * fill a 12-column grid, 12 cells per page (§9), each cell 4 columns wide (§9 medium layout width; a later
 * issue brings react-grid-layout and the other sizes).
 */
import { Link } from 'react-router-dom';
import { Anchor, Badge, Button, Group, Pagination, Paper, Stack, Text, Title } from '@mantine/core';
import { shallowEqual } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { CAMERA_GRID_CELLS_PER_PAGE } from '../../../protocol/constants';
import { pageCount } from '../../lib/format';
import {
  useConnectionCameras,
  useConnectionDevice,
  useConnectionRefs,
  useConnectionState,
  useStreamsRef,
  useStreamsSelector,
  type DeviceConnectionRef,
} from '../../state/hooks';
import { StreamCell } from './StreamCell';

export default function CamerasScreen() {
  const { t } = useTranslation();
  const connections = useConnectionRefs();
  return (
    <Stack gap="lg">
      <Title order={1}>{t('cameras.title')}</Title>
      <section aria-labelledby="cameras-available">
        <Title order={2} size="h4" id="cameras-available" mb="sm">
          {t('cameras.available')}
        </Title>
        {connections.length === 0 ? (
          <Paper withBorder p="md" data-testid="cameras-no-device">
            <Text>{t('cameras.noDevice')}</Text>
            <Anchor component={Link} to="/control-panel/devices">
              {t('cameras.goToDevices')}
            </Anchor>
          </Paper>
        ) : (
          <Stack gap="sm">
            {connections.map((ref) => (
              <DeviceCameras key={ref.id} connection={ref} />
            ))}
          </Stack>
        )}
      </section>
      <StreamGrid />
    </Stack>
  );
}

/** The cameras one connected device reports, each with an Open button. */
function DeviceCameras({ connection }: { connection: DeviceConnectionRef }) {
  const { t } = useTranslation();
  const streams = useStreamsRef();
  const device = useConnectionDevice(connection);
  const state = useConnectionState(connection);
  const cameras = useConnectionCameras(connection);
  return (
    <Paper withBorder p="sm" data-testid={`camera-device-${device.device_id}`}>
      <Group gap="sm" mb="xs">
        <Text fw={600}>{device.label}</Text>
        <Badge variant="light" color={state === 'open' ? 'green' : 'yellow'}>
          {t(`connection.${state}`)}
        </Badge>
      </Group>
      {state === 'open' && cameras.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('cameras.noCameras')}
        </Text>
      )}
      <Group gap="xs">
        {cameras.map((camera) => (
          <Button
            key={camera.id}
            size="xs"
            variant="light"
            disabled={state !== 'open'}
            onClick={() => streams.send({ type: 'stream.open', deviceId: device.device_id, camera })}
            aria-label={`${t('cameras.open')} ${camera.label || camera.name} (${device.label})`}
            data-testid={`camera-open-${device.device_id}-${camera.id}`}
          >
            {t('cameras.open')}: {camera.label || camera.name}
          </Button>
        ))}
      </Group>
    </Paper>
  );
}

/** The 12-column grid of open streams, 12 per page (§2 §9), with a page switcher beyond 12. */
function StreamGrid() {
  const { t } = useTranslation();
  const streams = useStreamsRef();
  const entries = useStreamsSelector((s) => s.context.streams, shallowEqual);
  const page = useStreamsSelector((s) => s.context.page);
  const pages = pageCount(entries.length, CAMERA_GRID_CELLS_PER_PAGE);
  const shown = entries.slice((page - 1) * CAMERA_GRID_CELLS_PER_PAGE, page * CAMERA_GRID_CELLS_PER_PAGE);
  return (
    <section aria-labelledby="stream-grid-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="stream-grid-title">
          {t('cameras.grid')}
        </Title>
        {entries.length > CAMERA_GRID_CELLS_PER_PAGE && (
          <nav aria-label={t('cameras.pages')}>
            <Pagination
              total={pages}
              value={page}
              onChange={(p) => streams.send({ type: 'grid.page', page: p })}
              data-testid="stream-pages"
            />
          </nav>
        )}
      </Group>
      {entries.length === 0 ? (
        <Text c="dimmed">{t('cameras.noStreams')}</Text>
      ) : (
        <div className="stream-grid" data-testid="stream-grid">
          {shown.map((entry) => (
            <StreamCell key={entry.streamId} streamId={entry.streamId} stream={entry.ref} />
          ))}
        </div>
      )}
    </section>
  );
}
