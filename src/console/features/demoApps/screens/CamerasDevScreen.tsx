/**
 * §2 /control-panel/cameras-dev: the camera page (the cameras feature's screen, reused as is) with developer
 * views below it: each stream's WebRTC statistics (the stream actor's samples, every §9 2000 ms once switched
 * on), the layout as JSON (what PUT camera layout saves: device, camera, page, cell) and the state of the grid
 * machine and of every stream machine. Test ids: dev-stats, dev-layout, dev-machines.
 */
import { Button, Code, Stack, Tabs, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { RouteEntry } from '../../../routes/table';
import CamerasScreen from '../../cameras/screens/CamerasScreen';
import { useStreamsRef, type StreamRef } from '../../cameras/selectors';
import '../i18n';
import '../demoApps.css';

export default function CamerasDevScreen(_props: { entry: RouteEntry }) {
  const { t } = useTranslation();
  return (
    <Stack className="demo-page" data-testid="demo-cameras-dev">
      <CamerasScreen />
      <section aria-label={t('demoApps.dev.views')}>
        <Title order={2} size="h3">
          {t('demoApps.dev.views')}
        </Title>
        <DevViews />
      </section>
    </Stack>
  );
}

function DevViews() {
  const { t } = useTranslation();
  const grid = useStreamsRef();
  const gridValue = useSelector(grid, (s) => JSON.stringify(s.value));
  const entries = useSelector(grid, (s) => s.context.entries);
  const layout = entries.map((e) => ({
    streamId: e.streamId,
    deviceId: e.deviceId,
    camera_id: e.camera.camera_id,
    page: e.page,
    cell: e.cell,
  }));
  return (
    <Tabs defaultValue="stats">
      <Tabs.List>
        <Tabs.Tab value="stats">{t('demoApps.dev.stats')}</Tabs.Tab>
        <Tabs.Tab value="layout">{t('demoApps.dev.layout')}</Tabs.Tab>
        <Tabs.Tab value="machines">{t('demoApps.dev.machines')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="stats" data-testid="dev-stats">
        {entries.length === 0 && <Text>{t('demoApps.dev.noStreams')}</Text>}
        {entries.length > 0 && <Text size="sm">{t('demoApps.dev.statsHint')}</Text>}
        {entries.map((e) => (
          <StreamStatsView key={e.streamId} stream={e.ref} name={e.camera.name} />
        ))}
      </Tabs.Panel>
      <Tabs.Panel value="layout" data-testid="dev-layout">
        <Code block>{JSON.stringify(layout, null, 2)}</Code>
      </Tabs.Panel>
      <Tabs.Panel value="machines" data-testid="dev-machines">
        <Code block>{`cameraGrid: ${gridValue}`}</Code>
        {entries.map((e) => (
          <StreamStateView key={e.streamId} stream={e.ref} />
        ))}
      </Tabs.Panel>
    </Tabs>
  );
}

function StreamStatsView({ stream, name }: { stream: StreamRef; name: string }) {
  const { t } = useTranslation();
  const statsOn = useSelector(stream, (s) => s.context.statsOn);
  const stats = useSelector(stream, (s) => s.context.stats);
  return (
    <div>
      <Button
        size="xs"
        variant="light"
        aria-pressed={statsOn}
        onClick={() => stream.send({ type: 'stats.toggle' })}
      >
        {t('demoApps.dev.statsOn', { camera: name })}
      </Button>
      <Code block>{JSON.stringify(stats, null, 2)}</Code>
    </div>
  );
}

function StreamStateView({ stream }: { stream: StreamRef }) {
  const text = useSelector(stream, (s) =>
    JSON.stringify({
      id: s.context.streamId,
      value: s.value,
      deviceOpen: s.context.deviceOpen,
      cellVisible: s.context.cellVisible,
      attempts: s.context.attempts,
      error: s.context.error,
      resolution: s.context.resolution,
    }),
  );
  return <Code block>{text}</Code>;
}
