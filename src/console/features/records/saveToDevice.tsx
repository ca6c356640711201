/**
 * Saving a camera cell's recording to a device (issue 16 §2 records: "the cells' VP8 recordings can be saved to
 * the device"): `saveRecordingToDevice` and the small `SaveToDeviceButton` the camera cell shows next to its
 * download link.
 */
import { Button, Progress, Text } from '@mantine/core';
import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { recordsApi, transferLogic } from './actors';
import './i18n';

/**
 * Saves `blob` as `fileName` (a RecordName: `[A-Za-z0-9 ._-]+.webm`) on the device; resolves with the saved
 * RecordItem; rejects with the device's coded error (exists, too_large, invalid_name…).
 */
export function saveRecordingToDevice(
  deviceId: string,
  blob: Blob,
  fileName: string,
  camera: string | null = null,
) {
  return recordsApi().upload(deviceId, fileName, blob, camera, () => undefined, new AbortController().signal);
}

/** A recording as the camera cell keeps it (RecordingFile: an object URL + file name), or a Blob. */
export interface SaveableRecording {
  blob?: Blob;
  /** Object URL of the recording (RecordingFile.url), read when no blob is given. */
  url?: string;
  fileName: string;
  camera?: string | null;
}

/** The file name a device accepts: unsafe characters → '_', '.webm' at the end. */
export function deviceFileName(name: string): string {
  const base = name
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9 ._-]/g, '_')
    .replace(/^[. ]+/, '')
    .slice(0, 100);
  return `${base || 'recording'}.webm`;
}

function Saver({
  deviceId,
  recording,
  blob,
}: {
  deviceId: string;
  recording: SaveableRecording;
  blob: Blob;
}) {
  const { t } = useTranslation();
  const [s, send] = useMachine(transferLogic(), {
    input: {
      deviceId,
      direction: 'upload',
      name: deviceFileName(recording.fileName),
      blob,
      camera: recording.camera ?? null,
    },
  });
  if (s.value === 'done') return <Text size="xs">{t('records.savedToDevice')}</Text>;
  if (s.value === 'failed')
    return (
      <Text size="xs" c="red" role="alert">
        {t('records.failed', { error: s.context.error })}
      </Text>
    );
  return (
    <Progress
      value={s.context.total ? (100 * s.context.done) / s.context.total : 0}
      aria-label={t('records.uploading', { name: recording.fileName })}
      onClick={() => send({ type: 'cancel' })}
    />
  );
}

/** "Save to device": uploads the recording to the device in chunks, then says so (or why not). */
export function SaveToDeviceButton({
  deviceId,
  recording,
}: {
  deviceId: string;
  recording: SaveableRecording | null;
}) {
  const { t } = useTranslation();
  const [blob, setBlob] = useState<Blob | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!recording) return null;
  if (blob) return <Saver deviceId={deviceId} recording={recording} blob={blob} />;
  const start = async () => {
    try {
      setBlob(recording.blob ?? (await (await fetch(recording.url!)).blob()));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  if (error)
    return (
      <Text size="xs" c="red" role="alert">
        {t('records.failed', { error })}
      </Text>
    );
  return (
    <Button size="xs" variant="light" data-testid="records-save-to-device" onClick={() => void start()}>
      {t('records.saveToDevice')}
    </Button>
  );
}
