/**
 * The "Upload model" and "New version" form (issue 9; §7 upload-model as a tus upload with purpose 'model'):
 * a new model (file, name, task, format, classes, input size, description) or a new version of `model`
 * (file, notes). The file's extension must be one of the format's (checked here and by the server before any
 * byte); the upload itself runs in the uploads feature's actor (useStartUpload) and the list refreshes when it
 * finishes. Test ids: models-upload-file, models-upload-name, models-upload-task, models-upload-format,
 * models-upload-classes, models-upload-input-size, models-upload-description, models-upload-notes,
 * models-upload-error, models-upload-submit.
 */
import { Button, Group, Modal, NativeSelect, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  fileMatchesFormat,
  formatOfFileName,
  MODEL_FORMATS,
  MODEL_TASKS,
  type Model,
  type ModelFormat,
} from '../../../../protocol/models';
import { useStartUpload } from '../../uploads';
import '../i18n';

const FORMATS = Object.keys(MODEL_FORMATS) as ModelFormat[];

/** The tus metadata of the form, or the key of the first problem. */
export function uploadMetaOf(
  form: {
    fileName: string | null;
    name: string;
    task: string;
    format: ModelFormat;
    classes: string;
    inputSize: string;
    description: string;
    notes: string;
  },
  model: Pick<Model, 'id' | 'format'> | null,
):
  | { meta: Record<string, string> }
  | { problem: 'fileRequired' | 'nameRequired' | 'badExtension' | 'badInputSize' } {
  if (!form.fileName) return { problem: 'fileRequired' };
  const format = model ? model.format : form.format;
  if (!fileMatchesFormat(form.fileName, format)) return { problem: 'badExtension' };
  if (model) return { meta: { modelId: model.id, notes: form.notes.trim() } };
  if (!form.name.trim()) return { problem: 'nameRequired' };
  if (form.inputSize.trim() && !/^\s*\d{1,5}\s*[x×]\s*\d{1,5}\s*$/i.test(form.inputSize))
    return { problem: 'badInputSize' };
  const classes = form.classes
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  return {
    meta: {
      name: form.name.trim(),
      task: form.task,
      format,
      classes: JSON.stringify(classes),
      inputSize: form.inputSize.trim(),
      description: form.description.trim(),
      notes: form.notes.trim(),
    },
  };
}

export function UploadModelDialog({
  opened,
  onClose,
  model,
}: {
  opened: boolean;
  onClose: () => void;
  /** A new version of this model; null: a new model. */
  model: Pick<Model, 'id' | 'name' | 'format'> | null;
}) {
  const { t } = useTranslation();
  const startUpload = useStartUpload();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [task, setTask] = useState<string>('object-detection');
  const [format, setFormat] = useState<ModelFormat>('onnx');
  const [classes, setClasses] = useState('');
  const [inputSize, setInputSize] = useState('');
  const [description, setDescription] = useState('');
  const [notes, setNotes] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const activeFormat = model ? model.format : format;
  const exts = MODEL_FORMATS[activeFormat].join(', ');

  const reset = () => {
    setFile(null);
    setName('');
    setClasses('');
    setInputSize('');
    setDescription('');
    setNotes('');
    setProblem(null);
  };
  const submit = () => {
    const r = uploadMetaOf(
      { fileName: file?.name ?? null, name, task, format, classes, inputSize, description, notes },
      model,
    );
    if ('problem' in r) {
      setProblem(t(`models.${r.problem}`, { file: file?.name ?? '', format: activeFormat, exts }));
      return;
    }
    startUpload(file!, 'model', r.meta);
    reset();
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={() => {
        reset();
        onClose();
      }}
      title={model ? t('models.newVersionTitle', { name: model.name }) : t('models.uploadTitle')}
    >
      <Stack gap="sm">
        <div>
          <Text component="label" htmlFor={fileId} size="sm" fw={500}>
            {t('models.file')}
          </Text>
          <input
            id={fileId}
            type="file"
            data-testid="models-upload-file"
            onChange={(e) => {
              const f = e.currentTarget.files?.[0] ?? null;
              setFile(f);
              setProblem(null);
              if (f && !model) {
                const guessed = formatOfFileName(f.name);
                if (guessed) setFormat(guessed);
                if (!name) setName(f.name.replace(/\.[^.]+$/, ''));
              }
            }}
            style={{ display: 'block', marginTop: 4 }}
          />
          <Text size="xs" c="dimmed">
            {t('models.fileHint', { format: activeFormat, exts })}
          </Text>
        </div>
        {!model && (
          <>
            <TextInput
              label={t('models.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              data-testid="models-upload-name"
              required
            />
            <NativeSelect
              label={t('models.task')}
              value={task}
              onChange={(e) => setTask(e.currentTarget.value)}
              data={[...MODEL_TASKS]}
              data-testid="models-upload-task"
            />
            <NativeSelect
              label={t('models.format')}
              value={format}
              onChange={(e) => setFormat(e.currentTarget.value as ModelFormat)}
              data={FORMATS}
              data-testid="models-upload-format"
            />
            <TextInput
              label={t('models.classes')}
              description={t('models.classesHint')}
              value={classes}
              onChange={(e) => setClasses(e.currentTarget.value)}
              data-testid="models-upload-classes"
            />
            <TextInput
              label={t('models.inputSize')}
              description={t('models.inputSizeHint')}
              value={inputSize}
              onChange={(e) => setInputSize(e.currentTarget.value)}
              data-testid="models-upload-input-size"
            />
            <Textarea
              label={t('models.description')}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              data-testid="models-upload-description"
            />
          </>
        )}
        <TextInput
          label={t('models.notes')}
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
          data-testid="models-upload-notes"
        />
        {problem && (
          <Text size="sm" c="red" role="alert" data-testid="models-upload-error">
            {problem}
          </Text>
        )}
        <Group justify="flex-end">
          <Button onClick={submit} data-testid="models-upload-submit">
            {t('models.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
