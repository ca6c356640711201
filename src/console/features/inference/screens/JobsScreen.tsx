/**
 * /jobs (§2 auth route; §3 Job; §4 "Job events"): the user's jobs — name, application, device, camera, state
 * — with Start a job (an application, a device, one of its cameras), each start's stages with their elapsed
 * times (StartProgress), View (the camera page with the detections over the video), Stop, Start again,
 * Delete, and Delete selected (multiple deletion), each delete confirmed.
 * The steps before the stages (device link, alarm-new, calendars, engine check) are listed too, each with its
 * elapsed time and a stalled note, so a start never waits silently.
 * Test ids: jobs-screen, jobs-add, jobs-form, job-row-<name>, job-progress, job-prep-<step>, job-stage-<step>,
 * jobs-delete-selected, jobs-confirm.
 */
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { AnyActorRef } from 'xstate';
import { SYSTEM_IDS } from '../../../../../machines/systemIds';
import type { DeviceCamera } from '../../../../protocol/cameras';
import { DeleteIcon } from '../../../shell/icons';
import { useSystem } from '../../../shell/SystemProvider';
import '../i18n';
import '../inference.css';
import { useJobsRef, useJobsView, useStartRef, type JobRow } from '../selectors';
import { JobForm } from './JobForm';
import { StartProgress } from './StartProgress';

const STATE_COLOR = {
  created: 'gray',
  deploying: 'blue',
  started: 'green',
  error: 'red',
  stopped: 'gray',
} as const;

export default function JobsScreen() {
  const { t } = useTranslation();
  const ref = useJobsRef();
  const view = useJobsView();
  useEffect(() => {
    ref.send({ type: 'jobs.load' });
  }, [ref]);
  return (
    <Stack data-testid="jobs-screen" aria-busy={view.busy}>
      <Group justify="space-between">
        <div>
          <Title order={2}>{t('inference.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('inference.intro')}
          </Text>
        </div>
        <Group>
          <Button variant="default" onClick={() => ref.send({ type: 'jobs.refresh' })}>
            {t('inference.refresh')}
          </Button>
          <Button
            color="red"
            variant="light"
            disabled={view.selectedCount === 0}
            onClick={() => ref.send({ type: 'jobs.deleteSelected' })}
            data-testid="jobs-delete-selected"
          >
            {t('inference.removeSelected', { count: view.selectedCount })}
          </Button>
          <Button onClick={() => ref.send({ type: 'form.open' })} data-testid="jobs-add">
            {t('inference.add')}
          </Button>
        </Group>
      </Group>
      {view.state === 'loading' && view.rows.length === 0 && <Loader aria-label={t('inference.loading')} />}
      {view.state === 'failed' && (
        <Alert color="red" data-testid="jobs-error">
          {t('inference.failed', { error: view.error ?? '' })}
        </Alert>
      )}
      {view.state !== 'loading' && view.rows.length === 0 && view.state !== 'failed' && (
        <Text c="dimmed">{t('inference.empty')}</Text>
      )}
      {view.rows.length > 0 && (
        <Table data-testid="jobs-table" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th aria-label={t('inference.actions')} />
              <Table.Th>{t('inference.name')}</Table.Th>
              <Table.Th>{t('inference.application')}</Table.Th>
              <Table.Th>{t('inference.device')}</Table.Th>
              <Table.Th>{t('inference.camera')}</Table.Th>
              <Table.Th>{t('inference.state')}</Table.Th>
              <Table.Th>{t('inference.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.rows.map((row) => (
              <JobRowView key={row.id} row={row} jobs={ref} />
            ))}
          </Table.Tbody>
        </Table>
      )}
      {view.form.state !== 'closed' && <JobForm view={view.form} jobs={ref} />}
      <Modal
        opened={view.confirming}
        onClose={() => ref.send({ type: 'op.cancel' })}
        title={t('inference.removeTitle')}
      >
        <Stack data-testid="jobs-confirm">
          <Text>{t('inference.removeConfirm', { names: view.op?.names.join(', ') ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => ref.send({ type: 'op.cancel' })}>
              {t('inference.cancel')}
            </Button>
            <Button
              color="red"
              onClick={() => ref.send({ type: 'op.confirm' })}
              data-testid="jobs-confirm-delete"
            >
              {t('inference.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function JobRowView({ row, jobs }: { row: JobRow; jobs: AnyActorRef }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const system = useSystem();
  const startRef = useStartRef(row.id);
  const view = () => {
    const streams = system.system.get(SYSTEM_IDS.streams);
    const camera: DeviceCamera = { camera_id: row.cameraId, name: row.camera } as DeviceCamera;
    streams?.send({ type: 'stream.open', deviceId: row.deviceId, camera });
    navigate('/control-panel/cameras');
  };
  return (
    <>
      <Table.Tr data-testid={`job-row-${row.name}`} data-state={row.state}>
        <Table.Td>
          <Checkbox
            checked={row.selected}
            onChange={(e) => jobs.send({ type: 'job.select', id: row.id, selected: e.currentTarget.checked })}
            aria-label={t('inference.select', { name: row.name })}
            data-testid="job-select"
          />
        </Table.Td>
        <Table.Td>{row.name}</Table.Td>
        <Table.Td>{row.application}</Table.Td>
        <Table.Td>{row.device}</Table.Td>
        <Table.Td>{row.camera}</Table.Td>
        <Table.Td>
          <Badge color={STATE_COLOR[row.state]} variant="light" data-testid="job-state">
            {t(`inference.states.${row.state}`)}
          </Badge>
          {row.state === 'error' && (row.inferenceEngineError || row.message) && (
            <Text size="xs" c="red" data-testid="job-message">
              {row.inferenceEngineError ?? row.message}
            </Text>
          )}
        </Table.Td>
        <Table.Td>
          <Group gap={4} wrap="nowrap">
            {row.state === 'started' && (
              <Button
                size="compact-xs"
                onClick={view}
                aria-label={t('inference.viewNamed', { name: row.name })}
                data-testid="job-view"
              >
                {t('inference.view')}
              </Button>
            )}
            {(row.state === 'started' || row.state === 'deploying') && (
              <Button
                size="compact-xs"
                variant="light"
                onClick={() => jobs.send({ type: 'job.stop', id: row.id })}
                aria-label={t('inference.stopNamed', { name: row.name })}
                data-testid="job-stop"
              >
                {t('inference.stop')}
              </Button>
            )}
            {(row.state === 'stopped' || row.state === 'error') && (
              <Button
                size="compact-xs"
                variant="light"
                onClick={() => jobs.send({ type: 'job.restart', id: row.id })}
                data-testid="job-restart"
              >
                {t('inference.restart')}
              </Button>
            )}
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              onClick={() => jobs.send({ type: 'job.delete', id: row.id })}
              aria-label={t('inference.remove', { name: row.name })}
              data-testid="job-delete"
            >
              <DeleteIcon />
            </Button>
          </Group>
        </Table.Td>
      </Table.Tr>
      {startRef && (
        <Table.Tr>
          <Table.Td colSpan={7}>
            <StartProgress startRef={startRef} name={row.name} jobs={jobs} jobId={row.id} />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}
