/**
 * /use-cases/vehicle-plate-detection (§2 use-case route; issue 11 "plate text per vehicle, searchable"): the
 * vehicles a plate use case saw, newest first — plate, first and last seen, measured speed (px/s of the
 * frame), camera — searched by part of the plate (ignoring case, spaces and dashes, as the server does);
 * read again every PLATES_POLL_MS; a new one started on a running inference job. Test ids: plates-screen,
 * plates-search, plates-table, plate-row-<plate>, plates-count.
 */
import { Stack, Table, Text, TextInput } from '@mantine/core';
import { useActorRef } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VehiclesAnswer } from '../../../../protocol/analytics';
import { dataLogic, type VehiclesRead } from '../api';
import '../i18n';
import { useDataView } from '../selectors';
import { localeOf, vehiclesView } from '../views';
import { UseCaseTop, useUseCasePage } from './UseCaseBar';

export const PLATES_POLL_MS = 5_000;

export default function PlatesScreen() {
  const { t, i18n } = useTranslation();
  const page = useUseCasePage('vehicle-plate');
  const { shown, showForm } = page;
  const [q, setQ] = useState('');
  const reader = useActorRef(dataLogic('vehicles'), { input: { pollMs: PLATES_POLL_MS } });
  const data = useDataView<VehiclesAnswer>(reader);
  useEffect(() => {
    if (!shown) {
      reader.send({ type: 'data.clear' });
      return;
    }
    const timer = setTimeout(() => {
      const read: VehiclesRead = { id: shown.id, q: q.trim() };
      reader.send({ type: 'data.query', query: read });
    }, 250);
    return () => clearTimeout(timer);
  }, [reader, shown, q]);
  const rows = useMemo(
    () => (data.data && shown ? vehiclesView(data.data, `${shown.camera_id} (${shown.device_id})`) : []),
    [data.data, shown],
  );
  const fmt = useMemo(
    () => new Intl.DateTimeFormat(localeOf(i18n.language), { dateStyle: 'short', timeStyle: 'medium' }),
    [i18n.language],
  );
  return (
    <Stack data-testid="plates-screen" data-state={page.view.state} p="md">
      <UseCaseTop page={page} title={t('useCases.plates.title')} intro={t('useCases.plates.intro')} />
      {shown && !showForm && (
        <>
          <TextInput
            type="search"
            label={t('useCases.plates.search')}
            placeholder="KX-4821"
            value={q}
            onChange={(e) => setQ(e.currentTarget.value)}
            maxLength={32}
            data-testid="plates-search"
          />
          {data.error && <Text c="red">{t('useCases.readFailed', { error: data.error })}</Text>}
          <Text
            size="sm"
            data-testid="plates-count"
            data-query={q.trim()}
            data-updated={data.lastUpdate ?? ''}
          >
            {t('useCases.plates.count', { count: rows.length })}
          </Text>
          <Table striped data-testid="plates-table">
            <Table.Caption>{t('useCases.plates.tableCaption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('useCases.plates.plate')}</Table.Th>
                <Table.Th>{t('useCases.plates.firstSeen')}</Table.Th>
                <Table.Th>{t('useCases.plates.lastSeen')}</Table.Th>
                <Table.Th>{t('useCases.plates.speed')}</Table.Th>
                <Table.Th>{t('useCases.plates.camera')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.plate} data-testid={`plate-row-${r.plate}`}>
                  <Table.Td fw={700} ff="monospace">
                    {r.plate}
                  </Table.Td>
                  <Table.Td>{fmt.format(new Date(r.firstSeen))}</Table.Td>
                  <Table.Td>{fmt.format(new Date(r.lastSeen))}</Table.Td>
                  <Table.Td>
                    {r.speed === null
                      ? t('useCases.plates.noSpeed')
                      : t('useCases.plates.pxs', { n: r.speed })}
                  </Table.Td>
                  <Table.Td>{r.camera}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}
