/**
 * Mapping of emitted notices (machines/notifications/emitted.ts) to Mantine toasts (§2 "Toast
 * notifications use the fields title, message, variant"). Pure.
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
