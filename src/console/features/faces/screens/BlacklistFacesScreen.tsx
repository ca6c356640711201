/**
 * /blacklist-faces (§2 auth route; issue 11 "Faces: a gallery of enrolled faces (upload or pick from
 * events)"): the user's enrolled faces as cards — picture, label, identity, an "On the blacklist" switch,
 * rename and delete (confirmation) — with "Enroll from events" and "Upload photo" (EnrollDialogs). A change
 * to the blacklist is sent to the connected devices at once (actors.ts).
 * Test ids: faces-screen, faces-enroll-events, faces-upload, faces-grid, face-card-<identity> (data-blacklisted),
 * face-blacklist, face-rename, face-delete, face-rename-input, face-rename-save, faces-confirm, faces-error,
 * faces-empty.
 */
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FaceView } from '../../../../protocol/faces';
import { DeleteIcon, EditIcon } from '../../../shell/icons';
import '../i18n';
import { useFacesRef, useFacesView } from '../selectors';
import { EnrollFromEvents, UploadPhoto } from './EnrollDialogs';

export default function BlacklistFacesScreen() {
  const { t } = useTranslation();
  const ref = useFacesRef();
  const view = useFacesView();
  const [dialog, setDialog] = useState<'events' | 'upload' | null>(null);
  const [renaming, setRenaming] = useState<{ face: FaceView; label: string } | null>(null);
  useEffect(() => {
    ref.send({ type: 'faces.load' });
  }, [ref]);
  const open = (which: 'events' | 'upload') => {
    ref.send({ type: 'faces.refresh' });
    ref.send({ type: 'form.clear' });
    setDialog(which);
  };

  return (
    <Stack gap="md" data-testid="faces-screen">
      <Group justify="space-between">
        <Title order={1}>{t('faces.title')}</Title>
        <Group gap="sm">
          <Button onClick={() => open('events')} data-testid="faces-enroll-events">
            {t('faces.enrollEvents')}
          </Button>
          <Button variant="default" onClick={() => open('upload')} data-testid="faces-upload">
            {t('faces.upload')}
          </Button>
        </Group>
      </Group>
      <Text c="dimmed">{t('faces.intro')}</Text>
      {view.state === 'failed' ? (
        <Alert color="red" data-testid="faces-error">
          {t('faces.failed', { error: view.error })}
          <Button size="xs" ml="md" onClick={() => ref.send({ type: 'faces.refresh' })}>
            {t('faces.retry')}
          </Button>
        </Alert>
      ) : null}
      {view.state === 'loading' && view.faces.length === 0 ? (
        <Loader aria-label={t('faces.loading')} />
      ) : null}
      {view.state !== 'loading' && view.state !== 'failed' && view.faces.length === 0 ? (
        <Text data-testid="faces-empty">{t('faces.empty')}</Text>
      ) : null}
      {view.faces.length > 0 ? (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} data-testid="faces-grid">
          {view.faces.map((f) => (
            <Card
              key={f.id}
              withBorder
              padding="sm"
              data-testid={`face-card-${f.identity}`}
              data-blacklisted={f.blacklisted}
            >
              <Card.Section>
                {f.picture_url ? (
                  <img
                    src={f.picture_url}
                    alt={t('faces.picture', { label: f.label })}
                    style={{ width: '100%', aspectRatio: '16 / 9', objectFit: 'cover', display: 'block' }}
                  />
                ) : (
                  <Text ta="center" py="xl" c="dimmed">
                    {t('faces.noPicture')}
                  </Text>
                )}
              </Card.Section>
              <Group justify="space-between" mt="sm" wrap="nowrap">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text fw={600} truncate data-testid="face-label">
                    {f.label}
                  </Text>
                  <Text size="sm" c="dimmed" truncate>
                    {t('faces.identity', { identity: f.identity })}
                  </Text>
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('faces.rename', { label: f.label })}
                    onClick={() => setRenaming({ face: f, label: f.label })}
                    data-testid="face-rename"
                  >
                    <EditIcon />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('faces.remove', { label: f.label })}
                    onClick={() => ref.send({ type: 'delete.ask', id: f.id })}
                    data-testid="face-delete"
                  >
                    <DeleteIcon />
                  </ActionIcon>
                </Group>
              </Group>
              <Switch
                mt="sm"
                label={t('faces.blacklisted')}
                checked={f.blacklisted}
                disabled={view.busy}
                onChange={(e) =>
                  ref.send({ type: 'face.update', id: f.id, blacklisted: e.currentTarget.checked })
                }
                data-testid="face-blacklist"
              />
            </Card>
          ))}
        </SimpleGrid>
      ) : null}

      <Modal
        opened={renaming !== null}
        onClose={() => setRenaming(null)}
        title={t('faces.renameTitle')}
        data-testid="face-rename-dialog"
      >
        {renaming ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              const label = renaming.label.trim() || renaming.face.identity;
              ref.send({ type: 'face.update', id: renaming.face.id, label });
              setRenaming(null);
            }}
          >
            <Stack>
              <TextInput
                label={t('faces.label')}
                description={t('faces.labelHelp')}
                value={renaming.label}
                maxLength={120}
                onChange={(e) => setRenaming({ ...renaming, label: e.currentTarget.value })}
                data-testid="face-rename-input"
                data-autofocus
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setRenaming(null)}>
                  {t('faces.cancel')}
                </Button>
                <Button type="submit" data-testid="face-rename-save">
                  {t('faces.save')}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : null}
      </Modal>

      <Modal
        opened={view.state === 'confirming'}
        onClose={() => ref.send({ type: 'delete.cancel' })}
        title={t('faces.removeTitle')}
      >
        <Stack>
          <Text>{t('faces.removeConfirm', { label: view.target?.label ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => ref.send({ type: 'delete.cancel' })}>
              {t('faces.cancel')}
            </Button>
            <Button
              color="red"
              onClick={() => ref.send({ type: 'delete.confirm' })}
              data-testid="faces-confirm"
            >
              {t('faces.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      {dialog === 'events' ? (
        <EnrollFromEvents view={view} actor={ref} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'upload' ? <UploadPhoto view={view} actor={ref} onClose={() => setDialog(null)} /> : null}
    </Stack>
  );
}
