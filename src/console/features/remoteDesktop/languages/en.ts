/**
 * The remote desktop feature's texts in English (§2 language 'en'), the complete set the other languages
 * must give (RemoteDesktopTranslation).
 */
export const en = {
  tab: 'Remote desktop',
  title: 'Remote desktop',
  intro: 'See the screen of {{device}} and control it with your mouse and keyboard.',
  open: 'Open remote desktop',
  notConnected: 'Connect the device first: the remote desktop runs over its link.',
  dialogTitle: 'Remote desktop: {{device}}',
  screenLabel:
    'Remote screen of {{device}}. Click to control it; keys go to the device while it has the focus. Press Escape to release the keyboard.',
  connecting: 'Connecting to the desktop…',
  failed: 'The remote desktop stopped: {{error}}',
  retry: 'Try again',
  close: 'Close',
  fullScreen: 'Full screen',
  exitFullScreen: 'Leave full screen',
  keyboardCaptured: 'Keyboard goes to the device. Press Escape to release it.',
  keyboardReleased: 'Click the screen to control it.',
  windows: 'Open windows',
  noWindows: 'No windows are open.',
  closeWindow: 'Close window {{title}}',
  focused: 'focused',
  untitled: '(untitled)',
  stats: 'Frame rate {{fps}} fps · Resolution {{resolution}} · Round trip {{rtt}} ms',
  backend: { x11: 'Display of the device (X11)', sim: 'Simulated desktop' },
  inputFailed: 'Input not delivered: {{error}}',
  windowsFailed: 'Window list: {{error}}',
};

export type RemoteDesktopTexts = typeof en;

/** A translation: every key of English, with text values. */
type Translation<T> = { [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };
export type RemoteDesktopTranslation = Translation<RemoteDesktopTexts>;
