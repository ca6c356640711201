/**
 * One start's progress (§4 step 5): the preparation steps and every stage with its state and elapsed time
 * (console and device), the engine, a restart badge, a stalled note and the error; Cancel start while it runs.
 * Shown on /jobs under the job's row and on the stream page. Test ids: job-progress, job-prep-<step>,
 * job-stage-<step>, job-engine, job-total, job-stalled, job-start-error.
 */
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import '../i18n';
import '../inference.css';
import { useStartView } from '../selectors';

/** A dark orange: 4.5:1 on white at 12 px (Mantine's orange is 3.6:1, orange-9 3.9:1). */
const STALLED_COLOR = '#9c3a00';

/** §4 step 5: every stage with its state and elapsed time; a stalled stage says so. */
export function StartProgress({
  startRef,
  name,
  jobs,
  jobId,
}: {
  startRef: AnyActorRef;
  name: string;
  jobs: AnyActorRef;
  jobId: string;
}) {
  const { t } = useTranslation();
  const v = useStartView(startRef);
  const running = v.phase === 'preparing' || v.phase === 'starting';
  return (
    <Stack gap={2} data-testid="job-progress" data-phase={v.phase} data-total={v.totalMs}>
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {t('inference.progress.title', { name })}
        </Text>
        {v.engine && (
          <Text size="xs" c="dimmed" data-testid="job-engine">
            {t('inference.progress.engine', { engine: v.engine })}
          </Text>
        )}
        {v.attempt > 1 && <Badge size="xs">{t('inference.progress.attempt')}</Badge>}
        <Text size="xs" c="dimmed" data-testid="job-total">
          {t('inference.progress.total', { ms: v.totalMs })}
        </Text>
        {running && (
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => jobs.send({ type: 'start.cancel', id: jobId })}
          >
            {t('inference.cancelStart')}
          </Button>
        )}
      </Group>
      <Text size="xs" c="dimmed" id={`job-prep-title-${jobId}`}>
        {t('inference.progress.prepTitle')}
      </Text>
      <ol className="inference-stages" aria-labelledby={`job-prep-title-${jobId}`} data-testid="job-prep">
        {v.prep.map((p) => (
          <li
            key={p.step}
            className="inference-stage"
            data-state={p.state}
            data-step={p.step}
            data-testid={`job-prep-${p.step}`}
            data-elapsed={p.elapsedMs ?? undefined}
          >
            {t(`inference.progress.prep.${p.step}`)} — {t(`inference.progress.${p.state}`)}
            {p.elapsedMs !== null && ` · ${t('inference.progress.elapsed', { ms: p.elapsedMs })}`}
            {p.stalled && <StalledNote />}
          </li>
        ))}
      </ol>
      <ol className="inference-stages" aria-live="polite">
        {v.stages.map((s) => (
          <li
            key={s.step}
            className="inference-stage"
            data-state={s.state}
            data-step={s.step}
            data-testid={`job-stage-${s.step}`}
            data-elapsed={s.elapsedMs ?? undefined}
            data-device-ms={s.deviceMs ?? undefined}
          >
            {s.label} — {t(`inference.progress.${s.state}`)}
            {s.elapsedMs !== null && ` · ${t('inference.progress.elapsed', { ms: s.elapsedMs })}`}
            {s.deviceMs !== null && ` (${t('inference.progress.device', { ms: s.deviceMs })})`}
            {s.progress !== null && s.state === 'running' && ` · ${Math.round(s.progress * 100)} %`}
            {s.detail && <Text span size="xs" c="dimmed">{` · ${s.detail}`}</Text>}
            {s.stalled && <StalledNote />}
          </li>
        ))}
      </ol>
      {v.error && (
        <Text size="sm" c="red" data-testid="job-start-error">
          {v.error}
        </Text>
      )}
    </Stack>
  );
}

/** The note of a step or stage that has gone silent (§4 heartbeat). */
function StalledNote() {
  const { t } = useTranslation();
  return (
    <Text span size="xs" c={STALLED_COLOR} data-testid="job-stalled">
      {` · ${t('inference.progress.stalled')}`}
    </Text>
  );
}
