/**
 * The power feature's texts in English (§2 language 'en'), the complete set the other languages must give
 * (PowerTranslation). §5/§8 texts keep the spec's wording (`texts.*`, the contract's POWER_TEXTS); `flow.*`
 * are the machine's own (POWER_FLOW_TEXTS).
 */
export const en = {
  tab: 'Power',
  title: 'Power',
  intro:
    'Reboot or shut down {{device}}, or restart its client. Reboot and shut-down need sudo rights on the device.',
  notConnected: 'Connect the device to use its power actions.',
  actions: {
    reboot: 'Reboot',
    shutdown: 'Shut down',
    forceShutdown: 'Force shut down',
    restartClient: 'Restart client',
  },
  confirmTitle: {
    reboot: 'Reboot the device?',
    shutdown: 'Shut down the device?',
    forceShutdown: 'Force shut down the device?',
    restartClient: 'Restart the client?',
  },
  confirmText: {
    reboot: '{{device}} restarts and is offline for a while.',
    shutdown: '{{device}} shuts down and stays off until it is powered on again.',
    forceShutdown:
      '{{device}} is switched off at once, without closing its programs, and stays off until it is powered on again.',
    restartClient: 'The client on {{device}} restarts 10 s after you confirm.',
  },
  confirm: 'Confirm',
  cancel: 'Cancel',
  sudo: {
    title: 'Sudo password',
    intro: 'Enter the sudo password of {{device}}.',
    password: 'Password',
    save: 'Save the password on the device (encrypted)',
    submit: 'Continue',
  },
  steps: {
    confirming: 'Waiting for confirmation…',
    restartDelay: 'The client restarts in 10 s…',
    checking: 'Checking sudo…',
    askingSudo: 'Waiting for the sudo password…',
    sending: 'Sending…',
    waitingOffline: 'Waiting for the device to go offline…',
    waitingOnline: 'Offline: waiting for the device to come back online…',
    waitingPoweredOn: 'Shut down: waiting until it is powered on again…',
    done: 'Done: the device is back online.',
    failed: 'Failed: {{error}}',
    cancelled: 'Cancelled.',
  },
  dismiss: 'Close',
  saved: {
    label: 'Saved sudo password',
    yes: 'Yes',
    no: 'No',
    notNeeded: 'Not needed (the client runs as root)',
    unknown: 'Reading…',
    remove: 'Remove',
    removeLabel: 'Remove the saved sudo password',
    failed: 'It could not be read: {{error}}',
  },
  texts: {
    emptyPassword: 'Password field can not be empty',
    invalidPassword: 'Invalid Password.',
    sudoRequired: 'Sudo privileged is required',
    forceFailed: 'Unable to force shut down the device',
    success: 'Success',
    mayTakeMinutes: 'The device may take a few minutes.',
    shutdownSuccessful: 'Shutdown Successful',
  },
  flow: {
    backOnline: 'The device is back online',
    notOffline: 'The device did not go offline',
    notBack: 'The device did not come back online',
    failed: 'The power action failed',
  },
};

export type PowerTexts = typeof en;
/** A language's texts: every key of English, any wording. */
export type PowerTranslation = {
  [K in keyof PowerTexts]: PowerTexts[K] extends string ? string : { [L in keyof PowerTexts[K]]: string };
};
