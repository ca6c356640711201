/**
 * The dialogs of the opening flow (machines/cameraGrid.machine.ts, region `opener`): §2 camera chooser
 * (photos, one per device that has the physical camera), §2 §8 "Camera Conflict" (kill the other
 * processes → result true/false → open), quota refusal (§4 "A stream quota is available or not"), and the
 * §3 resolution choice ("format Resolution: WxH FPS: n"). Each renders one opener state and sends its
 * events; closing a dialog sends `opener.cancel`.
 */
import { Button, Card, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { shallowEqual } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { resolutionLabel } from '../../../../protocol/commands';
import { useOpenerStep, useStreamsRef, useStreamsSelector } from '../selectors';

export function OpenerDialogs() {
  const step = useOpenerStep();
  switch (step) {
    case 'choosingCamera':
      return <ChooserDialog />;
    case 'refused':
      return <RefusedDialog />;
    case 'conflict':
    case 'killing':
    case 'killed':
      return <ConflictDialog step={step} />;
    case 'choosingResolution':
      return <ResolutionDialog />;
    default:
      return null;
  }
}

function useCancel() {
  const streams = useStreamsRef();
  return () => streams.send({ type: 'opener.cancel' });
}

/** §2 camera chooser dialog with photos. */
function ChooserDialog() {
  const { t } = useTranslation();
  const streams = useStreamsRef();
  const cancel = useCancel();
  const candidates = useStreamsSelector((s) => s.context.candidates, shallowEqual);
  const photos = useStreamsSelector((s) => s.context.photos);
  return (
    <Modal opened onClose={cancel} title={t('cameras.chooserTitle')} size="lg" data-testid="camera-chooser">
      <Text size="sm" mb="sm">
        {t('cameras.chooserText')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: Math.min(3, candidates.length) }}>
        {candidates.map((c) => {
          const photo = photos[c.deviceId];
          return (
            <Card
              key={c.deviceId}
              withBorder
              padding="xs"
              data-testid={`camera-chooser-option-${c.deviceId}`}
            >
              {photo ? (
                <img className="chooser-photo" src={photo} alt={`${c.camera.label} — ${c.deviceLabel}`} />
              ) : (
                <div className="chooser-photo" role="img" aria-label={t('cameras.noPhoto')} />
              )}
              <Text size="sm" fw={600} mt={4}>
                {c.deviceLabel}
              </Text>
              <Text size="xs" c="dimmed">
                {c.camera.label || c.camera.name}
              </Text>
              <Button
                mt="xs"
                size="xs"
                onClick={() => streams.send({ type: 'opener.pick', deviceId: c.deviceId })}
                data-testid={`camera-chooser-pick-${c.deviceId}`}
              >
                {t('cameras.open')}
              </Button>
            </Card>
          );
        })}
      </SimpleGrid>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={cancel} data-testid="camera-chooser-cancel">
          {t('cameras.cancel')}
        </Button>
      </Group>
    </Modal>
  );
}

/** Quota refused: nothing opened. */
function RefusedDialog() {
  const { t } = useTranslation();
  const streams = useStreamsRef();
  const refusal = useStreamsSelector((s) => s.context.refusal);
  const dismiss = () => streams.send({ type: 'opener.dismiss' });
  return (
    <Modal opened onClose={dismiss} title={t('cameras.refusedTitle')} data-testid="stream-quota-dialog">
      <Text data-testid="stream-quota-message">{refusal}</Text>
      <Group justify="flex-end" mt="md">
        <Button onClick={dismiss} data-testid="stream-quota-ok">
          {t('cameras.ok')}
        </Button>
      </Group>
    </Modal>
  );
}

/** §2 §8 "Camera Conflict": offer to kill the other processes; show the result; then open. */
function ConflictDialog({ step }: { step: 'conflict' | 'killing' | 'killed' }) {
  const { t } = useTranslation();
  const streams = useStreamsRef();
  const cancel = useCancel();
  const count = useStreamsSelector((s) => s.context.usage.length);
  const result = useStreamsSelector((s) => s.context.killResult);
  return (
    <Modal opened onClose={cancel} title={t('cameras.conflictTitle')} data-testid="camera-conflict">
      <Stack gap="sm">
        <Text>{t('cameras.conflictText', { count })}</Text>
        {step === 'killed' && (
          <Text fw={600} c={result ? 'green' : 'red'} data-testid="camera-conflict-result">
            {t('cameras.killResult', { result: String(result) })}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={cancel} data-testid="camera-conflict-cancel">
            {t('cameras.cancel')}
          </Button>
          {step === 'killed' ? (
            <Button
              onClick={() => streams.send({ type: 'opener.continue' })}
              data-testid="camera-conflict-continue"
            >
              {t('cameras.continue')}
            </Button>
          ) : (
            <Button
              color="red"
              loading={step === 'killing'}
              onClick={() => streams.send({ type: 'opener.kill' })}
              data-testid="camera-conflict-kill"
            >
              {t('cameras.kill')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/** §3 supported resolutions, labelled "format Resolution: WxH FPS: n". */
function ResolutionDialog() {
  const { t } = useTranslation();
  const streams = useStreamsRef();
  const cancel = useCancel();
  const options = useStreamsSelector((s) => s.context.resolutions, shallowEqual);
  return (
    <Modal opened onClose={cancel} title={t('cameras.resolutionTitle')} data-testid="resolution-dialog">
      <Stack gap="xs">
        {options.map((r, i) => (
          <Button
            key={`${resolutionLabel(r)}-${i}`}
            variant="light"
            justify="flex-start"
            onClick={() => streams.send({ type: 'opener.resolution', resolution: r })}
            data-testid={`resolution-option-${i}`}
          >
            {resolutionLabel(r)}
          </Button>
        ))}
        <Button
          variant="default"
          onClick={() => streams.send({ type: 'opener.resolution', resolution: null })}
          data-testid="resolution-default"
        >
          {t('cameras.defaultResolution')}
        </Button>
        <Button variant="subtle" onClick={cancel} data-testid="resolution-cancel">
          {t('cameras.cancel')}
        </Button>
      </Stack>
    </Modal>
  );
}
