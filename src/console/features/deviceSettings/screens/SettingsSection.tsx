/**
 * One settings section of a device as a form (machines/deviceSettings/settingsForm.machine.ts): its fields
 * (switches, whole numbers typed as text, log levels), read-only facts, Save and Reset. Values are checked as
 * they are typed and on Save, before anything is sent; a refusal shows the device's error (§8), a save shows
 * the values read back. Test ids: settings-section-<infoType>, settings-field-<name>, settings-save-<infoType>,
 * settings-reset-<infoType>, settings-saved-<infoType>, settings-refused-<infoType>.
 */
import {
  Alert,
  Button,
  Group,
  Loader,
  NativeSelect,
  Paper,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { FieldError, FieldSpec } from '../../../../../machines/deviceSettings/settingsChecks';
import type { DeviceSettingsInfo, SettingsInfoType } from '../../../../protocol/deviceSettings';
import { textKeyOf } from '../i18n';
import { localeOf } from '../../../i18n/language';
import { useFormRef, useFormView, type FormView } from '../selectors';

/** A field's error in words. */
export function fieldErrorText(t: TFunction, error: FieldError | undefined): string | undefined {
  return error ? t(`deviceSettings.errors.${error.key}`, { min: error.min, max: error.max }) : undefined;
}

/**
 * Error texts and the typed value in colours with enough contrast (WCAG AA 4.5:1) on white: Mantine's error
 * red (#fa5252) has 3.3:1.
 */
export const FIELD_STYLES = {
  error: { color: 'var(--mantine-color-red-8)' },
  input: { color: 'var(--mantine-color-text)' },
};

/** The device's words, in the interface language when they are a known refusal. */
export function deviceText(t: TFunction, message: string): string {
  const key = textKeyOf(message);
  return key ? t(key) : message;
}

function Facts({ section }: { section: DeviceSettingsInfo }) {
  const { t, i18n } = useTranslation();
  const rows: [string, string][] = [];
  if (section.infoType === 'general-settings-info') {
    rows.push([t('deviceSettings.facts.homePath'), section.info.homePath]);
  }
  if (section.infoType === 'client-engine-info') {
    const i = section.info;
    rows.push([t('deviceSettings.facts.clientVersion'), i.clientVersion]);
    rows.push([t('deviceSettings.facts.kind'), t(`deviceSettings.kinds.${i.kind}`)]);
    rows.push([
      t('deviceSettings.facts.engineRestartedAt'),
      i.engineRestartedAt
        ? new Date(i.engineRestartedAt).toLocaleString(localeOf(i18n.language))
        : t('deviceSettings.facts.never'),
    ]);
    rows.push([
      t('deviceSettings.facts.cie'),
      i.cie.connected && i.cie.url ? i.cie.url : t('deviceSettings.facts.cieNone'),
    ]);
  }
  if (rows.length === 0) return null;
  return (
    <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.25rem 1rem' }}>
      {rows.map(([name, value]) => (
        <div key={name} style={{ display: 'contents' }}>
          <Text component="dt" size="sm" fw={500}>
            {name}
          </Text>
          <Text component="dd" size="sm" m={0} data-testid={`settings-fact-${name}`}>
            {value}
          </Text>
        </div>
      ))}
    </dl>
  );
}

function Field({
  field,
  view,
  disabled,
  onSet,
}: {
  field: FieldSpec;
  view: FormView;
  disabled: boolean;
  onSet: (value: string | boolean) => void;
}) {
  const { t } = useTranslation();
  const label = t(`deviceSettings.fields.${field.name}`);
  const testId = `settings-field-${field.name}`;
  const value = view.values[field.name];
  if (field.kind === 'boolean') {
    const general = view.section?.infoType === 'general-settings-info' ? view.section.info : null;
    const unsupported = field.name === 'startAtBoot' && general !== null && !general.startAtBootSupported;
    return (
      <Switch
        label={label}
        checked={value === true}
        disabled={disabled || unsupported}
        description={
          unsupported && general?.startAtBootNote ? deviceText(t, general.startAtBootNote) : undefined
        }
        onChange={(e) => onSet(e.currentTarget.checked)}
        data-testid={testId}
      />
    );
  }
  if (field.kind === 'enum') {
    return (
      <NativeSelect
        label={label}
        value={typeof value === 'string' ? value : ''}
        disabled={disabled}
        data={field.options.map((o) => ({ value: o, label: t(`deviceSettings.levels.${o}`) }))}
        onChange={(e) => onSet(e.currentTarget.value)}
        error={fieldErrorText(t, view.errors[field.name])}
        styles={FIELD_STYLES}
        data-testid={testId}
      />
    );
  }
  return (
    <TextInput
      label={label}
      value={typeof value === 'string' ? value : ''}
      inputMode="numeric"
      disabled={disabled}
      onChange={(e) => onSet(e.currentTarget.value)}
      error={fieldErrorText(t, view.errors[field.name])}
      styles={FIELD_STYLES}
      data-testid={testId}
    />
  );
}

export function SettingsSection({ deviceId, infoType }: { deviceId: string; infoType: SettingsInfoType }) {
  const { t } = useTranslation();
  const ref = useFormRef(deviceId, infoType);
  const view = useFormView(ref);
  if (!ref || !view) return null;
  const headingId = `settings-${infoType}-title`;
  const saving = view.status === 'saving';
  const jetsonMissing =
    view.section?.infoType === 'client-engine-info' && view.section.info.jetsonService === null;
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby={headingId}
      data-testid={`settings-section-${infoType}`}
    >
      <Stack gap="sm">
        <Title order={3} id={headingId}>
          {t(`deviceSettings.sections.${infoType}`)}
        </Title>
        {view.status === 'loading' && (
          <Text size="sm" role="status">
            <Loader size="xs" aria-hidden /> {t('deviceSettings.loading')}
          </Text>
        )}
        {view.status === 'loadFailed' && (
          <Alert color="red" role="alert" title={t('deviceSettings.loadFailedTitle')}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{view.deviceError ? deviceText(t, view.deviceError.message) : ''}</Text>
              <Button size="xs" variant="default" onClick={() => ref.send({ type: 'form.reload' })}>
                {t('deviceSettings.retry')}
              </Button>
            </Stack>
          </Alert>
        )}
        {view.section && view.status !== 'loading' && (
          <form
            noValidate
            aria-labelledby={headingId}
            onSubmit={(e) => {
              e.preventDefault();
              ref.send({ type: 'form.save' });
            }}
          >
            <Stack gap="sm">
              <Facts section={view.section} />
              {view.fields.map((field) => (
                <Field
                  key={field.name}
                  field={field}
                  view={view}
                  disabled={saving}
                  onSet={(value) => ref.send({ type: 'form.set', field: field.name, value })}
                />
              ))}
              {jetsonMissing && (
                <Text size="sm" c="dimmed">
                  {t('deviceSettings.facts.jetsonOnly')}
                </Text>
              )}
              {view.invalid && Object.keys(view.errors).length > 0 && (
                <Text size="sm" c="red.8" role="alert" data-testid={`settings-invalid-${infoType}`}>
                  {t('deviceSettings.invalidNote')}
                </Text>
              )}
              {view.status === 'refused' && view.deviceError && (
                <Alert
                  color="red"
                  role="alert"
                  title={t('deviceSettings.refusedTitle')}
                  data-testid={`settings-refused-${infoType}`}
                >
                  {deviceText(t, view.deviceError.message)}
                </Alert>
              )}
              {view.status === 'saved' && (
                <Alert color="green" role="status" data-testid={`settings-saved-${infoType}`}>
                  {t('deviceSettings.saved')}
                </Alert>
              )}
              <Group gap="xs">
                <Button
                  type="submit"
                  loading={saving}
                  disabled={!view.dirty && !saving}
                  data-testid={`settings-save-${infoType}`}
                >
                  {saving ? t('deviceSettings.saving') : t('deviceSettings.save')}
                </Button>
                <Button
                  variant="default"
                  disabled={!view.dirty || saving}
                  onClick={() => ref.send({ type: 'form.reset' })}
                  data-testid={`settings-reset-${infoType}`}
                >
                  {t('deviceSettings.reset')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
