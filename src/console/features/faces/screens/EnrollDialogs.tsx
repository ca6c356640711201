/**
 * The gallery's two ways in (issue 11 "upload or pick from events"):
 * - EnrollFromEvents: recent events of recognised people (one per person, thumbnails); one is chosen, given a
 *   label (default: its identity) and put on the blacklist or not → faces/from-event.
 * - UploadPhoto: a JPEG or PNG (≤ 2 MB, checked by its first bytes) for one of the people the cameras have
 *   seen (no face engine runs on the server) → faces/upload.
 * Both close when the machine counts a new enrolment; its error (translated when known) stays in the dialog.
 * Test ids: enroll-dialog, seen-event-<identity> (data-enrolled), enroll-label, enroll-blacklisted,
 * enroll-submit, enroll-error, enroll-empty; upload-dialog, upload-file, upload-identity, upload-label,
 * upload-blacklisted, upload-submit, upload-error.
 */
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import type { FacesScreenView, ShownError } from '../selectors';
import { useTimeFormat } from './time';

interface DialogProps {
  view: FacesScreenView;
  actor: AnyActorRef;
  onClose: () => void;
}

/** Closes the dialog when a new enrolment is counted. */
function useCloseOnSaved(saved: number, onClose: () => void) {
  const atOpen = useRef(saved);
  useEffect(() => {
    if (saved !== atOpen.current) onClose();
  }, [saved, onClose]);
}

function FormError({ error, testId }: { error: ShownError | null; testId: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <Alert color="red" data-testid={testId} role="alert">
      {'key' in error ? t(error.key) : error.text}
    </Alert>
  );
}

export function EnrollFromEvents({ view, actor, onClose }: DialogProps) {
  const { t } = useTranslation();
  const time = useTimeFormat();
  const [chosen, setChosen] = useState<string | null>(null);
  const [label, setLabel] = useState('');
  const [blacklisted, setBlacklisted] = useState(true);
  useCloseOnSaved(view.saved, onClose);
  // Chosen by person: the picker's newest event of a person changes as events keep coming.
  const event = view.seen.find((e) => e.identity === chosen) ?? null;

  return (
    <Modal opened onClose={onClose} title={t('faces.pickTitle')} size="xl" data-testid="enroll-dialog">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('faces.pickHelp')}
        </Text>
        {view.seen.length === 0 && !view.busy ? (
          <Text data-testid="enroll-empty">{t('faces.pickEmpty')}</Text>
        ) : null}
        <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }}>
          {view.seen.map((e) => {
            const name = t('faces.pickEvent', {
              identity: e.identity,
              camera: e.device_label ? `${e.device_label} · ${e.camera_id}` : e.camera_id,
              time: time(e.at),
            });
            return (
              <UnstyledButton
                key={e.id}
                onClick={() => {
                  setChosen(e.identity);
                  setLabel(e.identity);
                }}
                disabled={e.enrolled}
                aria-pressed={chosen === e.identity}
                aria-label={name}
                data-testid={`seen-event-${e.identity}`}
                data-enrolled={e.enrolled}
                style={{
                  border: `2px solid ${chosen === e.identity ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-3)'}`,
                  borderRadius: 6,
                  padding: 4,
                  opacity: e.enrolled ? 0.6 : 1,
                }}
              >
                {e.snapshot_url ? (
                  <img
                    src={e.snapshot_url}
                    alt=""
                    style={{ width: '100%', aspectRatio: '16 / 9', objectFit: 'cover', display: 'block' }}
                  />
                ) : null}
                <Text size="sm" fw={600}>
                  {e.identity}
                </Text>
                <Text size="xs" c="dimmed">
                  {time(e.at)}
                </Text>
                {e.enrolled ? <Badge size="xs">{t('faces.inGallery')}</Badge> : null}
              </UnstyledButton>
            );
          })}
        </SimpleGrid>
        <TextInput
          label={t('faces.label')}
          description={t('faces.labelHelp')}
          value={label}
          maxLength={120}
          disabled={!event}
          onChange={(e) => setLabel(e.currentTarget.value)}
          data-testid="enroll-label"
        />
        <Checkbox
          label={t('faces.addToBlacklist')}
          checked={blacklisted}
          onChange={(e) => setBlacklisted(e.currentTarget.checked)}
          data-testid="enroll-blacklisted"
        />
        <FormError error={view.formError} testId="enroll-error" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('faces.cancel')}
          </Button>
          <Button
            disabled={!event}
            loading={view.state === 'enrolling'}
            onClick={() =>
              event &&
              actor.send({
                type: 'face.enroll',
                eventId: event.id,
                label: label.trim() || undefined,
                blacklisted,
              })
            }
            data-testid="enroll-submit"
          >
            {t('faces.enroll')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function UploadPhoto({ view, actor, onClose }: DialogProps) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [identity, setIdentity] = useState('');
  const [label, setLabel] = useState('');
  const [blacklisted, setBlacklisted] = useState(true);
  const [missing, setMissing] = useState<string | null>(null);
  useCloseOnSaved(view.saved, onClose);

  const submit = () => {
    if (!file) return setMissing('faces.chooseFile');
    if (!identity) return setMissing('faces.choosePerson');
    setMissing(null);
    actor.send({
      type: 'face.upload',
      picture: file,
      identity,
      label: label.trim() || identity,
      blacklisted,
    });
  };

  return (
    <Modal opened onClose={onClose} title={t('faces.uploadTitle')} data-testid="upload-dialog">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('faces.uploadHelp')}
        </Text>
        <Stack gap={4}>
          <label htmlFor="face-upload-file">
            <Text size="sm" fw={500}>
              {t('faces.file')}
            </Text>
          </label>
          <input
            id="face-upload-file"
            type="file"
            accept="image/jpeg,image/png"
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              actor.send({ type: 'form.clear' });
            }}
            data-testid="upload-file"
          />
        </Stack>
        {view.identities.length === 0 ? <Text size="sm">{t('faces.noPeople')}</Text> : null}
        <NativeSelect
          label={t('faces.person')}
          value={identity}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setIdentity(v);
            if (!label || label === identity) setLabel(v);
          }}
          data={[
            { value: '', label: t('faces.personPlaceholder') },
            ...view.identities.map((i) => ({
              value: i.identity,
              label: t('faces.personOption', { identity: i.identity, n: i.events }),
            })),
          ]}
          data-testid="upload-identity"
        />
        <TextInput
          label={t('faces.label')}
          description={t('faces.labelHelp')}
          value={label}
          maxLength={120}
          onChange={(e) => setLabel(e.currentTarget.value)}
          data-testid="upload-label"
        />
        <Checkbox
          label={t('faces.addToBlacklist')}
          checked={blacklisted}
          onChange={(e) => setBlacklisted(e.currentTarget.checked)}
          data-testid="upload-blacklisted"
        />
        <FormError error={missing ? { key: missing } : view.formError} testId="upload-error" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('faces.cancel')}
          </Button>
          <Button loading={view.state === 'uploading'} onClick={submit} data-testid="upload-submit">
            {t('faces.send')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
