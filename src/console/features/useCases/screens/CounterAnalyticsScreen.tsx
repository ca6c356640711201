/**
 * /use-cases/person-counter/analytics (§2 use-case route; issue 11 "in/out per interval"): a person
 * counter's crossings in and out per interval over a period (chart and table), the totals, and the counts as
 * CSV. The period and interval are kept in the URL. Test ids: analytics-screen, analytics-chart,
 * analytics-in, analytics-out, analytics-net, analytics-table, analytics-csv, analytics-window.
 */
import { Button, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CountsAnswer } from '../../../../protocol/analytics';
import '../i18n';
import { countsCsv, countsView, localeOf, windowOfQuery } from '../views';
import { PeriodControls } from './PeriodControls';
import { Stat } from './PersonCounterScreen';
import { UseCaseChart } from './UseCaseChart';
import { UseCaseTop, useUseCasePage } from './UseCaseBar';
import { useWindowReader } from './hooks';
import { useAnalyticsQuery } from './useAnalyticsQuery';

/** How often the shown period is read again, ms (a period ending now fills as people cross). */
export const ANALYTICS_POLL_MS = 10_000;

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export default function CounterAnalyticsScreen() {
  const { t, i18n } = useTranslation();
  const page = useUseCasePage('person-counter');
  const { shown, view } = page;
  const [query, setQuery] = useAnalyticsQuery();
  const window = windowOfQuery(query);
  const { reader, data, windowKey } = useWindowReader<CountsAnswer>(
    'counts',
    shown,
    window,
    ANALYTICS_POLL_MS,
  );
  const counts = useMemo(() => (data.data ? countsView(data.data) : null), [data.data]);
  const fmt = useMemo(
    () => new Intl.DateTimeFormat(localeOf(i18n.language), { dateStyle: 'short', timeStyle: 'medium' }),
    [i18n.language],
  );
  return (
    <Stack data-testid="analytics-screen" data-state={view.state} p="md">
      <UseCaseTop
        page={page}
        title={t('useCases.analytics.title')}
        intro={t('useCases.analytics.intro')}
        withForm={false}
      />
      <PeriodControls
        query={query}
        onChange={setQuery}
        onRefresh={() => reader.send({ type: 'data.refresh' })}
      />
      <Text size="sm" data-testid="analytics-window" data-from={window.from} data-to={window.to}>
        {t('useCases.analytics.window', {
          from: fmt.format(new Date(query.from)),
          to: fmt.format(new Date(query.to)),
          interval: t('useCases.interval.seconds', { n: query.bucket }),
        })}
      </Text>
      {!shown && view.state === 'ready' && <Text>{t('useCases.analytics.none')}</Text>}
      {data.error && <Text c="red">{t('useCases.readFailed', { error: data.error })}</Text>}
      {shown && counts && (
        <Stack data-testid="analytics-data" data-window={windowKey} data-updated={data.lastUpdate ?? ''}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Stat label={t('useCases.totalIn')} value={counts.total.in} testId="analytics-in" color="teal" />
            <Stat
              label={t('useCases.totalOut')}
              value={counts.total.out}
              testId="analytics-out"
              color="orange"
            />
            <Stat label={t('useCases.net')} value={counts.total.net} testId="analytics-net" />
          </SimpleGrid>
          <UseCaseChart
            testId="analytics-chart"
            title={t('useCases.analytics.chart')}
            label={t('useCases.analytics.chartLabel', { in: counts.total.in, out: counts.total.out })}
            series={[
              { label: t('useCases.in'), color: '#12b886' },
              { label: t('useCases.out'), color: '#fd7e14' },
            ]}
            data={counts.chart}
          />
          <Group justify="flex-end">
            <Button
              variant="light"
              onClick={() =>
                download(
                  `person-counter-${shown.name.replace(/[^\w-]+/g, '_')}-${window.from.slice(0, 16)}.csv`,
                  countsCsv(data.data!, query.bucket, shown.name),
                )
              }
              data-testid="analytics-csv"
            >
              {t('useCases.analytics.csv')}
            </Button>
          </Group>
          <Table striped data-testid="analytics-table">
            <Table.Caption>{t('useCases.analytics.tableCaption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('useCases.analytics.interval')}</Table.Th>
                <Table.Th>{t('useCases.in')}</Table.Th>
                <Table.Th>{t('useCases.out')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {counts.rows
                .filter((r) => r.in + r.out > 0)
                .map((r) => (
                  <Table.Tr key={r.start}>
                    <Table.Td>{fmt.format(new Date(r.start))}</Table.Td>
                    <Table.Td>{r.in}</Table.Td>
                    <Table.Td>{r.out}</Table.Td>
                  </Table.Tr>
                ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Stack>
  );
}
