/**
 * Mapping of emitted notices (machines/emitted.ts) to Mantine toasts (§2 "Toast notifications use the
 * fields title, message, variant"). Pure.
 */
import type { NoticeVariant } from '../../../machines/notifications/emitted';

/** Mantine colour of a notice variant. */
export function noticeColour(variant: NoticeVariant): string {
  switch (variant) {
    case 'success':
      return 'green';
    case 'info':
      return 'blue';
    case 'warning':
      return 'yellow';
    case 'danger':
      return 'red';
  }
}

/** A queued dialog of the generic dialog slot, with the actor that emitted it. */
export interface QueuedDialog {
  key: number;
  source: string;
  title: string;
  message: string;
}

/** Adds a dialog unless the same title and message are already queued (two actors may report one fact). */
export function enqueueDialog(queue: readonly QueuedDialog[], dialog: QueuedDialog): QueuedDialog[] {
  return queue.some((d) => d.title === dialog.title && d.message === dialog.message)
    ? [...queue]
    : [...queue, dialog];
}
