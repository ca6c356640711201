/**
 * The application form dialog (create from a model version, or edit): model and version, the §3
 * selectedModelInfo (task, classes, input size), name, description, input (source, frame size, fps),
 * threshold (§9 default 0.3), classes (a subset of the model's) and tracker (from the features list).
 * Test ids: application-form, app-model, app-version, app-model-info, app-name, app-source, app-fps,
 * app-threshold, app-class-<class>, app-tracker, app-save, app-form-error.
 */
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMachine } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApplicationDraft } from '../../../../../machines/applications/applicationForm.machine';
import type { Application } from '../../../../protocol/applications';
import { applicationFormLogic } from '../actors';
import '../i18n';
import { applicationFormToView, useFeatures } from '../selectors';

export function ApplicationForm({
  application,
  onClose,
}: {
  application: Application | null;
  onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation();
  const features = useFeatures();
  const [snapshot, send] = useMachine(applicationFormLogic(), { input: { application } });
  const view = applicationFormToView(snapshot, features);
  useEffect(() => {
    if (view.state === 'saved') onClose(true);
  }, [view.state, onClose]);
  const change = (patch: Partial<ApplicationDraft>) => send({ type: 'form.change', patch });
  const err = (k: keyof ApplicationDraft) =>
    view.errors[k] ? t(`applications.errors.${view.errors[k]}`) : undefined;
  const d = view.draft;
  const title = view.editingName
    ? t('applications.formEdit', { name: view.editingName })
    : t('applications.formNew');
  return (
    <Modal opened onClose={() => onClose(false)} title={title} size="lg">
      {view.state === 'loadingModels' ? (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text size="sm">{t('applications.formLoading')}</Text>
        </Group>
      ) : view.state === 'failed' ? (
        <Alert color="red" role="alert">
          <Text size="sm">{t('applications.formFailed', { error: view.error })}</Text>
          <Button size="xs" mt="xs" onClick={() => send({ type: 'form.retry' })}>
            {t('applications.retry')}
          </Button>
        </Alert>
      ) : view.models.length === 0 ? (
        <Alert color="blue">{t('applications.noModels')}</Alert>
      ) : (
        <form
          data-testid="application-form"
          onSubmit={(e) => {
            e.preventDefault();
            send({ type: 'form.save' });
          }}
        >
          <Stack gap="sm">
            <SimpleGrid cols={2}>
              <NativeSelect
                label={t('applications.model')}
                data-testid="app-model"
                value={d.modelId}
                error={err('modelId')}
                onChange={(e) => send({ type: 'form.model', modelId: e.currentTarget.value })}
                data={[
                  ...(d.modelId ? [] : [{ value: '', label: t('applications.chooseModel'), disabled: true }]),
                  ...view.models.map((m) => ({ value: m.id, label: m.name })),
                ]}
              />
              <NativeSelect
                label={t('applications.version')}
                data-testid="app-version"
                value={d.versionId}
                error={err('versionId')}
                disabled={view.versions.length === 0}
                onChange={(e) => change({ versionId: e.currentTarget.value })}
                data={view.versions.map((v) => ({ value: v.id, label: `v${v.version}` }))}
              />
            </SimpleGrid>
            {view.state === 'loadingModel' ? (
              <Loader size="xs" aria-label={t('applications.formLoading')} />
            ) : view.info ? (
              <Paper withBorder p="xs" data-testid="app-model-info" aria-label={t('applications.modelInfo')}>
                <Text size="sm">{t('applications.task', { task: view.info.task })}</Text>
                {view.info.inputSize && (
                  <Text size="sm">{t('applications.inputSize', { size: view.info.inputSize })}</Text>
                )}
                <Text size="sm">
                  {view.info.classes.length
                    ? t('applications.modelClasses', { classes: view.info.classes.join(', ') })
                    : t('applications.noClasses')}
                </Text>
              </Paper>
            ) : null}
            <TextInput
              label={t('applications.name')}
              withAsterisk
              data-testid="app-name"
              value={d.name}
              error={err('name')}
              onChange={(e) => change({ name: e.currentTarget.value })}
            />
            <Textarea
              label={t('applications.description')}
              autosize
              minRows={2}
              value={d.description}
              onChange={(e) => change({ description: e.currentTarget.value })}
            />
            <SimpleGrid cols={2}>
              <NativeSelect
                label={t('applications.source')}
                data-testid="app-source"
                value={d.source}
                onChange={(e) => change({ source: e.currentTarget.value as ApplicationDraft['source'] })}
                data={view.sources.map((s) => ({ value: s, label: t(`applications.sources.${s}`) }))}
              />
              <TextInput
                label={t('applications.fps')}
                inputMode="numeric"
                data-testid="app-fps"
                value={d.fps}
                error={err('fps')}
                onChange={(e) => change({ fps: e.currentTarget.value })}
              />
              <TextInput
                label={t('applications.width')}
                description={t('applications.sizeHelp')}
                inputMode="numeric"
                value={d.width}
                error={err('width')}
                onChange={(e) => change({ width: e.currentTarget.value })}
              />
              <TextInput
                label={t('applications.height')}
                description={t('applications.sizeHelp')}
                inputMode="numeric"
                value={d.height}
                error={err('height')}
                onChange={(e) => change({ height: e.currentTarget.value })}
              />
            </SimpleGrid>
            <TextInput
              label={t('applications.threshold')}
              description={t('applications.thresholdHelp')}
              inputMode="decimal"
              data-testid="app-threshold"
              value={d.threshold}
              error={err('threshold')}
              onChange={(e) => change({ threshold: e.currentTarget.value })}
            />
            {view.info && view.info.classes.length > 0 && (
              <Checkbox.Group
                label={t('applications.classes')}
                description={t('applications.classesHelp')}
                value={d.classes}
                onChange={(classes) => change({ classes })}
              >
                <Group gap="sm" mt={4}>
                  {view.info.classes.map((c) => (
                    <Checkbox key={c} value={c} label={c} data-testid={`app-class-${c}`} />
                  ))}
                </Group>
              </Checkbox.Group>
            )}
            <NativeSelect
              label={t('applications.tracker')}
              data-testid="app-tracker"
              value={d.tracker}
              error={err('tracker')}
              onChange={(e) => change({ tracker: e.currentTarget.value as ApplicationDraft['tracker'] })}
              data={view.trackers.map((k) => ({ value: k, label: t(`applications.trackers.${k}`) }))}
            />
            {view.error && view.state === 'editing' && (
              <Alert color="red" role="alert" data-testid="app-form-error">
                {t('applications.saveFailed', { error: view.error })}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => onClose(false)}>
                {t('applications.cancel')}
              </Button>
              <Button type="submit" loading={view.busy} data-testid="app-save">
                {t('applications.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
