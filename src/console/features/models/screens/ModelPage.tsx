/**
 * One model's page (issue 9: detail, versions with size, checksum and uploader, New version, delete a version,
 * deploy a version to a connected device with its progress, the model's deployments). Shown by /models,
 * /llm-models and /models-beta with `?model=<id>`; /models-beta shows the model card (description, classes)
 * first. Test ids: models-detail, models-back, models-new-version-open, models-versions, models-version-<n>,
 * models-version-delete-<n>, models-version-confirm, models-deploy-version, models-deploy-device,
 * models-deploy-start, models-deploy-progress, models-deploy-state, models-deploy-cancel, models-deployments.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  NativeSelect,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AnyActorRef } from 'xstate';
import { formatSize, inputSizeText, percentOf, useDeployDevices, type ModelDetailView } from '../selectors';
import { UploadModelDialog } from './UploadModelDialog';

function DeployPanel({ view, detail }: { view: ModelDetailView; detail: AnyActorRef }) {
  const { t } = useTranslation();
  const devices = useDeployDevices();
  const model = view.model!;
  const [version, setVersion] = useState<number | null>(null);
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const chosenVersion = version ?? model.version_list[0]?.version ?? null;
  const chosenDevice =
    deviceId && devices.some((d) => d.deviceId === deviceId) ? deviceId : (devices[0]?.deviceId ?? null);
  const deploy = view.deploy;
  const deviceName = (id: string) => devices.find((d) => d.deviceId === id)?.name ?? id;
  const stateText = deploy ? t(`models.deployState.${deploy.state}`) : '';

  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('models.deploy')}
        </Title>
        {devices.length === 0 ? (
          <Text size="sm">
            {t('models.noConnectedDevice')}{' '}
            <Anchor component={Link} to="/control-panel/devices">
              {t('models.goToDevices')}
            </Anchor>
          </Text>
        ) : (
          <Group align="flex-end">
            <NativeSelect
              label={t('models.deployVersion')}
              value={chosenVersion === null ? '' : String(chosenVersion)}
              data={model.version_list.map((v) => ({
                value: String(v.version),
                label: `v${v.version} · ${v.file_name}`,
              }))}
              onChange={(e) => setVersion(Number(e.currentTarget.value))}
              data-testid="models-deploy-version"
            />
            <NativeSelect
              label={t('models.deployDevice')}
              value={chosenDevice ?? ''}
              data={devices.map((d) => ({ value: d.deviceId, label: d.name }))}
              onChange={(e) => setDeviceId(e.currentTarget.value)}
              data-testid="models-deploy-device"
            />
            <Button
              disabled={chosenVersion === null || !chosenDevice || !!deploy?.running}
              onClick={() =>
                detail.send({ type: 'deploy.start', version: chosenVersion!, deviceId: chosenDevice! })
              }
              data-testid="models-deploy-start"
            >
              {t('models.deployStart')}
            </Button>
          </Group>
        )}
        {deploy && (
          <Stack gap={4} data-testid="models-deploy-progress">
            <Text size="sm">
              {t('models.deployProgress', { version: deploy.version, device: deviceName(deploy.deviceId) })}
            </Text>
            <Group>
              <Progress
                value={deploy.percent}
                style={{ flex: 1 }}
                aria-label={t('models.deployProgress', {
                  version: deploy.version,
                  device: deviceName(deploy.deviceId),
                })}
                color={deploy.state === 'failed' ? 'red' : deploy.state === 'installed' ? 'green' : undefined}
              />
              <Text size="xs">{t('models.percent', { percent: deploy.percent })}</Text>
              <Badge data-testid="models-deploy-state" data-state={deploy.state} variant="light">
                {stateText}
              </Badge>
              {deploy.running ? (
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => detail.send({ type: 'deploy.cancel' })}
                  data-testid="models-deploy-cancel"
                >
                  {t('models.deployCancel')}
                </Button>
              ) : (
                <Button size="xs" variant="subtle" onClick={() => detail.send({ type: 'deploy.dismiss' })}>
                  {t('models.dismiss')}
                </Button>
              )}
            </Group>
            {deploy.error && (
              <Text size="sm" c="red" role="alert">
                {t('models.error', { error: deploy.error })}
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

export function ModelPage({
  view,
  detail,
  card,
  onBack,
}: {
  view: ModelDetailView;
  detail: AnyActorRef;
  card: boolean;
  onBack: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [versionOpen, setVersionOpen] = useState(false);
  const model = view.model;
  const date = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  useEffect(() => {
    if (view.status === 'failed') onBack();
  }, [view.status, onBack]);
  if (!model) return <Text size="sm">{t('models.loading')}</Text>;

  const facts = (
    <Table variant="vertical" withTableBorder>
      <Table.Tbody>
        <Table.Tr>
          <Table.Th w={160}>{t('models.id')}</Table.Th>
          <Table.Td ff="monospace">{model.id}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>{t('models.task')}</Table.Th>
          <Table.Td>{model.task}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>{t('models.format')}</Table.Th>
          <Table.Td>{model.format}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>{t('models.inputSize')}</Table.Th>
          <Table.Td>{inputSizeText(model) || '—'}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>{t('models.classes')}</Table.Th>
          <Table.Td>
            {model.classes.length ? (
              <Group gap={4}>
                {model.classes.map((c) => (
                  <Badge key={c} variant="outline" color="gray">
                    {c}
                  </Badge>
                ))}
              </Group>
            ) : (
              t('models.noClasses')
            )}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
  const description = (
    <Card withBorder padding="md">
      <Title order={3} size="h4">
        {card ? t('models.card') : t('models.description')}
      </Title>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {model.description || t('models.noDescription')}
      </Text>
    </Card>
  );

  return (
    <Stack gap="md" data-testid="models-detail">
      <Group justify="space-between">
        <Group>
          <Button variant="subtle" onClick={onBack} data-testid="models-back">
            {t('models.back')}
          </Button>
          <Title order={2} size="h3">
            {model.name}
          </Title>
        </Group>
        <Button onClick={() => setVersionOpen(true)} data-testid="models-new-version-open">
          {t('models.newVersion')}
        </Button>
      </Group>
      {view.error && (
        <Alert color="red" role="alert">
          {view.error}
        </Alert>
      )}
      {card ? (
        <>
          {description}
          {facts}
        </>
      ) : (
        <>
          {facts}
          {description}
        </>
      )}
      <DeployPanel view={view} detail={detail} />

      <Title order={3} size="h4">
        {t('models.versions')}
      </Title>
      <Table striped data-testid="models-versions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('models.version')}</Table.Th>
            <Table.Th>{t('models.file')}</Table.Th>
            <Table.Th>{t('models.size')}</Table.Th>
            <Table.Th>{t('models.checksum')}</Table.Th>
            <Table.Th>{t('models.uploadedBy')}</Table.Th>
            <Table.Th>{t('models.updated')}</Table.Th>
            <Table.Th>{t('models.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {model.version_list.map((v) => (
            <Table.Tr key={v.id} data-testid={`models-version-${v.version}`}>
              <Table.Td>v{v.version}</Table.Td>
              <Table.Td>{v.file_name}</Table.Td>
              <Table.Td>{formatSize(v.size)}</Table.Td>
              <Table.Td>
                <Text size="xs" ff="monospace" title={v.sha256}>
                  {v.sha256.slice(0, 16)}…
                </Text>
              </Table.Td>
              <Table.Td>{v.uploaded_by ?? '—'}</Table.Td>
              <Table.Td>{date(v.created_at)}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => detail.send({ type: 'version.delete.ask', version: v.version })}
                    data-testid={`models-version-delete-${v.version}`}
                  >
                    {t('models.deleteVersion', { version: v.version })}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>

      <Title order={3} size="h4">
        {t('models.deployments')}
      </Title>
      {model.deployments.length === 0 ? (
        <Text size="sm">{t('models.noDeployments')}</Text>
      ) : (
        <Table data-testid="models-deployments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('models.device')}</Table.Th>
              <Table.Th>{t('models.version')}</Table.Th>
              <Table.Th>{t('models.state')}</Table.Th>
              <Table.Th>{t('models.progress')}</Table.Th>
              <Table.Th>{t('models.updated')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {model.deployments.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>{d.device_label}</Table.Td>
                <Table.Td>v{d.version}</Table.Td>
                <Table.Td>{t(`models.deployState.${d.state}`)}</Table.Td>
                <Table.Td>
                  {t('models.percent', { percent: percentOf(d.bytes_done, d.bytes_total) })}
                </Table.Td>
                <Table.Td>{date(d.updated_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      <Modal
        opened={view.confirmingVersion !== null}
        onClose={() => detail.send({ type: 'version.delete.cancel' })}
        title={t('models.deleteVersionTitle')}
      >
        <Stack data-testid="models-version-confirm">
          <Text size="sm">
            {t('models.deleteVersionConfirm', { version: view.confirmingVersion ?? '', name: model.name })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => detail.send({ type: 'version.delete.cancel' })}>
              {t('models.cancel')}
            </Button>
            <Button color="red" onClick={() => detail.send({ type: 'version.delete.confirm' })}>
              {t('models.confirmDelete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <UploadModelDialog opened={versionOpen} onClose={() => setVersionOpen(false)} model={model} />
    </Stack>
  );
}
