/** The records feature's texts in English (§2 'en'); the complete set. §8 texts keep the spec's wording. */
export const en = {
  title: 'Records',
  intro: 'Recordings (WebM, VP8) kept on your devices: play, download, remove, or upload one.',
  device: 'Device',
  notConnected: '{{name}} — not connected',
  noDevice: 'No device is connected. Connect a device to see its recordings.',
  connectDevices: 'Go to devices',
  offline: 'This device is not connected.',
  loading: 'Loading recordings…',
  empty: 'No recordings on this device yet.',
  count: '{{count}} recordings',
  name: 'Name',
  camera: 'Camera',
  size: 'Size',
  date: 'Date',
  actions: 'Actions',
  play: 'Play {{name}}',
  download: 'Download {{name}}',
  remove: 'Remove {{name}}',
  removeTitle: 'Remove recording?',
  removeConfirm: 'Remove {{name}} from the device? This cannot be undone.',
  confirm: 'Remove',
  cancel: 'Cancel',
  refresh: 'Refresh',
  upload: 'Upload recording (.webm)',
  uploading: 'Uploading {{name}}',
  downloading: 'Reading {{name}} from the device',
  progress: '{{percent}} %',
  cancelTransfer: 'Cancel',
  retry: 'Retry',
  failed: 'Transfer failed: {{error}}',
  player: 'Playing {{name}}',
  close: 'Close',
  saveToDevice: 'Save to device',
  savedToDevice: 'Saved to the device',
  badFile: 'Choose a .webm file',
  texts: {
    notConnectedForRemoval: 'device does not exist or not connected for removal',
  },
};

export type RecordsTexts = typeof en;
/** A language's texts: every key of English, any wording. */
export type RecordsTranslation = {
  [K in keyof RecordsTexts]: RecordsTexts[K] extends string
    ? string
    : { [L in keyof RecordsTexts[K]]: string };
};
