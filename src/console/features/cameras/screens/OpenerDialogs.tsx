/**
 * The dialogs of the opening flow (machines/cameras/opener.machine.ts, the grid's invoked opener): §2 camera chooser
 * (photos, one per device that has the physical camera), §2 §8 "Camera Conflict" (kill the other
 * processes → result true/false → open), quota refusal (§4 "A stream quota is available or not"), and the
 * §3 resolution choice ("format Resolution: WxH FPS: n"). Each renders one step of `openerToView` and sends
 * its events to the opener; closing a dialog sends `opener.cancel`.
 */
import { Button, Card, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { resolutionLabel } from '../../../../protocol/commands';
import { useOpenerRef, useOpenerView, type OpenerView } from '../selectors';

export function OpenerDialogs() {
  const view = useOpenerView();
  switch (view.step) {
    case 'choosingCamera':
      return <ChooserDialog view={view} />;
    case 'refused':
      return <RefusedDialog view={view} />;
    case 'conflict':
    case 'killing':
    case 'killed':
      return <ConflictDialog view={view} step={view.step} />;
    case 'choosingResolution':
      return <ResolutionDialog view={view} />;
    default:
      return null;
  }
}

/** Sends an event to the opener. */
function useOpenerSend() {
  const opener = useOpenerRef();
  return (event: Parameters<NonNullable<typeof opener>['send']>[0]) => opener?.send(event);
}

function useCancel() {
  const send = useOpenerSend();
  return () => send({ type: 'opener.cancel' });
}

/** §2 camera chooser dialog with photos. */
function ChooserDialog({ view: { candidates, photos } }: { view: OpenerView }) {
  const { t } = useTranslation();
  const send = useOpenerSend();
  const cancel = useCancel();
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
                onClick={() => send({ type: 'opener.pick', deviceId: c.deviceId })}
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
function RefusedDialog({ view: { refusal } }: { view: OpenerView }) {
  const { t } = useTranslation();
  const send = useOpenerSend();
  const dismiss = () => send({ type: 'opener.dismiss' });
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
function ConflictDialog({ view, step }: { view: OpenerView; step: 'conflict' | 'killing' | 'killed' }) {
  const { t } = useTranslation();
  const send = useOpenerSend();
  const cancel = useCancel();
  const count = view.inUseBy;
  const result = view.killResult;
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
            <Button onClick={() => send({ type: 'opener.continue' })} data-testid="camera-conflict-continue">
              {t('cameras.continue')}
            </Button>
          ) : (
            <Button
              color="red"
              loading={step === 'killing'}
              onClick={() => send({ type: 'opener.kill' })}
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
function ResolutionDialog({ view: { resolutions: options } }: { view: OpenerView }) {
  const { t } = useTranslation();
  const send = useOpenerSend();
  const cancel = useCancel();
  return (
    <Modal opened onClose={cancel} title={t('cameras.resolutionTitle')} data-testid="resolution-dialog">
      <Stack gap="xs">
        {options.map((r, i) => (
          <Button
            key={`${resolutionLabel(r)}-${i}`}
            variant="light"
            justify="flex-start"
            onClick={() => send({ type: 'opener.resolution', resolution: r })}
            data-testid={`resolution-option-${i}`}
          >
            {resolutionLabel(r)}
          </Button>
        ))}
        <Button
          variant="default"
          onClick={() => send({ type: 'opener.resolution', resolution: null })}
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
