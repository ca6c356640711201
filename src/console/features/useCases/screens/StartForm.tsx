/**
 * Starting a use case (issue 11): a name, the device → camera → running inference job it reads (the inference
 * jobs list, views.ts pickerOf), and for a person counter the counting line drawn on the camera's still
 * (LineEditor) and the interval its counts are shown per. Start sends useCase.start (POST use-cases).
 * Test ids: uc-form, uc-name, uc-device, uc-camera, uc-job, uc-interval, uc-start, uc-form-error, uc-no-jobs.
 */
import { Alert, Button, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import { CountingLine, type UseCaseKind } from '../../../../protocol/analytics';
import { useJobPicks } from '../selectors';
import { DEFAULT_LINE, INTERVALS, pickerOf, type JobChoice } from '../views';
import { useCameraStill } from './hooks';
import { LineEditor } from './LineEditor';

export function StartForm(props: {
  kind: UseCaseKind;
  ref_: AnyActorRef;
  busy: boolean;
  error: string | null;
}) {
  const { t } = useTranslation();
  const { kind, ref_, busy, error } = props;
  const jobs = useJobPicks();
  const [name, setName] = useState('');
  const [choice, setChoice] = useState<JobChoice>({ deviceId: '', cameraId: '', jobId: '' });
  const [line, setLine] = useState(DEFAULT_LINE);
  const [interval, setInterval_] = useState(60);
  const picker = pickerOf(jobs, choice);
  const { deviceId, cameraId } = picker.choice;
  const counter = kind === 'person-counter';

  const still = useCameraStill(deviceId, cameraId, counter);

  const lineCheck = CountingLine.safeParse(line);
  const ready = name.trim() !== '' && picker.choice.jobId !== '' && (!counter || lineCheck.success);
  return (
    <form
      data-testid="uc-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!ready) return;
        ref_.send({
          type: 'useCase.start',
          input: {
            name: name.trim(),
            kind,
            job_id: picker.choice.jobId,
            line: counter ? line : null,
            interval_seconds: interval,
          },
        });
      }}
    >
      <Stack>
        {error && (
          <Alert color="red" data-testid="uc-form-error">
            {error}
          </Alert>
        )}
        {picker.devices.length === 0 && (
          <Alert color="yellow" data-testid="uc-no-jobs">
            {t('useCases.form.noJobs')}
          </Alert>
        )}
        <TextInput
          label={t('useCases.form.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          required
          maxLength={120}
          data-testid="uc-name"
        />
        <NativeSelect
          label={t('useCases.form.device')}
          value={picker.choice.deviceId}
          onChange={(e) => setChoice({ deviceId: e.currentTarget.value, cameraId: '', jobId: '' })}
          data={picker.devices}
          data-testid="uc-device"
        />
        <NativeSelect
          label={t('useCases.form.camera')}
          value={picker.choice.cameraId}
          onChange={(e) => setChoice({ ...picker.choice, cameraId: e.currentTarget.value, jobId: '' })}
          data={picker.cameras}
          data-testid="uc-camera"
        />
        <NativeSelect
          label={t('useCases.form.job')}
          description={t('useCases.form.jobHelp')}
          value={picker.choice.jobId}
          onChange={(e) => setChoice({ ...picker.choice, jobId: e.currentTarget.value })}
          data={picker.jobs}
          data-testid="uc-job"
        />
        {counter && (
          <>
            <LineEditor line={line} onChange={setLine} still={still} />
            {!lineCheck.success && (
              <Alert color="red" data-testid="uc-line-error">
                {t('useCases.line.tooShort')}
              </Alert>
            )}
            <NativeSelect
              label={t('useCases.form.interval')}
              value={String(interval)}
              onChange={(e) => setInterval_(Number(e.currentTarget.value))}
              data={INTERVALS.map((s) => ({ value: String(s), label: t(`useCases.interval.${s}`) }))}
              data-testid="uc-interval"
            />
          </>
        )}
        <Button type="submit" loading={busy} disabled={!ready} data-testid="uc-start">
          {t('useCases.form.start')}
        </Button>
      </Stack>
    </form>
  );
}
