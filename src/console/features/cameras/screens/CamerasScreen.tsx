/**
 * /control-panel/cameras (route name cameraPage; §2 "Camera control page"). Lists the cameras of connected
 * devices (each open deviceConnection's context.cameras) with "Open" and "Resolution…" buttons, the IP
 * cameras the server lists (§3: each through the device that reaches it; those without deviceId are
 * skipped), the grid of open streams (StreamGrid: react-grid-layout, 12 columns, 12 per page) and the
 * opening flow's dialogs (OpenerDialogs: chooser, conflict, quota refusal, resolution).
 * Everything here renders the camera grid actor's snapshot and sends it events; the flow lives in
 * machines/cameraGrid.machine.ts. This module is a lazy chunk (react-grid-layout ships only with it).
 */
import { Link } from 'react-router-dom';
import { Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { shallowEqual } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import {
  useConnectionCameras,
  useConnectionDevice,
  useConnectionRefs,
  useConnectionStatus,
  type DeviceConnectionRef,
} from '../../devices/selectors';
import { useStreamsRef, useStreamsSelector } from '../selectors';
import { CameraGroupFilter } from '../../groups/screens/GroupFilter';
import { useCameraGroupMatch } from '../../groups/selectors';
import { OpenerDialogs } from './OpenerDialogs';
import { StreamGrid } from './StreamGrid';
import './cameras.css';

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
        <CameraGroupFilter />
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
      <IpCameras />
      <StreamGrid />
      <OpenerDialogs />
    </Stack>
  );
}

/** The cameras one connected device reports, each with Open and Resolution… buttons. */
function DeviceCameras({ connection }: { connection: DeviceConnectionRef }) {
  const { t } = useTranslation();
  const streams = useStreamsRef();
  const device = useConnectionDevice(connection);
  const state = useConnectionStatus(connection);
  // §3: the device's own cameras here; IP cameras are listed from the server below.
  const group = useCameraGroupMatch();
  const cameras = useConnectionCameras(connection).filter(
    (c) => c.camera_type !== 'ip' && (!group || group.physical(device.device_id, c.camera_id)),
  );
  if (group && cameras.length === 0) return null;
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
        {cameras.map((camera) => {
          const name = camera.label || camera.name;
          return (
            <Button.Group key={camera.id}>
              <Button
                size="xs"
                variant="light"
                disabled={state !== 'open'}
                onClick={() =>
                  streams.send({ type: 'stream.open', deviceId: device.device_id, camera, device })
                }
                aria-label={`${t('cameras.open')} ${name} (${device.label})`}
                data-testid={`camera-open-${device.device_id}-${camera.id}`}
              >
                {t('cameras.open')}: {name}
              </Button>
              <Button
                size="xs"
                variant="default"
                disabled={state !== 'open'}
                onClick={() =>
                  streams.send({
                    type: 'stream.open',
                    deviceId: device.device_id,
                    camera,
                    device,
                    chooseResolution: true,
                  })
                }
                aria-label={`${t('cameras.openWithResolution')} ${name} (${device.label})`}
                data-testid={`camera-open-res-${device.device_id}-${camera.id}`}
              >
                {t('cameras.openWithResolution')}
              </Button>
            </Button.Group>
          );
        })}
      </Group>
    </Paper>
  );
}

/** §3 IP cameras listed by the server, each opened through the device that reaches it. */
function IpCameras() {
  const { t } = useTranslation();
  const streams = useStreamsRef();
  const ipCameras = useStreamsSelector((s) => s.context.ipCameras, shallowEqual);
  const devices = useStreamsSelector((s) => s.context.devices);
  const group = useCameraGroupMatch();
  if (ipCameras.length === 0) return null;
  return (
    <section aria-labelledby="cameras-ip">
      <Title order={2} size="h4" id="cameras-ip" mb="sm">
        {t('cameras.ipCameras')}
      </Title>
      <Group gap="xs">
        {ipCameras
          .filter((c) => c.deviceId && (!group || group.ip(c.id)))
          .map((c) => {
            const device = devices[c.deviceId!];
            return (
              <Button
                key={c.id}
                size="xs"
                variant="light"
                disabled={device?.status !== 'open'}
                onClick={() => streams.send({ type: 'stream.openIp', ipCameraId: c.id })}
                data-testid={`ip-camera-open-${c.id}`}
              >
                {t('cameras.open')}: {c.label} ({t('cameras.ipVia', { device: device?.label ?? c.deviceId })})
              </Button>
            );
          })}
      </Group>
    </section>
  );
}
