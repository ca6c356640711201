/**
 * Outward notices every long-lived machine `emit`s (ARCHITECTURE "Console state": toasts and dialogs are
 * emitted, views subscribe with `ref.on('notice' | 'dialog', handler)`).
 * §2 "Toast notifications use the fields title, message, variant"; §2 root shell "a generic dialog".
 */

/** Toast colour: success (green), info (blue), warning (yellow), danger (red). */
export type NoticeVariant = 'success' | 'info' | 'warning' | 'danger';

/** A translated text: an i18n key of the console's texts and the values it interpolates. */
export interface NoticeText {
  key: string;
  values?: Record<string, string | number>;
}

/** Keys of a toast's title and message in the six languages; `title`/`message` stay the English fallback. */
export interface NoticeI18n {
  title?: NoticeText;
  message?: NoticeText;
}

/** A toast (§2): shown as a Mantine notification. */
export interface NoticeEmitted {
  type: 'notice';
  title: string;
  message: string;
  variant: NoticeVariant;
  /** When given, the toast shows these texts in the user's language. */
  i18n?: NoticeI18n;
}

/** A modal dialog in the root shell's generic dialog slot (§2), e.g. "Device is not reachable" (§8). */
export interface DialogEmitted {
  type: 'dialog';
  title: string;
  message: string;
}

/** Everything a console machine may emit. */
export type ConsoleEmitted = NoticeEmitted | DialogEmitted;

/** Error text of a rejected actor: the Error's message, else the given fallback (a §8 text). */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}
