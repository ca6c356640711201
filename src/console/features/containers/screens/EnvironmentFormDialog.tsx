/**
 * The admin form of one catalogue entry (§2 /admin-panel/dockers): alias, name, description, image
 * repository, tags (tag, platform, size MB), Jupyter (and its port), GPU, public. Checked with the contract's
 * EnvironmentInput (validation.ts) before it is sent; each message shows under its field, and the server's
 * answer (409: the alias is taken) under the alias or above the buttons. Saving goes to the environments
 * actor (`environments.save`); the dialog closes when the actor reports it saved.
 */
import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { EnvPlatform } from '../../../../protocol/containers';
import { useEditView, useEnvironmentsRef } from '../selectors';
import { validateEnvironmentForm, type EnvironmentFormValues, type FormErrors } from '../validation';

const PLATFORMS: EnvPlatform[] = ['any', 'jetson', 'x86'];

/** Test ids: environment-form, env-field-{alias|name|description|image|jupyter|jupyterPort|gpu|public},
 * env-tag-{i}-{tag|platform|size}, env-tag-add, env-tag-remove-{i}, environment-form-save, environment-form-error. */
export function EnvironmentFormDialog({
  id,
  initial,
  onClose,
}: {
  /** The entry edited, null to add one. */
  id: string | null;
  initial: EnvironmentFormValues;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const environments = useEnvironmentsRef();
  const edit = useEditView();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [sent, setSent] = useState(false);

  useEffect(() => {
    environments.send({ type: 'environments.editReset' });
  }, [environments]);
  useEffect(() => {
    if (sent && edit.saved) onClose();
  }, [sent, edit.saved, onClose]);

  const set = <K extends keyof EnvironmentFormValues>(k: K, v: EnvironmentFormValues[K]) =>
    setValues((prev) => ({ ...prev, [k]: v }));
  const setTag = (i: number, patch: Partial<EnvironmentFormValues['tags'][number]>) =>
    set(
      'tags',
      values.tags.map((tag, j) => (j === i ? { ...tag, ...patch } : tag)),
    );
  const save = () => {
    const checked = validateEnvironmentForm(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setSent(true);
    environments.send({ type: 'environments.save', id, input: checked.input });
  };
  const err = (field: string) =>
    errors[field] ?? (edit.field === field ? (edit.error ?? undefined) : undefined);
  const field = (name: string) => ({ 'data-testid': `env-field-${name}`, error: err(name) });

  return (
    <Modal
      opened
      onClose={onClose}
      title={id ? t('containers.admin.editTitle') : t('containers.admin.addTitle')}
      size="lg"
    >
      <form
        noValidate
        data-testid="environment-form"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('containers.admin.alias')}
            description={t('containers.admin.aliasHint')}
            required
            value={values.alias}
            onChange={(e) => set('alias', e.currentTarget.value)}
            {...field('alias')}
          />
          <TextInput
            label={t('containers.admin.name')}
            required
            value={values.name}
            onChange={(e) => set('name', e.currentTarget.value)}
            {...field('name')}
          />
          <Textarea
            label={t('containers.admin.description')}
            value={values.description}
            onChange={(e) => set('description', e.currentTarget.value)}
            {...field('description')}
          />
          <TextInput
            label={t('containers.admin.image')}
            description={t('containers.admin.imageHint')}
            required
            value={values.image}
            onChange={(e) => set('image', e.currentTarget.value)}
            {...field('image')}
          />
          <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
            <legend>
              <Text size="sm" fw={500}>
                {t('containers.admin.tags')}
              </Text>
            </legend>
            <Stack gap="xs">
              {values.tags.map((tag, i) => (
                <Group key={i} align="flex-start" wrap="nowrap">
                  <TextInput
                    label={t('containers.admin.tag')}
                    value={tag.tag}
                    onChange={(e) => setTag(i, { tag: e.currentTarget.value })}
                    error={err(`tags.${i}.tag`)}
                    data-testid={`env-tag-${i}-tag`}
                  />
                  <NativeSelect
                    label={t('containers.admin.platform')}
                    value={tag.platform}
                    onChange={(e) => setTag(i, { platform: e.currentTarget.value as EnvPlatform })}
                    data={PLATFORMS.map((p) => ({ value: p, label: t(`containers.platforms.${p}`) }))}
                    data-testid={`env-tag-${i}-platform`}
                  />
                  <TextInput
                    label={t('containers.admin.sizeMb')}
                    inputMode="numeric"
                    value={tag.sizeMb}
                    onChange={(e) => setTag(i, { sizeMb: e.currentTarget.value })}
                    error={err(`tags.${i}.sizeMb`)}
                    data-testid={`env-tag-${i}-size`}
                  />
                  <Button
                    mt={24}
                    variant="subtle"
                    color="red"
                    disabled={values.tags.length === 1}
                    onClick={() =>
                      set(
                        'tags',
                        values.tags.filter((_, j) => j !== i),
                      )
                    }
                    aria-label={t('containers.admin.removeTag', { tag: tag.tag || i + 1 })}
                    data-testid={`env-tag-remove-${i}`}
                  >
                    ×
                  </Button>
                </Group>
              ))}
              {err('tags') && (
                <Text size="xs" c="red" role="alert">
                  {err('tags')}
                </Text>
              )}
              <Button
                variant="light"
                size="xs"
                w="fit-content"
                onClick={() => set('tags', [...values.tags, { tag: '', platform: 'any', sizeMb: '0' }])}
                data-testid="env-tag-add"
              >
                {t('containers.admin.addTag')}
              </Button>
            </Stack>
          </fieldset>
          <Group>
            <Checkbox
              label={t('containers.admin.jupyter')}
              checked={values.jupyter}
              onChange={(e) => set('jupyter', e.currentTarget.checked)}
              data-testid="env-field-jupyter"
            />
            <Checkbox
              label={t('containers.admin.gpu')}
              checked={values.gpu}
              onChange={(e) => set('gpu', e.currentTarget.checked)}
              data-testid="env-field-gpu"
            />
            <Checkbox
              label={t('containers.admin.public')}
              checked={values.public}
              onChange={(e) => set('public', e.currentTarget.checked)}
              data-testid="env-field-public"
            />
          </Group>
          {values.jupyter && (
            <TextInput
              label={t('containers.admin.jupyterPort')}
              inputMode="numeric"
              w={160}
              value={values.jupyterPort}
              onChange={(e) => set('jupyterPort', e.currentTarget.value)}
              {...field('jupyterPort')}
            />
          )}
          {edit.error && !edit.field && (
            <Alert color="red" role="alert" data-testid="environment-form-error">
              {edit.error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('containers.cancel')}
            </Button>
            <Button type="submit" loading={edit.saving} data-testid="environment-form-save">
              {t('containers.admin.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
