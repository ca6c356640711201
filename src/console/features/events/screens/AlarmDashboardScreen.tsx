/**
 * /alarm-dashboard (§2 further route; issue 11): over the last day, week or month — events per severity and
 * unreviewed, events per hour (bars), counts per alarm and severity, and the recent events (links to /events).
 * Test ids: alarm-dashboard, dashboard-range, dashboard-severity-<s>, dashboard-unreviewed,
 * dashboard-alarm-<name>, dashboard-recent, dashboard-hours.
 */
import {
  Alert,
  Badge,
  Card,
  Group,
  Loader,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { DashboardRange } from '../../../../../machines/events/alarmDashboard.machine';
import '../i18n';
import { useDashboardRef, useDashboardView } from '../selectors';

const SEVERITY_COLOR = { info: 'blue', warning: 'yellow', critical: 'red' } as const;

export default function AlarmDashboardScreen() {
  const { t, i18n } = useTranslation();
  const ref = useDashboardRef();
  const view = useDashboardView();
  useEffect(() => {
    ref.send({ type: 'dashboard.load' });
  }, [ref]);
  const fmt = new Intl.DateTimeFormat(
    i18n.language === 'ch' ? 'zh' : i18n.language === 'jp' ? 'ja' : i18n.language,
    {
      dateStyle: 'short',
      timeStyle: 'short',
    },
  );
  const s = view.summary;
  return (
    <Stack gap="md" data-testid="alarm-dashboard">
      <Group justify="space-between">
        <Title order={1}>{t('events.dashboardTitle')}</Title>
        <SegmentedControl
          aria-label={t('events.range')}
          value={view.range}
          onChange={(v) => ref.send({ type: 'range.set', range: v as DashboardRange })}
          data={[
            { value: 'day', label: t('events.ranges.day') },
            { value: 'week', label: t('events.ranges.week') },
            { value: 'month', label: t('events.ranges.month') },
          ]}
          data-testid="dashboard-range"
        />
      </Group>
      {view.error ? <Alert color="red">{view.error}</Alert> : null}
      {!s && view.busy ? <Loader aria-label={t('events.loading')} /> : null}
      {s ? (
        <>
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            {(['critical', 'warning', 'info'] as const).map((sev) => (
              <Card withBorder key={sev} data-testid={`dashboard-severity-${sev}`}>
                <Text size="sm">{t(`events.severities.${sev}`)}</Text>
                <Text fz={28} fw={700} c={SEVERITY_COLOR[sev]}>
                  {s.per_severity[sev]}
                </Text>
              </Card>
            ))}
            <Card withBorder data-testid="dashboard-unreviewed">
              <Text size="sm">{t('events.unreviewedCount')}</Text>
              <Text fz={28} fw={700}>
                {s.unreviewed}
              </Text>
            </Card>
          </SimpleGrid>
          <Card withBorder>
            <Text fw={600} mb="xs">
              {t('events.perHour')}
            </Text>
            <svg
              viewBox={`0 0 ${Math.max(1, s.per_hour.length) * 12} 100`}
              style={{ width: '100%', height: 120 }}
              role="img"
              aria-label={t('events.perHourAlt', { count: s.per_hour.reduce((n, h) => n + h.count, 0) })}
              data-testid="dashboard-hours"
            >
              {s.per_hour.map((h, i) => {
                const height = (h.count / view.peak) * 95;
                return (
                  <rect key={h.at} x={i * 12 + 1} y={100 - height} width={10} height={height} fill="#4c6ef5">
                    <title>{`${fmt.format(new Date(h.at))}: ${h.count}`}</title>
                  </rect>
                );
              })}
            </svg>
          </Card>
          <Card withBorder>
            <Text fw={600} mb="xs">
              {t('events.perAlarm')}
            </Text>
            {s.per_alarm.length === 0 ? (
              <Text>{t('events.noEvents')}</Text>
            ) : (
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('events.alarm')}</Table.Th>
                    <Table.Th>{t('events.severities.critical')}</Table.Th>
                    <Table.Th>{t('events.severities.warning')}</Table.Th>
                    <Table.Th>{t('events.severities.info')}</Table.Th>
                    <Table.Th>{t('events.total')}</Table.Th>
                    <Table.Th>{t('events.unreviewedCount')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {s.per_alarm.map((a) => (
                    <Table.Tr
                      key={a.alarm_id ?? 'none'}
                      data-testid={`dashboard-alarm-${a.alarm_name ?? 'none'}`}
                    >
                      <Table.Td>{a.alarm_name ?? t('events.noAlarm')}</Table.Td>
                      <Table.Td>{a.critical}</Table.Td>
                      <Table.Td>{a.warning}</Table.Td>
                      <Table.Td>{a.info}</Table.Td>
                      <Table.Td>{a.total}</Table.Td>
                      <Table.Td>{a.unreviewed}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Card>
          <Card withBorder data-testid="dashboard-recent">
            <Group justify="space-between" mb="xs">
              <Text fw={600}>{t('events.recent')}</Text>
              <Link to="/events">{t('events.allEvents')}</Link>
            </Group>
            <Stack gap={4}>
              {s.recent.map((e) => (
                <Group key={e.id} gap="xs">
                  <Badge color={SEVERITY_COLOR[e.severity]} variant="light">
                    {t(`events.severities.${e.severity}`)}
                  </Badge>
                  <Text size="sm">
                    {fmt.format(new Date(e.at))} · {e.alarm_name ?? t('events.noAlarm')} · {e.class} ·{' '}
                    {e.camera_id}
                  </Text>
                </Group>
              ))}
              {s.recent.length === 0 ? <Text size="sm">{t('events.noEvents')}</Text> : null}
            </Stack>
          </Card>
        </>
      ) : null}
    </Stack>
  );
}
