/**
 * §2 /ibb: IBB city operations (README "Decisions where the spec is silent": IBB): what one municipal camera
 * saw since observing started — people counted by age band and gender, vehicles with their plates. Test ids:
 * ibb-start, ibb-stop, ibb-people, ibb-vehicles, ibb-plate.
 */
import { Button, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DemoAppRef } from '../../../../../machines/demoApps/demoApps.machine';
import '../i18n';
import '../demoApps.css';
import { countBy, useDemoApp, useDemoAppView } from '../selectors';
import { LiveVideo, SourcePicker } from './parts';

const NO_SHAPES = { boxes: [], lines: [] };

export default function IbbScreen() {
  const ref = useDemoApp('ibb');
  return ref ? <Ibb actor={ref} /> : null;
}

function Ibb({ actor }: { actor: DemoAppRef }) {
  const { t, i18n } = useTranslation();
  const view = useDemoAppView(actor);
  const { sightings, since } = view.ctx;
  const observing = view.work === 'observing';
  const locale = i18n.language === 'ch' ? 'zh' : i18n.language === 'jp' ? 'ja' : i18n.language;
  const time = (ms: number) => new Date(ms).toLocaleTimeString(locale);
  const people = sightings.filter((s) => s.kind === 'person');
  const vehicles = sightings.filter((s) => s.kind === 'vehicle');
  const unknown = t('demoApps.ibb.unknown');
  return (
    <Stack className="demo-page" data-testid="demo-ibb">
      <Title order={1}>{t('demoApps.ibb.title')}</Title>
      <Text>{t('demoApps.ibb.intro')}</Text>
      <SourcePicker view={view} actor={actor} />
      {view.phase === 'ready' && <LiveVideo view={view} shapes={NO_SHAPES} />}
      <Group>
        {observing ? (
          <Button color="red" onClick={() => actor.send({ type: 'city.stop' })} data-testid="ibb-stop">
            {t('demoApps.ibb.stop')}
          </Button>
        ) : (
          <Button
            disabled={view.phase !== 'ready' || !view.engine?.available}
            onClick={() => actor.send({ type: 'city.start', at: Date.now() })}
            data-testid="ibb-start"
          >
            {t('demoApps.ibb.start')}
          </Button>
        )}
        {observing && since !== null && (
          <Text role="status">{t('demoApps.ibb.observing', { time: time(since) })}</Text>
        )}
      </Group>
      {since !== null && sightings.length === 0 && <Text c="dimmed">{t('demoApps.ibb.empty')}</Text>}
      {sightings.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          <div data-testid="ibb-people" data-count={people.length}>
            <Title order={2} size="h4">
              {t('demoApps.ibb.people')}: {people.length}
            </Title>
            <Text fw={600}>{t('demoApps.ibb.byAge')}</Text>
            {countBy(people, (p) => p.age_band).map(([k, n]) => (
              <Text key={k}>{`${k === 'unknown' ? unknown : k}: ${n}`}</Text>
            ))}
            <Text fw={600}>{t('demoApps.ibb.byGender')}</Text>
            {countBy(people, (p) => p.gender).map(([k, n]) => (
              <Text key={k}>{`${k === 'unknown' ? unknown : k}: ${n}`}</Text>
            ))}
          </div>
          <div data-testid="ibb-vehicles" data-count={vehicles.length}>
            <Title order={2} size="h4">
              {t('demoApps.ibb.vehicles')}: {vehicles.length}
            </Title>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('demoApps.ibb.plate')}</Table.Th>
                  <Table.Th>{t('demoApps.ibb.colour')}</Table.Th>
                  <Table.Th>{t('demoApps.ibb.firstSeen')}</Table.Th>
                  <Table.Th>{t('demoApps.ibb.lastSeen')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {vehicles.map((v) => (
                  <Table.Tr key={`${v.track_id}-${v.plate}`} data-testid="ibb-plate">
                    <Table.Td>{v.plate ?? unknown}</Table.Td>
                    <Table.Td>{v.colour ?? unknown}</Table.Td>
                    <Table.Td>{time(v.first_seen)}</Table.Td>
                    <Table.Td>{time(v.last_seen)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        </SimpleGrid>
      )}
      {view.error && view.phase === 'ready' && <Text c="red">{view.error}</Text>}
    </Stack>
  );
}
