/**
 * The calendar editor of `/schedulers` (issue 10; machines/schedulers/calendarEdit.machine.ts): name, IANA
 * time zone (the browser's by default), weekly times (the week grid, or day + from + to), the jobs it starts
 * and stops; Save sends it to the devices, whose answers (timer armed, next edge, or why not) are shown.
 * Test ids: calendar-form, calendar-name, calendar-zone, interval-day, interval-from, interval-to,
 * interval-add, interval-<weekday>-<start>, calendar-job-<job name>, calendar-save, calendar-status,
 * calendar-result-<device id>, calendar-close.
 */
import {
  Alert,
  Button,
  Checkbox,
  CloseButton,
  Group,
  Modal,
  NativeSelect,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceSyncResult } from '../../../../../machines/schedulers/calendarEdit.machine';
import type { Calendar, CalendarInput, CalendarInterval } from '../../../../protocol/schedulers';
import { calendarEditLogic } from '../actors';
import '../i18n';
import { calendarEditToView, edgeText, localeOf, weekdayName, type CalendarsView } from '../selectors';
import { addInterval, browserTimeZone, intervalProblem, timeZones, WEEK_ORDER } from '../week';
import { WeekGrid } from './WeekGrid';

export function CalendarForm({
  calendar,
  jobs,
  onSynced,
  onClose,
}: {
  calendar: Calendar | null;
  jobs: CalendarsView['jobs'];
  onSynced: (id: string, results: DeviceSyncResult[]) => void;
  onClose: (saved: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = localeOf(i18n.language);
  const [snapshot, send] = useMachine(calendarEditLogic(), {
    input: { calendar, timeZone: browserTimeZone() },
  });
  const view = calendarEditToView(snapshot);
  const d = view.draft;
  const zones = useMemo(() => timeZones(d.time_zone), [d.time_zone]);
  const [pick, setPick] = useState({ weekday: '1', start: '08:00', end: '17:00' });
  const [pickError, setPickError] = useState<string | null>(null);
  const edit = (patch: Partial<CalendarInput>) => send({ type: 'calendar.edit', draft: { ...d, ...patch } });
  const add = (i: CalendarInterval) => edit({ intervals: addInterval(d.intervals, i) });
  const day = (w: number) => weekdayName(w, locale);
  const intervalText = (i: CalendarInterval) =>
    t('schedulers.interval', { day: day(i.weekday), start: i.start, end: i.end });

  useEffect(() => {
    if (view.state === 'synced' && view.savedId)
      onSynced(view.savedId, snapshot.context.results as DeviceSyncResult[]);
    // Once per send: the results change only when a send ends.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view.state, view.savedId, snapshot.context.results]);

  const done = view.state === 'synced' || view.state === 'syncFailed';
  const locked = view.state !== 'editing';
  const title = calendar ? t('schedulers.formEdit', { name: calendar.name }) : t('schedulers.formNew');
  return (
    <Modal opened onClose={() => onClose(view.savedId !== null)} title={title} size="xl">
      <Stack gap="sm" data-testid="calendar-form">
        <TextInput
          label={t('schedulers.name')}
          data-testid="calendar-name"
          value={d.name}
          required
          disabled={locked}
          maxLength={120}
          onChange={(e) => edit({ name: e.currentTarget.value })}
        />
        <Select
          label={t('schedulers.zone')}
          description={t('schedulers.zoneHelp')}
          data-testid="calendar-zone"
          data={zones}
          value={d.time_zone}
          searchable
          allowDeselect={false}
          disabled={locked}
          limit={50}
          onChange={(z) => z && edit({ time_zone: z })}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('schedulers.week')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('schedulers.weekHelp')}
          </Text>
          <WeekGrid
            intervals={view.intervals}
            dayName={day}
            label={
              view.intervals.length
                ? t('schedulers.grid', { summary: view.intervals.map(intervalText).join(', ') })
                : t('schedulers.gridEmpty')
            }
            onAdd={(i) => !locked && add(i)}
          />
        </Stack>
        <Group align="flex-end" gap="xs">
          <NativeSelect
            label={t('schedulers.day')}
            data-testid="interval-day"
            value={pick.weekday}
            disabled={locked}
            data={WEEK_ORDER.map((w) => ({ value: String(w), label: weekdayName(w, locale, 'long') }))}
            onChange={(e) => setPick({ ...pick, weekday: e.currentTarget.value })}
          />
          <TextInput
            type="time"
            label={t('schedulers.from')}
            data-testid="interval-from"
            value={pick.start}
            disabled={locked}
            onChange={(e) => setPick({ ...pick, start: e.currentTarget.value })}
          />
          <TextInput
            type="time"
            label={t('schedulers.to')}
            description="24:00 = 23:59"
            data-testid="interval-to"
            value={pick.end}
            disabled={locked}
            onChange={(e) => setPick({ ...pick, end: e.currentTarget.value })}
          />
          <Button
            variant="default"
            data-testid="interval-add"
            disabled={locked}
            onClick={() => {
              // A native time input stops at 23:59: read it as the end of the day.
              const end = pick.end === '23:59' ? '24:00' : pick.end;
              const problem = intervalProblem(pick.start, end);
              setPickError(problem ? t(`schedulers.${problem}`) : null);
              if (!problem) add({ weekday: Number(pick.weekday), start: pick.start, end });
            }}
          >
            {t('schedulers.addInterval')}
          </Button>
        </Group>
        {pickError && (
          <Text size="sm" c="red" role="alert">
            {pickError}
          </Text>
        )}
        <Group gap={6} aria-label={t('schedulers.intervals')} role="list">
          {view.intervals.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('schedulers.noIntervals')}
            </Text>
          )}
          {view.intervals.map((i) => (
            <Group
              key={`${i.weekday}-${i.start}`}
              gap={2}
              role="listitem"
              data-testid={`interval-${i.weekday}-${i.start}`}
              style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4, paddingLeft: 6 }}
            >
              <Text size="sm">{intervalText(i)}</Text>
              <CloseButton
                size="sm"
                disabled={locked}
                aria-label={t('schedulers.removeInterval', { interval: intervalText(i) })}
                onClick={() =>
                  edit({
                    intervals: view.intervals.filter(
                      (x) => !(x.weekday === i.weekday && x.start === i.start),
                    ),
                  })
                }
              />
            </Group>
          ))}
        </Group>
        <Stack gap={4} role="group" aria-labelledby="calendar-jobs-label">
          <Text size="sm" fw={500} id="calendar-jobs-label">
            {t('schedulers.jobs')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('schedulers.jobsHelp')}
          </Text>
          {jobs.length === 0 && <Text size="sm">{t('schedulers.noJobsYet')}</Text>}
          {jobs.map((j) => (
            <Checkbox
              key={j.id}
              data-testid={`calendar-job-${j.label.split(' · ')[0]}`}
              label={
                j.calendar && j.calendar !== calendar?.name
                  ? `${j.label} (${t('schedulers.inOther', { name: j.calendar })})`
                  : j.label
              }
              checked={d.job_ids.includes(j.id)}
              disabled={locked}
              onChange={(e) =>
                edit({
                  job_ids: e.currentTarget.checked
                    ? [...d.job_ids, j.id]
                    : d.job_ids.filter((x) => x !== j.id),
                })
              }
            />
          ))}
        </Stack>
        {view.error && view.state === 'editing' && (
          <Alert color="red" role="alert">
            {view.error.code === 'Calendar_exists'
              ? t('schedulers.nameTaken')
              : t('schedulers.saveFailed', { error: view.error.message })}
          </Alert>
        )}
        <Stack gap={4} data-testid="calendar-status" data-state={view.state} aria-live="polite">
          {view.state === 'saving' && <Text size="sm">{t('schedulers.saving')}</Text>}
          {view.state === 'syncing' && <Text size="sm">{t('schedulers.syncing')}</Text>}
          {view.state === 'syncFailed' && (
            <Text size="sm" c="red">
              {t('schedulers.syncFailed', { error: view.error?.message ?? '' })}
            </Text>
          )}
          {view.state === 'synced' && (
            <Text size="sm">{view.results.length ? t('schedulers.synced') : t('schedulers.syncedNone')}</Text>
          )}
          {view.state === 'synced' &&
            view.results.map((r) => (
              <Text
                key={r.deviceId}
                size="sm"
                c={r.error || r.status?.last_error ? 'red' : undefined}
                data-testid={`calendar-result-${r.deviceId}`}
                data-armed={r.error === null && !!r.status?.next}
              >
                {r.deviceId}:{' '}
                {r.error || r.status?.last_error
                  ? t('schedulers.notArmed', { error: r.error ?? r.status?.last_error })
                  : r.status?.next
                    ? t('schedulers.armed', {
                        next: t(r.status.next.kind === 'start' ? 'schedulers.starts' : 'schedulers.stops', {
                          when: edgeText(r.status.next.at, d.time_zone, locale),
                          zone: d.time_zone,
                        }),
                      })
                    : t('schedulers.armedIdle')}
              </Text>
            ))}
        </Stack>
        <Group justify="flex-end">
          {view.state === 'syncFailed' && (
            <Button variant="default" onClick={() => send({ type: 'calendar.retry' })}>
              {t('schedulers.resend')}
            </Button>
          )}
          {done && (
            <Button variant="default" onClick={() => send({ type: 'calendar.edit', draft: d })}>
              {t('schedulers.editAgain')}
            </Button>
          )}
          <Button
            variant="default"
            data-testid="calendar-close"
            onClick={() => onClose(view.savedId !== null)}
          >
            {done ? t('schedulers.close') : t('schedulers.cancel')}
          </Button>
          {!done && (
            <Button
              data-testid="calendar-save"
              disabled={!view.canSave}
              loading={view.busy}
              onClick={() => send({ type: 'calendar.save' })}
            >
              {t('schedulers.save')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
