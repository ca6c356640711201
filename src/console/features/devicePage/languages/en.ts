/**
 * The device page's texts in English (§2 language 'en'), the complete set the other languages must give
 * (DevicePageTranslation). §5/§8 texts keep the spec's wording.
 */
export const en = {
  back: 'All devices',
  loading: 'Loading the device…',
  notFound: 'No device {{id}} among your devices.',
  loadFailed: 'The device could not be loaded: {{error}}',
  reload: 'Try again',
  tabs: 'Device sections',
  overview: 'Overview',
  tabMetrics: 'Metrics',
  tabLogs: 'Logs',
  tabSettings: 'Settings',
  tabStorage: 'Storage',
  tabSoftware: 'Software',
  tabPower: 'Power',
  online: 'Online',
  offline: 'Offline',
  presenceUnknown: 'Presence unknown',
  presenceHint: 'Signalling presence, checked every 30 s',
  facts: 'Device',
  gpuTitle: 'GPU driver',
  gpuCheck: 'Check GPU driver',
  gpuChecking: 'Checking…',
  gpuVersion: 'Driver {{version}}',
  gpuNone: 'No NVIDIA driver answers on this device.',
  gpuNeedsLink: 'Connect the device to check its GPU driver.',
  gpus: 'GPUs: {{names}}',
  tokenTitle: 'Device token',
  tokenHint:
    'A new token replaces the current one: the device stops working until the new token is installed on it.',
  tokenGenerate: 'Generate device token',
  tokenConfirmTitle: 'Generate a new device token?',
  tokenConfirm: 'Generate',
  tokenGenerated: 'Generated!',
  tokenOnce: 'It is shown only once. Copy it now.',
  tokenCopied: 'New token is copied to clipboard.',
  tokenCopy: 'Copy token',
  tokenCopyFailed: 'The clipboard refused the token; select it and copy it by hand.',
  tokenDone: 'Done',
  dangerTitle: 'Delete device',
  deleteHint: 'The device, its token and its signalling session are removed from your account.',
  delete: 'Delete device',
  deleteConfirmTitle: 'Delete {{label}}?',
  deleteConfirm: 'Delete',
  cancel: 'Cancel',
  deleted: 'The device {{label}} was deleted.',
};

export type DevicePageTexts = typeof en;
export type DevicePageTranslation = { [K in keyof DevicePageTexts]: string };
