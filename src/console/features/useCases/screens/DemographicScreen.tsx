/**
 * /use-cases/demographic (§2 use-case route; issue 11 "age band and gender per person"): the people a
 * demographic use case saw in a period (each person once, by identity), as a chart by age band with one
 * bar per gender and as a table with totals; a new one started on a running inference job. The period is
 * kept in the URL. Test ids: demographic-screen, demographic-chart, demographic-table,
 * demographic-cell-<band>-<gender>, demographic-band-<band>, demographic-gender-<gender>, demographic-total.
 */
import { Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PeopleAnswer } from '../../../../protocol/analytics';
import '../i18n';
import { peopleView, windowOfQuery } from '../views';
import { useWindowReader } from './hooks';
import { PeriodControls } from './PeriodControls';
import { UseCaseTop, useUseCasePage } from './UseCaseBar';
import { UseCaseChart } from './UseCaseChart';
import { useAnalyticsQuery } from './useAnalyticsQuery';

export const PEOPLE_POLL_MS = 5_000;
const COLORS: Record<string, string> = { female: '#be4bdb', male: '#228be6' };

export default function DemographicScreen() {
  const { t } = useTranslation();
  const page = useUseCasePage('demographic');
  const { shown, showForm } = page;
  const [query, setQuery] = useAnalyticsQuery();
  const { reader, data, windowKey } = useWindowReader<PeopleAnswer>(
    'people',
    shown,
    windowOfQuery(query),
    PEOPLE_POLL_MS,
  );
  const people = useMemo(() => (data.data ? peopleView(data.data) : null), [data.data]);
  const gender = (g: string) => (['female', 'male'].includes(g) ? t(`useCases.gender.${g}`) : g);
  return (
    <Stack data-testid="demographic-screen" data-state={page.view.state} p="md">
      <UseCaseTop
        page={page}
        title={t('useCases.demographic.title')}
        intro={t('useCases.demographic.intro')}
      />
      {shown && !showForm && (
        <>
          <PeriodControls
            query={query}
            onChange={setQuery}
            onRefresh={() => reader.send({ type: 'data.refresh' })}
            withInterval={false}
          />
          {data.error && <Text c="red">{t('useCases.readFailed', { error: data.error })}</Text>}
          {people && (
            <Stack
              data-testid="demographic-data"
              data-window={windowKey}
              data-updated={data.lastUpdate ?? ''}
            >
              <UseCaseChart
                testId="demographic-chart"
                title={t('useCases.demographic.chart')}
                label={t('useCases.demographic.chartLabel', { total: people.total })}
                series={people.genders.map((g) => ({ label: gender(g), color: COLORS[g] ?? '#868e96' }))}
                data={people.chart}
                categories={people.ageBands}
              />
              <Table striped data-testid="demographic-table">
                <Table.Caption>{t('useCases.demographic.tableCaption')}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('useCases.demographic.ageBand')}</Table.Th>
                    {people.genders.map((g) => (
                      <Table.Th key={g}>{gender(g)}</Table.Th>
                    ))}
                    <Table.Th>{t('useCases.demographic.total')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {people.ageBands.map((b) => (
                    <Table.Tr key={b}>
                      <Table.Th scope="row">{b}</Table.Th>
                      {people.genders.map((g) => (
                        <Table.Td key={g} data-testid={`demographic-cell-${b}-${g}`}>
                          {people.cells[b]![g]}
                        </Table.Td>
                      ))}
                      <Table.Td data-testid={`demographic-band-${b}`}>
                        {people.genders.reduce((n, g) => n + people.cells[b]![g]!, 0)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                  <Table.Tr>
                    <Table.Th scope="row">{t('useCases.demographic.total')}</Table.Th>
                    {people.genders.map((g) => (
                      <Table.Td key={g} data-testid={`demographic-gender-${g}`}>
                        {people.byGender[g]}
                      </Table.Td>
                    ))}
                    <Table.Td data-testid="demographic-total">{people.total}</Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}
