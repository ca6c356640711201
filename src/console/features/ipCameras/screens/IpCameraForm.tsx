/**
 * The add/edit form of an IP camera (machines/ipCameras/ipCameraForm.machine.ts): name, address, the device
 * that reaches it, user name and password (kept on the server; editing: empty = keep), Test (a still fetched
 * through that device, shown in the image preview dialog, §9 3 per row) and Save.
 */
import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Image,
  Loader,
  NativeSelect,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { IpCameraFormRef, ReachingDevice } from '../../../../../machines/ipCameras/ipCameras.machine';
import { ImagePreviewDialog } from '../components/ImagePreviewDialog';
import '../i18n';
import { useFormView } from '../selectors';

export interface IpCameraFormProps {
  formRef: IpCameraFormRef;
  devices: readonly ReachingDevice[];
  onClose: () => void;
}

export function IpCameraForm({ formRef, devices, onClose }: IpCameraFormProps) {
  const { t, i18n } = useTranslation();
  const v = useFormView(formRef);
  const [preview, setPreview] = useState(false);
  const change = (patch: Partial<typeof v.draft>) => formRef.send({ type: 'form.change', patch });
  const err = (code: string | undefined) =>
    code ? (i18n.exists(`ipCameras.errors.${code}`) ? t(`ipCameras.errors.${code}`) : code) : undefined;
  const coded = (e: { code: string; message: string } | null) =>
    e ? (i18n.exists(`ipCameras.errors.${e.code}`) ? t(`ipCameras.errors.${e.code}`) : e.message) : null;
  const busy = v.phase === 'testing' || v.phase === 'saving';
  const deviceLabel = devices.find((d) => d.deviceId === v.draft.deviceId)?.label ?? v.draft.deviceId;
  const stillAlt = t('ipCameras.stillAlt', { name: v.draft.label || v.draft.url, device: deviceLabel });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        formRef.send({ type: 'form.save' });
      }}
      data-testid="ip-camera-form"
      noValidate
    >
      <Stack>
        <Title order={2} size="h4">
          {v.editing ? t('ipCameras.editTitle', { name: v.draft.label }) : t('ipCameras.addTitle')}
        </Title>
        <TextInput
          label={t('ipCameras.name')}
          value={v.draft.label}
          onChange={(e) => change({ label: e.currentTarget.value })}
          error={err(v.errors.label)}
          required
          data-testid="ip-camera-label"
        />
        <TextInput
          label={t('ipCameras.url')}
          value={v.draft.url}
          onChange={(e) => change({ url: e.currentTarget.value })}
          error={err(v.errors.url)}
          required
          data-testid="ip-camera-url"
        />
        <NativeSelect
          label={t('ipCameras.device')}
          value={v.draft.deviceId}
          onChange={(e) => change({ deviceId: e.currentTarget.value })}
          error={err(v.errors.deviceId)}
          data={[{ value: '', label: '—' }, ...devices.map((d) => ({ value: d.deviceId, label: d.label }))]}
          required
          data-testid="ip-camera-device"
        />
        <TextInput
          label={t('ipCameras.username')}
          value={v.draft.username}
          onChange={(e) => change({ username: e.currentTarget.value })}
          autoComplete="off"
        />
        <PasswordInput
          label={t('ipCameras.password')}
          value={v.draft.password}
          onChange={(e) => change({ password: e.currentTarget.value })}
          description={v.hasPassword ? t('ipCameras.passwordKept') : undefined}
          autoComplete="new-password"
          disabled={v.draft.clearPassword}
        />
        {v.hasPassword ? (
          <Checkbox
            label={t('ipCameras.clearPassword')}
            checked={v.draft.clearPassword}
            onChange={(e) => change({ clearPassword: e.currentTarget.checked, password: '' })}
          />
        ) : null}
        {v.phase === 'testing' ? (
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm">{t('ipCameras.testing')}</Text>
          </Group>
        ) : null}
        {v.testError ? (
          <Alert color="red" role="alert" data-testid="ip-camera-test-error">
            {coded(v.testError)}
          </Alert>
        ) : null}
        {v.saveError ? (
          <Alert color="red" role="alert" data-testid="ip-camera-save-error">
            {coded(v.saveError)}
          </Alert>
        ) : null}
        {v.still ? (
          <UnstyledButton
            onClick={() => setPreview(true)}
            aria-label={`${t('ipCameras.preview')}: ${stillAlt}`}
            data-testid="ip-camera-still"
          >
            <Image src={v.still.image} alt="" w={v.still.width} maw="100%" radius="sm" />
          </UnstyledButton>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('ipCameras.cancel')}
          </Button>
          <Button
            variant="light"
            onClick={() => formRef.send({ type: 'form.test' })}
            disabled={busy}
            data-testid="ip-camera-test"
          >
            {t('ipCameras.test')}
          </Button>
          <Button type="submit" loading={v.phase === 'saving'} disabled={busy} data-testid="ip-camera-save">
            {t('ipCameras.save')}
          </Button>
        </Group>
      </Stack>
      <ImagePreviewDialog
        opened={preview && !!v.still}
        onClose={() => setPreview(false)}
        title={t('ipCameras.preview')}
        images={
          v.still
            ? [{ src: v.still.image, alt: stillAlt, caption: `${v.still.width}×${v.still.height}` }]
            : []
        }
      />
    </form>
  );
}
