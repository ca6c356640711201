/**
 * /use-cases/person-counter (§2 use-case route; issue 11 "counts crossing a line drawn on the camera, in/out
 * per interval"): the person counters, a new one started on a device camera's running inference job with its
 * line drawn on the camera's still, and the shown one's live in / out / net counts since it started (read
 * every LIVE_POLL_MS), its line on the still, and a link to its analytics. Test ids: counter-screen,
 * counter-live, counter-in, counter-out, counter-net, counter-analytics, counter-since.
 */
import { Anchor, Card, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { CountsAnswer, UseCase } from '../../../../protocol/analytics';
import '../i18n';
import { DEFAULT_LINE, liveWindow, localeOf } from '../views';
import { useCameraStill, useWindowReader } from './hooks';
import { LineEditor } from './LineEditor';
import { UseCaseTop, useUseCasePage } from './UseCaseBar';

/** How often the live counts are read, ms. */
export const LIVE_POLL_MS = 2_000;

export function Stat(props: { label: string; value: number | string; testId: string; color?: string }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {props.label}
      </Text>
      <Text fz={32} fw={700} c={props.color} data-testid={props.testId}>
        {props.value}
      </Text>
    </Card>
  );
}

function LiveCounts({ useCase }: { useCase: UseCase }) {
  const { t, i18n } = useTranslation();
  // live: the reader asks from the start to the moment of each read
  const start = useMemo(() => liveWindow(useCase, Date.parse(useCase.created_at)), [useCase]);
  const { data: view } = useWindowReader<CountsAnswer>('counts', useCase, start, LIVE_POLL_MS, true);
  const still = useCameraStill(useCase.device_id, useCase.camera_id);
  const total = view.data?.total ?? null;
  const fmt = useMemo(
    () => new Intl.DateTimeFormat(localeOf(i18n.language), { dateStyle: 'short', timeStyle: 'medium' }),
    [i18n.language],
  );
  return (
    <Stack data-testid="counter-live" data-updated={view.lastUpdate ?? ''}>
      <Group justify="space-between">
        <Text size="sm" data-testid="counter-since">
          {t('useCases.counter.since', {
            time: fmt.format(new Date(useCase.created_at)),
            camera: useCase.camera_id,
            device: useCase.device_id,
            job: useCase.job_name,
          })}
        </Text>
        {view.loading && <Loader size="xs" aria-label={t('useCases.loading')} />}
      </Group>
      {view.error && <Text c="red">{t('useCases.readFailed', { error: view.error })}</Text>}
      <SimpleGrid cols={{ base: 1, sm: 3 }} aria-live="polite">
        <Stat label={t('useCases.in')} value={total?.in ?? '–'} testId="counter-in" color="teal" />
        <Stat label={t('useCases.out')} value={total?.out ?? '–'} testId="counter-out" color="orange" />
        <Stat label={t('useCases.net')} value={total ? total.in - total.out : '–'} testId="counter-net" />
      </SimpleGrid>
      <Anchor
        component={Link}
        to={`/use-cases/person-counter/analytics?use_case=${useCase.id}`}
        data-testid="counter-analytics"
      >
        {t('useCases.counter.analytics')}
      </Anchor>
      <LineEditor line={useCase.line ?? DEFAULT_LINE} still={still} readOnly />
    </Stack>
  );
}

export default function PersonCounterScreen() {
  const { t } = useTranslation();
  const page = useUseCasePage('person-counter');
  return (
    <Stack data-testid="counter-screen" data-state={page.view.state} p="md">
      <UseCaseTop page={page} title={t('useCases.counter.title')} intro={t('useCases.counter.intro')} />
      {page.shown && !page.showForm && <LiveCounts key={page.shown.id} useCase={page.shown} />}
    </Stack>
  );
}
