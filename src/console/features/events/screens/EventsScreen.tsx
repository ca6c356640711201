/**
 * /events (§2 further route; issue 11 Events): the user's events newest first — snapshot, time, alarm,
 * class, score, severity, camera, reviewed — with filters (camera, class, severity, reviewed, from/to), a
 * selection reviewed in bulk, more pages, and the viewer (EventViewer).
 * Test ids: events-screen, events-filter-<camera|class|severity|reviewed|from|to>, events-table,
 * event-row (data-id, data-reviewed), event-select, events-select-page, events-review, events-unreview,
 * events-more, events-empty, events-error, event-open.
 */
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { EventFilters } from '../../../../../machines/events/events.machine';
import '../i18n';
import { useEventsRef, useEventsView } from '../selectors';
import { EventViewer } from './EventViewer';

const SEVERITY_COLOR = { info: 'blue', warning: 'yellow', critical: 'red' } as const;

/** datetime-local value ↔ ISO instant (local time of the browser). */
const toLocal = (iso: string) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocal = (v: string) => (v ? new Date(v).toISOString() : '');

export default function EventsScreen() {
  const { t, i18n } = useTranslation();
  const ref = useEventsRef();
  const view = useEventsView();
  useEffect(() => {
    ref.send({ type: 'events.load' });
  }, [ref]);
  const fmt = new Intl.DateTimeFormat(
    i18n.language === 'ch' ? 'zh' : i18n.language === 'jp' ? 'ja' : i18n.language,
    {
      dateStyle: 'medium',
      timeStyle: 'medium',
    },
  );
  const time = (iso: string) => fmt.format(new Date(iso));
  const set = (filters: Partial<EventFilters>) => ref.send({ type: 'filters.set', filters });
  const cameras = [
    ...new Set(
      view.events.map((e) => e.camera_id).concat(view.filters.camera_id ? [view.filters.camera_id] : []),
    ),
  ];
  const classes = [
    ...new Set(view.events.map((e) => e.class).concat(view.filters.class ? [view.filters.class] : [])),
  ];

  return (
    <Stack gap="md" data-testid="events-screen">
      <Title order={1}>{t('events.title')}</Title>
      <Group gap="sm" align="flex-end">
        <Select
          label={t('events.camera')}
          data={cameras}
          value={view.filters.camera_id || null}
          onChange={(v) => set({ camera_id: v ?? '' })}
          clearable
          placeholder={t('events.all')}
          data-testid="events-filter-camera"
        />
        <Select
          label={t('events.class')}
          data={classes}
          value={view.filters.class || null}
          onChange={(v) => set({ class: v ?? '' })}
          clearable
          placeholder={t('events.all')}
          data-testid="events-filter-class"
        />
        <Select
          label={t('events.severity')}
          data={(['info', 'warning', 'critical'] as const).map((s) => ({
            value: s,
            label: t(`events.severities.${s}`),
          }))}
          value={view.filters.severity || null}
          onChange={(v) => set({ severity: (v ?? '') as EventFilters['severity'] })}
          clearable
          placeholder={t('events.all')}
          data-testid="events-filter-severity"
        />
        <Select
          label={t('events.reviewedFilter')}
          data={[
            { value: 'false', label: t('events.unreviewedOnly') },
            { value: 'true', label: t('events.reviewedOnly') },
          ]}
          value={view.filters.reviewed || null}
          onChange={(v) => set({ reviewed: (v ?? '') as EventFilters['reviewed'] })}
          clearable
          placeholder={t('events.all')}
          data-testid="events-filter-reviewed"
        />
        <TextInput
          type="datetime-local"
          label={t('events.from')}
          value={toLocal(view.filters.from)}
          onChange={(e) => set({ from: fromLocal(e.currentTarget.value) })}
          data-testid="events-filter-from"
        />
        <TextInput
          type="datetime-local"
          label={t('events.to')}
          value={toLocal(view.filters.to)}
          onChange={(e) => set({ to: fromLocal(e.currentTarget.value) })}
          data-testid="events-filter-to"
        />
        <Button variant="default" onClick={() => ref.send({ type: 'events.refresh' })}>
          {t('events.refresh')}
        </Button>
      </Group>
      <Group gap="sm">
        <Button
          size="xs"
          disabled={view.selected.length === 0 || view.busy}
          onClick={() => ref.send({ type: 'review.selected', reviewed: true })}
          data-testid="events-review"
        >
          {t('events.reviewSelected', { count: view.selected.length })}
        </Button>
        <Button
          size="xs"
          variant="default"
          disabled={view.selected.length === 0 || view.busy}
          onClick={() => ref.send({ type: 'review.selected', reviewed: false })}
          data-testid="events-unreview"
        >
          {t('events.unreviewSelected')}
        </Button>
      </Group>
      {view.error ? (
        <Alert color="red" data-testid="events-error">
          {view.error}
        </Alert>
      ) : null}
      {view.busy && view.events.length === 0 ? <Loader aria-label={t('events.loading')} /> : null}
      {!view.busy && view.events.length === 0 && !view.error ? (
        <Text data-testid="events-empty">{t('events.empty')}</Text>
      ) : null}
      {view.events.length > 0 ? (
        <Table striped data-testid="events-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Checkbox
                  aria-label={t('events.selectPage')}
                  checked={view.allSelected}
                  onChange={() => ref.send({ type: view.allSelected ? 'select.none' : 'select.page' })}
                  data-testid="events-select-page"
                />
              </Table.Th>
              <Table.Th>{t('events.snapshot')}</Table.Th>
              <Table.Th>{t('events.time')}</Table.Th>
              <Table.Th>{t('events.alarm')}</Table.Th>
              <Table.Th>{t('events.class')}</Table.Th>
              <Table.Th>{t('events.score')}</Table.Th>
              <Table.Th>{t('events.severity')}</Table.Th>
              <Table.Th>{t('events.camera')}</Table.Th>
              <Table.Th>{t('events.reviewed')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.events.map((e) => (
              <Table.Tr key={e.id} data-testid="event-row" data-id={e.id} data-reviewed={e.reviewed}>
                <Table.Td>
                  <Checkbox
                    aria-label={t('events.select', { time: time(e.at) })}
                    checked={view.selected.includes(e.id)}
                    onChange={() => ref.send({ type: 'select.toggle', id: e.id })}
                    data-testid="event-select"
                  />
                </Table.Td>
                <Table.Td>
                  <button
                    type="button"
                    onClick={() => ref.send({ type: 'event.open', id: e.id })}
                    aria-label={t('events.open', { class: e.class, time: time(e.at) })}
                    style={{ border: 0, padding: 0, background: 'none', cursor: 'pointer' }}
                    data-testid="event-open"
                  >
                    {e.snapshot_url ? (
                      <img
                        src={e.snapshot_url}
                        alt=""
                        width={96}
                        height={54}
                        style={{ objectFit: 'cover', borderRadius: 3 }}
                      />
                    ) : (
                      <Text size="xs">{t('events.view')}</Text>
                    )}
                  </button>
                </Table.Td>
                <Table.Td>{time(e.at)}</Table.Td>
                <Table.Td>{e.alarm_name ?? t('events.noAlarm')}</Table.Td>
                <Table.Td>{e.class}</Table.Td>
                <Table.Td>{Math.round(e.score * 100)}%</Table.Td>
                <Table.Td>
                  <Badge color={SEVERITY_COLOR[e.severity]} variant="light">
                    {t(`events.severities.${e.severity}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {e.device_label ? `${e.device_label} · ` : ''}
                  {e.camera_id}
                </Table.Td>
                <Table.Td>{e.reviewed ? t('events.yes') : t('events.no')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {view.hasMore ? (
        <Button
          variant="default"
          onClick={() => ref.send({ type: 'events.more' })}
          loading={view.busy}
          data-testid="events-more"
        >
          {t('events.more')}
        </Button>
      ) : null}
      {view.open ? <EventViewer event={view.open} actor={ref} time={time} /> : null}
    </Stack>
  );
}
