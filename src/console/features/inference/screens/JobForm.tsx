/**
 * The start form of /jobs: job name, application, device, camera (read from the device once it is connected),
 * threshold (empty: the application's, itself §9 0.3 by default) and recording. Submitting creates the job and
 * starts it (the jobs actor spawns the start handshake). Test ids: jobs-form, job-name, job-application,
 * job-device, job-camera, job-threshold, job-submit, jobs-form-error.
 */
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Stack,
  Table,
  TextInput,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import { BEST_DEVICE } from '../../../../../machines/inference/jobs.machine';
import { DEFAULT_DETECTION_THRESHOLD } from '../../../../protocol/applications';
import type { JobsView } from '../selectors';

export function JobForm({ view, jobs }: { view: JobsView['form']; jobs: AnyActorRef }) {
  const { t } = useTranslation();
  const set = (patch: Record<string, unknown>) => jobs.send({ type: 'form.set', patch });
  const app = view.applications.find((a) => a.id === view.draft.application_id);
  const busy = view.state === 'creating' || view.state === 'loadingOptions' || view.state === 'scoring';
  return (
    <Modal opened onClose={() => jobs.send({ type: 'form.close' })} title={t('inference.form.title')}>
      <form
        data-testid="jobs-form"
        onSubmit={(e) => {
          e.preventDefault();
          jobs.send({ type: 'form.submit' });
        }}
      >
        <Stack>
          {view.error && (
            <Alert color="red" data-testid="jobs-form-error">
              {view.error}
            </Alert>
          )}
          {view.state !== 'loadingOptions' && view.applications.length === 0 && (
            <Alert color="yellow">{t('inference.form.noApplications')}</Alert>
          )}
          <TextInput
            label={t('inference.form.jobName')}
            value={view.draft.job_name}
            onChange={(e) => set({ job_name: e.currentTarget.value })}
            required
            data-testid="job-name"
          />
          <NativeSelect
            label={t('inference.form.application')}
            value={view.draft.application_id}
            onChange={(e) => set({ application_id: e.currentTarget.value })}
            data={view.applications.map((a) => ({
              value: a.id,
              label: `${a.name} (${a.model_name} v${a.version})`,
            }))}
            data-testid="job-application"
          />
          <NativeSelect
            label={t('inference.form.device')}
            value={view.draft.device_id}
            onChange={(e) => set({ device_id: e.currentTarget.value })}
            data={[
              { value: '', label: t('inference.form.chooseDevice') },
              { value: BEST_DEVICE, label: t('inference.form.bestDevice') },
              ...view.devices.map((d) => ({ value: d.device_id, label: d.label })),
            ]}
            description={view.state === 'scoring' ? t('inference.form.scoring') : undefined}
            data-testid="job-device"
          />
          {view.scores.length > 0 && (
            <Table data-testid="job-scores" fz="xs">
              <Table.Caption>{t('inference.form.scoresTitle')}</Table.Caption>
              <Table.Tbody>
                {view.scores.map((r) => (
                  <Table.Tr
                    key={r.device_id}
                    data-testid={`job-score-${r.label}`}
                    data-score={r.score ?? undefined}
                    data-chosen={r.device_id === view.chosen}
                  >
                    <Table.Td>{r.label}</Table.Td>
                    <Table.Td>{r.score === null ? t('inference.form.noScore') : r.score.toFixed(1)}</Table.Td>
                    <Table.Td>{r.device_id === view.chosen ? t('inference.form.chosen') : ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <NativeSelect
            label={t('inference.form.camera')}
            value={view.draft.camera_id}
            disabled={view.state === 'loadingCameras' || view.cameras.length === 0}
            onChange={(e) => set({ camera_id: e.currentTarget.value })}
            data={view.cameras.map((c) => ({ value: c.camera_id, label: c.name }))}
            description={view.state === 'loadingCameras' ? t('inference.form.loadingCameras') : undefined}
            data-testid="job-camera"
          />
          <NumberInput
            label={t('inference.form.threshold')}
            description={t('inference.form.thresholdHelp', {
              value: app?.threshold ?? DEFAULT_DETECTION_THRESHOLD,
            })}
            min={0}
            max={1}
            step={0.05}
            decimalScale={2}
            value={view.draft.threshold ?? ''}
            onChange={(v) => set({ threshold: typeof v === 'number' ? v : null })}
            data-testid="job-threshold"
          />
          <Checkbox
            label={t('inference.form.recording')}
            checked={view.draft.recording}
            onChange={(e) => set({ recording: e.currentTarget.checked })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => jobs.send({ type: 'form.close' })}>
              {t('inference.cancel')}
            </Button>
            <Button
              type="submit"
              loading={busy}
              disabled={view.state !== 'editing' || !view.draft.camera_id}
              data-testid="job-submit"
            >
              {t('inference.form.start')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
