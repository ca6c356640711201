/** §2 /nanoowl: open-vocabulary detection on a live camera (issue 14). Test ids: owl-prompt, owl-detect, owl-result. */
import { Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n';
import '../demoApps.css';
import { useDemoApp, useDemoAppView } from '../selectors';
import type { DemoAppRef } from '../../../../../machines/demoApps/demoApps.machine';
import { LiveVideo, SourcePicker } from './parts';

export default function NanoOwlScreen() {
  const ref = useDemoApp('nanoowl');
  return ref ? <NanoOwl actor={ref} /> : null;
}

function NanoOwl({ actor }: { actor: DemoAppRef }) {
  const { t } = useTranslation();
  const view = useDemoAppView(actor);
  const [text, setText] = useState(view.ctx.prompt);
  const owl = view.ctx.owl;
  const shapes = useMemo(
    () => ({
      boxes: (owl?.detections ?? []).map((d) => ({ box: d.box, label: `${d.query} ${d.score.toFixed(2)}` })),
      lines: [],
    }),
    [owl],
  );
  return (
    <Stack className="demo-page" data-testid="demo-nanoowl">
      <Title order={1}>{t('demoApps.nanoowl.title')}</Title>
      <Text>{t('demoApps.nanoowl.intro')}</Text>
      <SourcePicker view={view} actor={actor} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'prompt.set', prompt: text });
        }}
      >
        <Group align="flex-end">
          <TextInput
            label={t('demoApps.nanoowl.prompt')}
            placeholder={t('demoApps.nanoowl.placeholder')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            data-testid="owl-prompt"
          />
          <Button type="submit" disabled={view.phase !== 'ready' || !text.trim()} data-testid="owl-detect">
            {t('demoApps.nanoowl.detect')}
          </Button>
          <Button
            variant="default"
            onClick={() => {
              setText('');
              actor.send({ type: 'prompt.clear' });
            }}
          >
            {t('demoApps.nanoowl.clear')}
          </Button>
        </Group>
      </form>
      {view.phase === 'ready' && <LiveVideo view={view} shapes={shapes} />}
      {view.work === 'detecting' && owl && (
        <div data-testid="owl-result" data-count={owl.detections.length}>
          <Text role="status">
            {owl.detections.length
              ? t('demoApps.nanoowl.found', { count: owl.detections.length, prompt: view.ctx.prompt })
              : t('demoApps.nanoowl.none', { prompt: view.ctx.prompt })}
          </Text>
          {owl.detections.length > 0 && (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('demoApps.nanoowl.query')}</Table.Th>
                  <Table.Th>{t('demoApps.nanoowl.label')}</Table.Th>
                  <Table.Th>{t('demoApps.nanoowl.score')}</Table.Th>
                  <Table.Th>{t('demoApps.nanoowl.box')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {owl.detections.map((d) => (
                  <Table.Tr key={`${d.query}-${d.track_id}`}>
                    <Table.Td>{d.query}</Table.Td>
                    <Table.Td>{d.label}</Table.Td>
                    <Table.Td>{d.score.toFixed(2)}</Table.Td>
                    <Table.Td>{d.box.map((v) => v.toFixed(3)).join(', ')}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </div>
      )}
      {view.error && view.phase === 'ready' && <Text c="red">{view.error}</Text>}
    </Stack>
  );
}
