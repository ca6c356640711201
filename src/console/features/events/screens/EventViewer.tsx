/**
 * One event in a dialog (issue 11 "jump to the snapshot/clip"): the snapshot (the detection's box drawn by the
 * device), the clip when there is one, its facts, and Mark reviewed / unreviewed.
 * Test ids: event-viewer, event-snapshot, event-clip, event-review.
 */
import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import type { EventView } from '../../../../protocol/events';

export function EventViewer(props: { event: EventView; actor: AnyActorRef; time: (iso: string) => string }) {
  const { t } = useTranslation();
  const e = props.event;
  const close = () => props.actor.send({ type: 'event.close' });
  return (
    <Modal
      opened
      onClose={close}
      title={t('events.viewerTitle', { alarm: e.alarm_name ?? t('events.noAlarm') })}
      size="xl"
    >
      <Stack data-testid="event-viewer" data-reviewed={e.reviewed}>
        {e.snapshot_url ? (
          <img
            src={e.snapshot_url}
            alt={t('events.snapshotAlt', { class: e.class, time: props.time(e.at) })}
            style={{ width: '100%', borderRadius: 4 }}
            data-testid="event-snapshot"
          />
        ) : (
          <Text>{t('events.noSnapshot')}</Text>
        )}
        {e.clip_url ? (
          <video
            src={e.clip_url}
            controls
            muted
            style={{ width: '100%' }}
            data-testid="event-clip"
            aria-label={t('events.clip')}
          />
        ) : null}
        <Group gap="xs">
          <Badge variant="light">{e.class}</Badge>
          <Text size="sm">{t('events.scoreValue', { score: Math.round(e.score * 100) })}</Text>
          <Text size="sm">{props.time(e.at)}</Text>
          <Text size="sm">
            {e.device_label ?? ''} · {e.camera_id}
          </Text>
          {e.identity ? <Badge variant="outline">{e.identity}</Badge> : null}
        </Group>
        <Group justify="flex-end">
          <Button
            onClick={() => props.actor.send({ type: 'review.one', id: e.id, reviewed: !e.reviewed })}
            data-testid="event-review"
          >
            {e.reviewed ? t('events.markUnreviewed') : t('events.markReviewed')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
