/**
 * /models, /llm-models and /models-beta (§2 routes; issue 9 "Models"): the model list (all models; only
 * language / vision-language models on /llm-models; model cards on /models-beta) with "Upload model", and a
 * model's page at `?model=<id>`. §8 "Models could not be fetched. Please try again." is the list machine's
 * toast. Test ids: models-screen, models-upload-open (and the list's, the page's and the form's).
 */
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { AnyActorRef } from 'xstate';
import { SYSTEM_IDS } from '../../../../../machines/systemIds';
import type { RouteEntry } from '../../../routes/table';
import { useSystem } from '../../../shell/SystemProvider';
import '../i18n';
import { useModelDetailRef, useModelDetailView, useModelListRef, useModelListView } from '../selectors';
import { ModelList } from './ModelList';
import { ModelPage } from './ModelPage';
import { UploadModelDialog } from './UploadModelDialog';

/** What a route shows: which models, and as a table or as cards. */
export function screenKindOf(path: string): {
  kind: 'all' | 'llm';
  cards: boolean;
  title: string;
  intro: string;
} {
  if (path === '/llm-models')
    return { kind: 'llm', cards: false, title: 'models.llmTitle', intro: 'models.llmIntro' };
  if (path === '/models-beta')
    return { kind: 'all', cards: true, title: 'models.betaTitle', intro: 'models.betaIntro' };
  return { kind: 'all', cards: false, title: 'models.title', intro: 'models.intro' };
}

export default function ModelsScreen({ entry }: { entry: RouteEntry }) {
  const { t } = useTranslation();
  const system = useSystem();
  const list = useModelListRef();
  const detail = useModelDetailRef();
  const listView = useModelListView();
  const detailView = useModelDetailView();
  const [params, setParams] = useSearchParams();
  const modelId = params.get('model');
  const [uploadOpen, setUploadOpen] = useState(false);
  const screen = screenKindOf(entry.path);

  useEffect(() => {
    list.send({ type: 'models.open', kind: screen.kind });
  }, [list, screen.kind]);
  useEffect(() => {
    if (modelId) detail.send({ type: 'detail.open', id: modelId });
  }, [detail, modelId]);
  // A finished 'model' upload: the list (and an open model's versions) show it.
  useEffect(() => {
    const uploads = system.system.get(SYSTEM_IDS.uploads) as AnyActorRef | undefined;
    if (!uploads) return;
    const sub = uploads.on('upload.done', (e: { purpose?: string }) => {
      if (e.purpose !== 'model') return;
      list.send({ type: 'refresh' });
      if (modelId) detail.send({ type: 'refresh' });
    });
    return () => sub.unsubscribe();
  }, [system, list, detail, modelId]);

  const back = useCallback(() => {
    setParams({});
    list.send({ type: 'refresh' });
  }, [setParams, list]);

  return (
    <Stack gap="md" p="md" data-testid="models-screen">
      {modelId ? (
        <ModelPage view={detailView} detail={detail} card={screen.cards} onBack={back} />
      ) : (
        <>
          <Group justify="space-between">
            <Title order={1} size="h2">
              {t(screen.title)}
            </Title>
            <Button onClick={() => setUploadOpen(true)} data-testid="models-upload-open">
              {t('models.upload')}
            </Button>
          </Group>
          <Text size="sm">{t(screen.intro)}</Text>
          <ModelList
            view={listView}
            list={list}
            cards={screen.cards}
            onOpen={(m) => setParams({ model: m.id })}
          />
        </>
      )}
      <UploadModelDialog opened={uploadOpen} onClose={() => setUploadOpen(false)} model={null} />
    </Stack>
  );
}
