/**
 * /schedulers (§2 auth route; issue 10 "calendars; `scheduling-calendar-operation`; jobs that start and stop
 * on schedule"): the user's calendars — weekly times in a time zone, whether each is active now and its next
 * edge, the jobs it schedules with their state and next start/stop ("starts Mon 08:00 Europe/Berlin"), and
 * what each device answered to the last send (timer armed or why not) — with New, Edit (CalendarForm) and
 * Delete (confirmation). Test ids: schedulers-screen, schedulers-add, calendar-row-<name>, calendar-next,
 * calendar-job-row-<job name>, calendar-device-<device id>, schedulers-confirm, schedulers-error.
 */
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Calendar } from '../../../../protocol/schedulers';
import { DeleteIcon, EditIcon } from '../../../shell/icons';
import '../i18n';
import { localeOf, useCalendarsRef, useCalendarsView, type CalendarRow, type NextEdge } from '../selectors';
import { CalendarForm } from './CalendarForm';

/** How often the page re-reads "now" for the next edges, ms. */
const NOW_TICK_MS = 15_000;

export default function SchedulersScreen() {
  const { t, i18n } = useTranslation();
  const locale = localeOf(i18n.language);
  const ref = useCalendarsRef();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), NOW_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  const view = useCalendarsView(now, locale);
  const [form, setForm] = useState<{ calendar: Calendar | null; key: number } | null>(null);
  useEffect(() => {
    ref.send({ type: 'schedulers.load' });
  }, [ref]);
  const onClose = useCallback(
    (saved: boolean) => {
      setForm(null);
      if (saved) ref.send({ type: 'schedulers.refresh' });
    },
    [ref],
  );
  const onSynced = useCallback(
    (id: string, results: unknown) => ref.send({ type: 'schedulers.synced', id, results }),
    [ref],
  );
  const full = (id: string) =>
    (ref.getSnapshot() as { context: { calendars: Calendar[] } }).context.calendars.find(
      (c) => c.id === id,
    ) ?? null;
  const edgeLine = (n: NextEdge | null, zone: string) =>
    n
      ? t(n.kind === 'start' ? 'schedulers.starts' : 'schedulers.stops', { when: n.when, zone })
      : t('schedulers.never');
  const timeFmt = new Intl.DateTimeFormat(locale, { timeStyle: 'medium' });

  const row = (r: CalendarRow) => (
    <Card key={r.id} withBorder padding="sm" data-testid={`calendar-row-${r.name}`} data-active={r.active}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs">
            <Title order={2} size="h4">
              {r.name}
            </Title>
            <Badge variant="light" color={r.active ? 'green' : 'gray'}>
              {r.active ? t('schedulers.active') : t('schedulers.inactive')}
            </Badge>
            <Text size="sm" c="dimmed" data-testid="calendar-next">
              {edgeLine(r.next, r.zone)}
            </Text>
          </Group>
          <Group gap={6} wrap="nowrap">
            <Button
              size="xs"
              variant="default"
              aria-label={t('schedulers.edit', { name: r.name })}
              onClick={() => setForm({ calendar: full(r.id), key: Date.now() })}
            >
              <EditIcon />
            </Button>
            <Button
              size="xs"
              variant="light"
              color="red"
              aria-label={t('schedulers.remove', { name: r.name })}
              // The list machine takes delete.ask in `ready` only: a click during a reload would be lost.
              disabled={view.state !== 'ready'}
              onClick={() => ref.send({ type: 'delete.ask', id: r.id })}
            >
              <DeleteIcon />
            </Button>
          </Group>
        </Group>
        <Text size="sm">
          <Text span fw={500}>
            {t('schedulers.intervals')}:{' '}
          </Text>
          {r.intervals.length
            ? r.intervals.map((i) => t('schedulers.interval', i)).join(', ')
            : t('schedulers.noIntervals')}{' '}
          ({r.zone})
        </Text>
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            {t('schedulers.jobs')}
          </Text>
          {r.jobs.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('schedulers.noJobs')}
            </Text>
          )}
          {r.jobs.map((j) => (
            <Group key={j.id} gap="xs" data-testid={`calendar-job-row-${j.name}`} data-state={j.state ?? ''}>
              <Text size="sm">
                {j.name}
                {j.device ? ` · ${j.device}` : ''}
                {j.camera ? ` · ${j.camera}` : ''}
              </Text>
              <Badge
                size="sm"
                variant="outline"
                color={j.state === 'started' ? 'green' : j.state === 'error' ? 'red' : 'gray'}
              >
                {t(`schedulers.jobState.${j.state ?? 'unknown'}`)}
              </Badge>
              <Text size="sm" c="dimmed">
                {edgeLine(r.next, r.zone)}
              </Text>
            </Group>
          ))}
        </Stack>
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            {t('schedulers.devices')}
          </Text>
          {r.devices === null ? (
            <Text size="sm" c="dimmed">
              {t('schedulers.notSent')}
            </Text>
          ) : (
            r.devices.map((dv) => (
              <Text
                key={dv.deviceId}
                size="sm"
                c={dv.error ? 'red' : undefined}
                data-testid={`calendar-device-${dv.deviceId}`}
                data-armed={dv.armed}
              >
                {dv.label}:{' '}
                {dv.error
                  ? t('schedulers.notArmed', { error: dv.error })
                  : dv.armed
                    ? t('schedulers.armed', { next: edgeLine(dv.next, r.zone) })
                    : t('schedulers.armedIdle')}
              </Text>
            ))
          )}
        </Stack>
      </Stack>
    </Card>
  );

  return (
    <Stack gap="md" data-testid="schedulers-screen" aria-busy={view.loading}>
      <Group justify="space-between">
        <Title order={1}>{t('schedulers.title')}</Title>
        <Group gap="xs">
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t('schedulers.refresh')}
            disabled={view.loading}
            onClick={() => ref.send({ type: 'schedulers.refresh' })}
          >
            <span aria-hidden="true">↻</span>
          </ActionIcon>
          <Button data-testid="schedulers-add" onClick={() => setForm({ calendar: null, key: Date.now() })}>
            {t('schedulers.add')}
          </Button>
        </Group>
      </Group>
      <Text size="sm">{t('schedulers.intro')}</Text>
      {view.error && (
        <Alert color="red" role="alert" data-testid="schedulers-error">
          <Text size="sm">{t('schedulers.failed', { error: view.error })}</Text>
          {view.state === 'failed' && (
            <Button size="xs" mt="xs" onClick={() => ref.send({ type: 'schedulers.refresh' })}>
              {t('schedulers.retry')}
            </Button>
          )}
        </Alert>
      )}
      {view.lastUpdate === null && view.loading ? (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text size="sm">{t('schedulers.loading')}</Text>
        </Group>
      ) : view.rows.length === 0 && view.state !== 'failed' ? (
        <Text size="sm">{t('schedulers.empty')}</Text>
      ) : (
        <>
          {view.lastUpdate !== null && (
            <Text size="xs" c="dimmed" aria-live="polite">
              {t('schedulers.lastUpdate', { time: timeFmt.format(new Date(view.lastUpdate)) })}
            </Text>
          )}
          {view.rows.map(row)}
        </>
      )}
      {form && (
        <CalendarForm
          key={form.key}
          calendar={form.calendar}
          jobs={view.jobs}
          onSynced={onSynced}
          onClose={onClose}
        />
      )}
      <Modal
        opened={view.state === 'confirming' || view.state === 'deleting'}
        onClose={() => ref.send({ type: 'delete.cancel' })}
        title={t('schedulers.removeTitle')}
      >
        <Stack data-testid="schedulers-confirm">
          <Text size="sm">{t('schedulers.removeConfirm', { name: view.target?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => ref.send({ type: 'delete.cancel' })}>
              {t('schedulers.cancel')}
            </Button>
            <Button
              color="red"
              loading={view.state === 'deleting'}
              onClick={() => ref.send({ type: 'delete.confirm' })}
            >
              {t('schedulers.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
