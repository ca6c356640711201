/**
 * The application part of a stream page (/stream-detail, §2; §3 Stream application flag; §4 step 7): which
 * jobs run on this camera (name, application), "Run an application" (the jobs start form preset to
 * this device and camera; its start is a stream page start) and the progress of this camera's starts. When a
 * stream page start's peer connection fails, the jobs actor records the job as failed and emits `navigate`:
 * this view, while shown, follows it back to /control-panel/cameras (§4 step 7).
 * Test ids: stream-apps, stream-apps-job, stream-apps-none, stream-apps-run.
 */
import { Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import '../i18n';
import { useJobsRef, useJobsView, useStartRef, useStartedJobs, type JobRow } from '../selectors';
import { JobForm } from './JobForm';
import { StartProgress } from './StartProgress';

export default function StreamApplications({ deviceId, cameraId }: { deviceId: string; cameraId: string }) {
  const { t } = useTranslation();
  const jobs = useJobsRef();
  const view = useJobsView();
  const started = useStartedJobs(deviceId, cameraId);
  const navigate = useNavigate();
  useEffect(() => {
    jobs.send({ type: 'jobs.load' });
    const sub = jobs.on('navigate', (e: { to: string }) => navigate(e.to));
    return () => sub.unsubscribe();
  }, [jobs, navigate]);
  const here = view.rows.filter((r) => r.deviceId === deviceId && r.cameraId === cameraId);
  return (
    <Paper withBorder p="sm" data-testid="stream-apps">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('inference.streamPage.title')}
          </Title>
          <Button
            size="xs"
            onClick={() =>
              jobs.send({
                type: 'form.open',
                preset: { device_id: deviceId, camera_id: cameraId },
                origin: 'streamPage',
              })
            }
            data-testid="stream-apps-run"
          >
            {t('inference.streamPage.run')}
          </Button>
        </Group>
        {started.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="stream-apps-none">
            {t('inference.streamPage.none')}
          </Text>
        ) : (
          <List size="sm">
            {started.map((j) => (
              <List.Item key={j.id} data-testid="stream-apps-job">
                {t('inference.streamPage.job', { name: j.name, application: j.application })}
              </List.Item>
            ))}
          </List>
        )}
        {here.map((row) => (
          <RowProgress key={row.id} row={row} />
        ))}
      </Stack>
      {view.form.state !== 'closed' && <JobForm view={view.form} jobs={jobs} />}
    </Paper>
  );
}

/** A start of this camera's job, while this session has one. */
function RowProgress({ row }: { row: JobRow }) {
  const jobs = useJobsRef();
  const startRef = useStartRef(row.id);
  if (!startRef) return null;
  return <StartProgress startRef={startRef} name={row.name} jobs={jobs} jobId={row.id} />;
}
