/**
 * /profile/personal-information (spec §2 Profile; §3 User info "profile update carries email, username,
 * password, image, bio"; §5 "Profile update sends the password only when provided"; §7 PUT user). The form
 * keeps its values locally and sends them with profile.save; the machine validates, sends only what changed
 * and puts the server's errors on their fields (a wrong current password on "Current password"). The picture
 * is uploaded at once through the uploads feature (purpose 'avatar'; checked by the server) and the header
 * shows it as soon as the upload ends.
 * Test ids: personal-screen, profile-email, profile-username, profile-bio, profile-password,
 * profile-password-confirm, profile-current-password, profile-save, profile-error, profile-avatar,
 * profile-avatar-input, profile-avatar-remove.
 */
import {
  Alert,
  Avatar,
  Button,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import { PROFILE_IDS } from '../../../../../machines/profile/ids';
import {
  formOf,
  needsCurrentPassword,
  type ProfileFormValues,
  type ProfileUser,
} from '../../../../../machines/profile/profileForm';
import { SYSTEM_IDS } from '../../../../../machines/systemIds';
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '../../../../protocol/profile';
import { useSystem } from '../../../shell/SystemProvider';
import { useStartUpload } from '../../uploads';
import '../i18n';
import { useProfileRef, useProfileView } from '../selectors';
import { ProfilePage } from './ProfileNav';
import './profile.css';

/** Hears the end of 'avatar' uploads and gives the new user to the profile actor. */
function useAvatarUploads(profile: AnyActorRef) {
  const system = useSystem();
  const uploadsRunning = useSelector(system, (s) => s.context.loaded.includes('uploads'));
  useEffect(() => {
    const uploads = system.system.get(SYSTEM_IDS.uploads) as AnyActorRef | undefined;
    if (!uploads) return;
    const sub = uploads.on('upload.done', (e: { purpose?: string; result?: unknown }) => {
      const user = (e.result as { user_info?: ProfileUser } | undefined)?.user_info;
      if (e.purpose === 'avatar' && user) profile.send({ type: 'avatar.uploaded', user });
    });
    return () => sub.unsubscribe();
  }, [system, profile, uploadsRunning]);
}

function AvatarPanel({ user, busy }: { user: ProfileUser; busy: boolean }) {
  const { t } = useTranslation();
  const profile = useProfileRef(PROFILE_IDS.form);
  const startUpload = useStartUpload();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const pick = (file: File | undefined) => {
    if (!file) return;
    // The server checks again (size at creation, the bytes at the end); this only saves a useless upload.
    if (file.size > AVATAR_MAX_BYTES) return setProblem('avatarTooBig');
    if (file.type && !(AVATAR_TYPES as readonly string[]).includes(file.type))
      return setProblem('avatarWrongType');
    setProblem(null);
    startUpload(file, 'avatar');
  };
  return (
    <Paper withBorder p="md">
      <Group align="center" gap="md">
        <Avatar
          src={user.image}
          alt={user.username}
          size={72}
          radius="xl"
          data-testid="profile-avatar"
          data-src={user.image ?? ''}
        >
          {user.image ? null : user.username.slice(0, 1).toUpperCase()}
        </Avatar>
        <Stack gap={4}>
          <Text fw={600} size="sm" id="avatar-title">
            {t('profile.personal.avatar')}
          </Text>
          <Text size="xs" id="avatar-help">
            {user.image
              ? t('profile.personal.avatarHelp')
              : `${t('profile.personal.avatarNone')} · ${t('profile.personal.avatarHelp')}`}
          </Text>
          <Group gap="xs">
            <input
              ref={input}
              type="file"
              accept={AVATAR_TYPES.join(',')}
              hidden
              data-testid="profile-avatar-input"
              aria-describedby="avatar-help"
              onChange={(e) => {
                pick(e.currentTarget.files?.[0]);
                e.currentTarget.value = '';
              }}
            />
            <Button size="xs" variant="light" onClick={() => input.current?.click()} disabled={busy}>
              {t('profile.personal.avatarChoose')}
            </Button>
            {user.image && (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                data-testid="profile-avatar-remove"
                disabled={busy}
                onClick={() => profile.send({ type: 'avatar.remove' })}
              >
                {t('profile.personal.avatarRemove')}
              </Button>
            )}
          </Group>
          {problem && (
            <Text size="xs" c="red.9" role="alert">
              {t(`profile.personal.${problem}`)}
            </Text>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}

export default function PersonalInformationScreen() {
  const { t } = useTranslation();
  const profile = useProfileRef(PROFILE_IDS.form);
  const view = useProfileView();
  const [values, setValues] = useState<ProfileFormValues | null>(null);
  useAvatarUploads(profile);
  useEffect(() => {
    if (view.state === 'idle') profile.send({ type: 'profile.load' });
  }, [profile, view.state]);
  // Start from the saved user, and again after every save (passwords cleared).
  useEffect(() => {
    if (view.user) setValues(formOf(view.user));
    // Only when a user arrives or a save succeeded, not on every snapshot.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view.user?.id, view.formVersion]);

  const field = (name: keyof ProfileFormValues) => ({
    value: values?.[name] ?? '',
    onChange: (e: { currentTarget: { value: string } }) => {
      const value = e.currentTarget.value;
      setValues((v) => (v ? { ...v, [name]: value } : v));
    },
    error: view.fieldErrors[name]
      ? t(`profile.errors.${view.fieldErrors[name]}`, { defaultValue: view.fieldErrors[name] })
      : undefined,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (values) profile.send({ type: 'profile.save', values });
  };
  const askCurrent = values && view.user ? needsCurrentPassword(values, view.user) : false;

  return (
    <ProfilePage title={t('profile.personal.title')} testId="personal-screen">
      <Text size="sm">{t('profile.personal.intro')}</Text>
      {view.state === 'idle' || (view.state === 'loading' && !view.user) ? (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text size="sm">{t('profile.loading')}</Text>
        </Group>
      ) : view.state === 'failed' ? (
        <Alert color="red" role="alert">
          <Text size="sm">{t('profile.failed', { error: view.error })}</Text>
          <Button size="xs" mt="xs" onClick={() => profile.send({ type: 'profile.retry' })}>
            {t('profile.retry')}
          </Button>
        </Alert>
      ) : view.user && values ? (
        <>
          <AvatarPanel user={view.user} busy={view.busy} />
          <Paper
            withBorder
            p="md"
            component="form"
            className="profile-form"
            onSubmit={submit}
            noValidate
            maw={560}
          >
            <Stack gap="sm">
              {view.error && (
                <Alert color="red" role="alert" data-testid="profile-error">
                  {view.error}
                </Alert>
              )}
              <TextInput
                label={t('profile.personal.username')}
                data-testid="profile-username"
                autoComplete="name"
                {...field('username')}
              />
              <TextInput
                label={t('profile.personal.email')}
                type="email"
                data-testid="profile-email"
                autoComplete="email"
                {...field('email')}
              />
              <Textarea
                label={t('profile.personal.bio')}
                description={t('profile.personal.bioHelp')}
                autosize
                minRows={2}
                data-testid="profile-bio"
                {...field('bio')}
              />
              <PasswordInput
                label={t('profile.personal.password')}
                description={t('profile.personal.passwordHelp')}
                autoComplete="new-password"
                data-testid="profile-password"
                {...field('password')}
              />
              <PasswordInput
                label={t('profile.personal.passwordConfirm')}
                autoComplete="new-password"
                data-testid="profile-password-confirm"
                {...field('passwordConfirm')}
              />
              {(askCurrent || view.fieldErrors.currentPassword) && (
                <PasswordInput
                  label={t('profile.personal.currentPassword')}
                  description={t('profile.personal.currentPasswordHelp')}
                  autoComplete="current-password"
                  data-testid="profile-current-password"
                  {...field('currentPassword')}
                />
              )}
              <Group>
                <Button type="submit" loading={view.state === 'saving'} data-testid="profile-save">
                  {view.state === 'saving' ? t('profile.personal.saving') : t('profile.personal.save')}
                </Button>
                {view.saved && (
                  <Text size="sm" c="green.9" role="status" data-testid="profile-saved">
                    {t('profile.personal.saved')}
                  </Text>
                )}
              </Group>
            </Stack>
          </Paper>
        </>
      ) : null}
    </ProfilePage>
  );
}
