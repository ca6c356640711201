/**
 * /face-alarms (§2 auth route; issue 11 "face alarms for people on the blacklist"): the events of the user's
 * face alarms, newest first — snapshot, person (the gallery's label, else the identity), camera, time, alarm,
 * reviewed (a checkbox per event) — filtered by person, with more pages, a link to the gallery and one to
 * create a face alarm on /alarms (its editor has the kind "Faces (blacklist)").
 * Test ids: face-alarms-screen, face-alarms-person, face-alarms-table, face-event-row (data-identity,
 * data-reviewed), face-event-reviewed, face-alarms-more, face-alarms-empty, face-alarms-error,
 * face-alarms-create, face-alarms-gallery.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import '../i18n';
import { useFaceAlarmsRef, useFaceAlarmsView } from '../selectors';
import { useTimeFormat } from './time';

const SEVERITY_COLOR = { info: 'blue', warning: 'yellow', critical: 'red' } as const;

export default function FaceAlarmsScreen() {
  const { t } = useTranslation();
  const ref = useFaceAlarmsRef();
  const view = useFaceAlarmsView();
  const time = useTimeFormat();
  useEffect(() => {
    ref.send({ type: 'faceAlarms.load' });
  }, [ref]);
  const personOf = (e: (typeof view.events)[number]) =>
    e.person ??
    (e.identity ? t('faces.alarms.notEnrolled', { identity: e.identity }) : t('faces.alarms.unknown'));

  return (
    <Stack gap="md" data-testid="face-alarms-screen">
      <Group justify="space-between">
        <Title order={1}>{t('faces.alarms.title')}</Title>
        <Group gap="sm">
          <Button component={Link} to="/alarms?new=face" data-testid="face-alarms-create">
            {t('faces.alarms.create')}
          </Button>
          <Button component={Link} to="/blacklist-faces" variant="default" data-testid="face-alarms-gallery">
            {t('faces.alarms.gallery')}
          </Button>
        </Group>
      </Group>
      <Text c="dimmed">
        {t('faces.alarms.intro')} {t('faces.alarms.createHelp')}
      </Text>
      <Group gap="sm" align="flex-end">
        <NativeSelect
          label={t('faces.alarms.person')}
          value={view.identity}
          onChange={(e) => ref.send({ type: 'filter.set', identity: e.currentTarget.value })}
          data={[
            { value: '', label: t('faces.alarms.everyone') },
            ...view.people.map((p) => ({ value: p.identity, label: `${p.label} (${p.identity})` })),
          ]}
          data-testid="face-alarms-person"
        />
        <Button
          variant="default"
          onClick={() => ref.send({ type: 'faceAlarms.refresh' })}
          data-testid="face-alarms-refresh"
        >
          {t('faces.alarms.refresh')}
        </Button>
      </Group>
      {view.error ? (
        <Alert color="red" data-testid="face-alarms-error">
          {t('faces.alarms.failed', { error: view.error })}
          <Button size="xs" ml="md" onClick={() => ref.send({ type: 'faceAlarms.refresh' })}>
            {t('faces.alarms.retry')}
          </Button>
        </Alert>
      ) : null}
      {view.busy && view.events.length === 0 ? <Loader aria-label={t('faces.alarms.loading')} /> : null}
      {!view.busy && view.events.length === 0 && !view.error ? (
        <Text data-testid="face-alarms-empty">
          {t('faces.alarms.empty')}{' '}
          <Anchor component={Link} to="/alarms">
            {t('faces.alarms.create')}
          </Anchor>
        </Text>
      ) : null}
      {view.events.length > 0 ? (
        <Table striped data-testid="face-alarms-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('faces.alarms.snapshot')}</Table.Th>
              <Table.Th>{t('faces.alarms.person')}</Table.Th>
              <Table.Th>{t('faces.alarms.time')}</Table.Th>
              <Table.Th>{t('faces.alarms.camera')}</Table.Th>
              <Table.Th>{t('faces.alarms.alarm')}</Table.Th>
              <Table.Th>{t('faces.alarms.reviewed')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.events.map((e) => (
              <Table.Tr
                key={e.id}
                data-testid="face-event-row"
                data-identity={e.identity ?? ''}
                data-reviewed={e.reviewed}
              >
                <Table.Td>
                  {e.snapshot_url ? (
                    <a href={e.snapshot_url} target="_blank" rel="noreferrer">
                      <img
                        src={e.snapshot_url}
                        alt={t('faces.picture', { label: personOf(e) })}
                        width={96}
                        height={54}
                        style={{ objectFit: 'cover', borderRadius: 3, display: 'block' }}
                      />
                    </a>
                  ) : (
                    <Text size="xs">{t('faces.alarms.noSnapshot')}</Text>
                  )}
                </Table.Td>
                <Table.Td data-testid="face-event-person">{personOf(e)}</Table.Td>
                <Table.Td>{time(e.at)}</Table.Td>
                <Table.Td>
                  {e.device_label ? `${e.device_label} · ` : ''}
                  {e.camera_id}
                </Table.Td>
                <Table.Td>
                  <Badge color={SEVERITY_COLOR[e.severity]} variant="light">
                    {e.alarm_name ?? ''}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label={t('faces.alarms.markReviewed', { person: personOf(e), time: time(e.at) })}
                    checked={e.reviewed}
                    disabled={view.busy}
                    onChange={(ev) =>
                      ref.send({ type: 'review.set', id: e.id, reviewed: ev.currentTarget.checked })
                    }
                    data-testid="face-event-reviewed"
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {view.hasMore ? (
        <Button
          variant="default"
          onClick={() => ref.send({ type: 'faceAlarms.more' })}
          loading={view.busy}
          data-testid="face-alarms-more"
        >
          {t('faces.alarms.more')}
        </Button>
      ) : null}
    </Stack>
  );
}
