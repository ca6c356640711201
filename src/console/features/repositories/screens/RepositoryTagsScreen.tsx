/**
 * /repositories/{alias} (§2 "tag list"; anchor: Harbor's artifacts of a repository): the tags of one
 * repository of the registry project, newest first, with size, digest, created, platforms and the pull
 * command with a copy button; a tag can be pushed under a new tag (§4 image push: started, error,
 * successful). Test ids: repository-tags-screen, tags-table, tag-row-<tag>, tag-size, tag-digest, tag-created,
 * tag-pull, copy-pull-<tag>, push-<tag>, push-dialog, push-target-repository, push-target-tag, push-submit,
 * push-state.
 */
import {
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type { TagInfo } from '../../../../protocol/repositories';
import '../i18n';
import {
  formatBytes,
  platformsText,
  shortDigest,
  useImagePushRef,
  useImagePushView,
  useRepositoriesRef,
  useRepositoriesView,
} from '../selectors';
import { CopyButton } from './CopyButton';
import { NotConfigured } from './RepositoriesScreen';

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function PushDialog({ alias, tag, onClose }: { alias: string; tag: string; onClose: () => void }) {
  const { t } = useTranslation();
  const push = useImagePushRef();
  const view = useImagePushView();
  const [repository, setRepository] = useState('');
  const [targetTag, setTargetTag] = useState('');
  const stateText =
    view.state === 'successful'
      ? t('repositories.pushStates.successful', { ref: view.ref })
      : view.state === 'error'
        ? t('repositories.pushStates.error', { error: view.error })
        : t(`repositories.pushStates.${view.state}`);
  return (
    <Modal opened onClose={onClose} title={t('repositories.pushTitle', { name: alias, tag })}>
      <form
        data-testid="push-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          push.send({
            type: 'push.start',
            alias,
            tag,
            targetRepository: repository.trim() || null,
            targetTag: targetTag.trim(),
          });
        }}
      >
        <Stack>
          <Text size="sm">{t('repositories.pushIntro')}</Text>
          <TextInput
            label={t('repositories.targetRepository')}
            description={t('repositories.targetRepositoryHelp')}
            placeholder={alias}
            value={repository}
            onChange={(e) => setRepository(e.currentTarget.value)}
            error={view.invalid === 'targetRepository' ? t('repositories.invalidRepository') : undefined}
            data-testid="push-target-repository"
          />
          <TextInput
            label={t('repositories.targetTag')}
            description={t('repositories.targetTagHelp')}
            required
            value={targetTag}
            onChange={(e) => setTargetTag(e.currentTarget.value)}
            error={view.invalid === 'targetTag' ? t('repositories.invalidTag') : undefined}
            data-testid="push-target-tag"
          />
          <Text size="sm" role="status" data-testid="push-state" data-state={view.state}>
            {stateText}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('repositories.close')}
            </Button>
            <Button type="submit" loading={view.state === 'started'} data-testid="push-submit">
              {t('repositories.pushStart')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function TagRow({
  tag,
  onPush,
  dateFmt,
}: {
  tag: TagInfo;
  onPush: () => void;
  dateFmt: Intl.DateTimeFormat;
}) {
  const { t } = useTranslation();
  return (
    <Table.Tr data-testid={`tag-row-${tag.tag}`}>
      <Table.Td>
        <Text fw={600} size="sm">
          {tag.tag}
        </Text>
      </Table.Td>
      {tag.error ? (
        <Table.Td colSpan={4}>
          <Text size="sm" c="red.8">
            {t('repositories.tagError', { error: tag.error })}
          </Text>
        </Table.Td>
      ) : (
        <>
          <Table.Td data-testid="tag-size" data-bytes={tag.size}>
            {formatBytes(tag.size)}
          </Table.Td>
          <Table.Td>
            <Code title={tag.digest} data-testid="tag-digest" data-digest={tag.digest}>
              {shortDigest(tag.digest)}
            </Code>
          </Table.Td>
          <Table.Td data-testid="tag-created" data-created={tag.created ?? ''}>
            {tag.created ? dateFmt.format(new Date(tag.created)) : t('repositories.unknown')}
          </Table.Td>
          <Table.Td>{platformsText(tag)}</Table.Td>
        </>
      )}
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Code data-testid="tag-pull" style={{ whiteSpace: 'nowrap' }}>
            {tag.pull_command}
          </Code>
          <CopyButton
            text={tag.pull_command}
            label={t('repositories.copy', { tag: tag.tag })}
            testId={`copy-pull-${tag.tag}`}
          />
        </Group>
      </Table.Td>
      <Table.Td>
        <Button size="xs" variant="default" onClick={onPush} data-testid={`push-${tag.tag}`}>
          {t('repositories.push', { tag: tag.tag })}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

export default function RepositoryTagsScreen() {
  const { t, i18n } = useTranslation();
  const alias = safeDecode(useParams().alias ?? '');
  const ref = useRepositoriesRef();
  const view = useRepositoriesView();
  const push = useImagePushRef();
  const pushView = useImagePushView();
  const [pushing, setPushing] = useState<string | null>(null);
  useEffect(() => {
    ref.send({ type: 'repositories.show', alias });
  }, [ref, alias]);
  // A successful push adds a tag: read the list again once.
  const lastState = useRef(pushView.state);
  useEffect(() => {
    if (pushView.state === 'successful' && lastState.current !== 'successful')
      ref.send({ type: 'repositories.refresh' });
    lastState.current = pushView.state;
  }, [pushView.state, ref]);
  const dateFmt = new Intl.DateTimeFormat(
    i18n.language === 'ch' ? 'zh' : i18n.language === 'jp' ? 'ja' : i18n.language,
    { dateStyle: 'medium', timeStyle: 'short' },
  );
  const mine = view.alias === alias;
  const name = view.project ? `${view.project}/${alias}` : alias;
  return (
    <Stack gap="md" data-testid="repository-tags-screen">
      <Anchor component={Link} to="/repositories" size="sm">
        ← {t('repositories.back')}
      </Anchor>
      <Title order={1}>{t('repositories.tagsTitle', { name })}</Title>
      {!mine || view.state === 'loading' ? (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text size="sm">{t('repositories.loading')}</Text>
        </Group>
      ) : view.state === 'notConfigured' ? (
        <NotConfigured />
      ) : view.state === 'notFound' ? (
        <Alert color="yellow" data-testid="repositories-error">
          {t('repositories.notFound', { name })}
        </Alert>
      ) : view.state === 'failed' ? (
        <Alert color="red" data-testid="repositories-error" role="alert">
          <Text size="sm">{t('repositories.failed', { error: view.error })}</Text>
          <Button size="xs" mt="xs" onClick={() => ref.send({ type: 'repositories.refresh' })}>
            {t('repositories.retry')}
          </Button>
        </Alert>
      ) : view.tags.length === 0 ? (
        <Text size="sm">{t('repositories.noTags')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped data-testid="tags-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('repositories.tag')}</Table.Th>
                <Table.Th>{t('repositories.size')}</Table.Th>
                <Table.Th>{t('repositories.digest')}</Table.Th>
                <Table.Th>{t('repositories.created')}</Table.Th>
                <Table.Th>{t('repositories.platforms')}</Table.Th>
                <Table.Th>{t('repositories.pullCommand')}</Table.Th>
                <Table.Th>{t('repositories.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.tags.map((tag) => (
                <TagRow
                  key={tag.tag}
                  tag={tag}
                  dateFmt={dateFmt}
                  onPush={() => {
                    push.send({ type: 'push.reset' });
                    setPushing(tag.tag);
                  }}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pushing && <PushDialog alias={alias} tag={pushing} onClose={() => setPushing(null)} />}
    </Stack>
  );
}
