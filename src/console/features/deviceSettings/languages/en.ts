/**
 * The deviceSettings feature's texts in English (§2 language 'en'), the complete set the other languages must
 * give (DeviceSettingsTranslation). `texts.*` are the device's refusals in the contract's English words
 * (SETTINGS_TEXTS), so a known refusal is shown in the interface language.
 */
import { METRIC_ALERT_TEXTS } from '../../../../../machines/deviceSettings/metricAlertTexts';

export const en = {
  tab: 'Settings',
  title: 'Device settings',
  notConnected: 'The device is not connected. Connect it on the devices page to see and change its settings.',
  goToDevices: 'Go to the devices',
  sections: {
    'general-settings-info': 'General',
    'alert-metrics-settings-info': 'Metric alerts',
    'client-engine-info': 'Client engine',
    'system-check-settings-info': 'System checks',
  },
  fields: {
    startAtBoot: 'Start the client when the device boots',
    connectionAlertEnabled: 'Alert when the connection is lost',
    connectionAlertDelayS: 'Alert after (s)',
    enabled: 'Check the metrics and alert',
    intervalS: 'Check every (s)',
    cpuPercent: 'CPU use threshold (%)',
    gpuPercent: 'GPU use threshold (%)',
    memoryPercent: 'Memory use threshold (%)',
    temperatureC: 'Temperature threshold (°C)',
    clientLogLevel: 'Client log level',
    clientLogRetentionDays: 'Keep client logs (days)',
    streamLogLevel: 'Stream engine log level',
    streamLogRetentionDays: 'Keep stream engine logs (days)',
    jetsonPowerMode: 'Jetson power mode (nvpmodel)',
    jetsonClocks: 'Maximum clocks (jetson_clocks)',
    dns: 'Check DNS',
    time: 'Check the time',
    ip: 'Check the IP address',
  },
  levels: { debug: 'Debug', info: 'Info', warn: 'Warning', error: 'Error' },
  errors: {
    required: 'Enter a value.',
    integer: 'Enter a whole number.',
    range: 'Enter a number from {{min}} to {{max}}.',
    choice: 'Choose one of the options.',
    url: 'Enter an http:// or https:// address.',
  },
  facts: {
    homePath: 'Home path',
    clientVersion: 'Client version',
    kind: 'Device kind',
    engineRestartedAt: 'Client engine restarted',
    never: 'Not since the client started',
    cie: 'CIE',
    cieNone: 'Not connected',
    jetsonOnly: 'The Jetson service is just for Jetson devices.',
  },
  kinds: { jetson: 'Jetson', x86: 'x86' },
  save: 'Save',
  reset: 'Reset',
  saving: 'Saving…',
  loading: 'Reading the settings…',
  saved: 'Saved. The device reports the new values.',
  refusedTitle: 'The device refused the change',
  loadFailedTitle: 'The settings could not be read',
  retry: 'Try again',
  invalidNote: 'Correct the marked fields before saving.',
  actions: {
    title: 'Client',
    restartEngine: 'Restart client engine',
    restartFrp: 'Restart FRP client',
    refresh: 'Force refresh',
    connectCie: 'Connect CIE',
  },
  confirm: {
    restartEngine: 'Restart the client engine of {{device}}? It reads its settings again.',
    restartFrp: 'Restart the FRP client of {{device}}? Remote access through it stops for a moment.',
    refresh: 'Read the settings of {{device}} again from its disk?',
    connectCie: 'Connect {{device}} to the CIE at this address.',
  },
  done: {
    restartEngine: 'The client engine restarted.',
    restartFrp: 'The FRP client restarted.',
    refresh: 'The settings were read again.',
    connectCie: 'The device is connected to the CIE.',
  },
  cieUrl: 'CIE address',
  confirmButton: 'Confirm',
  cancel: 'Cancel',
  running: 'Working…',
  actionFailed: '{{action}} failed',
  dismiss: 'Dismiss',
  metricAlert: { ...METRIC_ALERT_TEXTS },
  texts: {
    jetsonOnly: 'The Jetson service is just for Jetson devices',
    noStartupUnit:
      'This device has no systemd unit for the client, so starting at boot cannot be changed here',
    noSystemctl: 'This device has no systemctl, so starting at boot cannot be read or changed',
    noFrpClient: 'This device has no FRP client service (frpc) to restart',
  },
};

export type DeviceSettingsTexts = typeof en;
/** Every key of `en`, nested objects included (the other languages must give all of them). */
export type DeviceSettingsTranslation = {
  [K in keyof DeviceSettingsTexts]: DeviceSettingsTexts[K] extends string
    ? string
    : { [J in keyof DeviceSettingsTexts[K]]: string };
};
