/**
 * "Create on a device" (§2 /containers/{alias}; §4 Container action create): pick a version (tag), a
 * connected device whose platform fits it (§9 chipset_id '0' x86, else Jetson), Jupyter (when the
 * environment serves it) and the GPU; Create asks the registry to start the action. Below, the progress of
 * this environment's action on each connected device (download percent, Cancel, outcome).
 */
import { useState } from 'react';
import { Button, Checkbox, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { imageRef } from '../../../../../machines/containers/containerActionChecks';
import type { ConnectedDevice } from '../../../../../machines/containers/containers.machine';
import type { Environment, PublicEnvironment } from '../../../../protocol/containers';
import { devicesForTag, useActionRef, useActionsRef, useContainersView } from '../selectors';
import { ActionProgress } from './ActionProgress';

/** Test ids: create-form, create-tag, create-device, create-jupyter, create-gpu, create-submit,
 * create-progress-{deviceId}. */
export function CreateOnDevice({ environment: env }: { environment: Environment | PublicEnvironment }) {
  const { t } = useTranslation();
  const registry = useActionsRef();
  const { devices } = useContainersView();
  const [tagName, setTagName] = useState(env.tags[0]?.tag ?? '');
  const tag = env.tags.find((x) => x.tag === tagName) ?? env.tags[0];
  const fitting = devicesForTag(devices, tag);
  const [deviceChoice, setDeviceChoice] = useState('');
  const device = fitting.find((d) => d.deviceId === deviceChoice) ?? fitting[0];
  const [jupyter, setJupyter] = useState(env.jupyter);
  const [gpu, setGpu] = useState(env.gpu);

  const create = () => {
    if (!device || !tag) return;
    registry.send({
      type: 'actions.start',
      request: {
        deviceId: device.deviceId,
        deviceName: device.name,
        envName: env.alias,
        image: imageRef(env.image, tag.tag),
        action: 'create',
        jupyter: env.jupyter && jupyter,
        jupyterPort: 'jupyter_port' in env ? env.jupyter_port : null,
        gpu,
        sizeMb: tag.size_mb,
      },
    });
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="create-title">
      <Stack gap="sm" data-testid="create-form">
        <Title order={2} size="h4" id="create-title">
          {t('containers.createTitle')}
        </Title>
        <Group align="flex-end">
          <NativeSelect
            label={t('containers.version')}
            value={tag?.tag ?? ''}
            onChange={(e) => setTagName(e.currentTarget.value)}
            data={env.tags.map((x) => ({
              value: x.tag,
              label: `${x.tag} (${t(`containers.platforms.${x.platform}`)})`,
            }))}
            data-testid="create-tag"
          />
          <NativeSelect
            label={t('containers.device')}
            value={device?.deviceId ?? ''}
            onChange={(e) => setDeviceChoice(e.currentTarget.value)}
            data={fitting.map((d) => ({ value: d.deviceId, label: d.name }))}
            disabled={fitting.length === 0}
            data-testid="create-device"
          />
          {env.jupyter && (
            <Checkbox
              label={t('containers.withJupyter')}
              checked={jupyter}
              onChange={(e) => setJupyter(e.currentTarget.checked)}
              data-testid="create-jupyter"
            />
          )}
          <Checkbox
            label={t('containers.withGpu')}
            checked={gpu}
            onChange={(e) => setGpu(e.currentTarget.checked)}
            data-testid="create-gpu"
          />
          <Button onClick={create} disabled={!device} data-testid="create-submit">
            {t('containers.create')}
          </Button>
        </Group>
        {fitting.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="create-no-device">
            {t('containers.noFittingDevice')}
          </Text>
        )}
        {devices.map((d) => (
          <DeviceProgress key={d.deviceId} device={d} alias={env.alias} />
        ))}
      </Stack>
    </Paper>
  );
}

/** The environment's action on one device, while it runs or until it is dismissed. */
function DeviceProgress({ device, alias }: { device: ConnectedDevice; alias: string }) {
  const ref = useActionRef(device.deviceId, alias);
  return ref ? <ActionProgress actionRef={ref} testId={`create-progress-${device.deviceId}`} /> : null;
}
