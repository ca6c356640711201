/**
 * The software feature's texts in English (§2 language 'en'), the complete set the other languages must give
 * (SoftwareTranslation). `flow.*` are the client update machine's texts (UPDATE_FLOW_TEXTS), incl. the §8
 * update failures "storage under 1GB" and "download error" worded for the user.
 */
export const en = {
  tab: 'Software',
  title: 'Software',
  intro: 'The client on {{device}}, its updates, and the stream engine and companion service it runs.',
  notConnected: 'Connect the device to check and update its software.',
  client: {
    title: 'Client',
    current: 'Client version',
    latest: 'Newest release',
    published: 'Published',
    size: 'Size',
    notes: 'Release notes',
    none: 'The server publishes no client release yet.',
    upToDate: 'The client is up to date.',
    available: 'Update available: version {{version}}',
    pending: 'Version {{version}} is installed and runs after the next restart.',
    check: 'Check for updates',
    update: 'Update to {{version}}',
    unknown: 'Not checked yet',
    inFlight: 'An update to version {{version}} is under way on the device: {{percent}} %.',
    refresh: 'Refresh the update status',
  },
  components: {
    title: 'Stream engine and companion service',
    streamEngine: 'Stream engine',
    companion: 'Companion service',
    checkStreamEngine: 'Check the stream engine for updates',
    checkCompanionUpdate: 'Check the companion service for updates',
    checkCompanionRestart: 'Check whether the companion service needs a restart',
    installed: 'Installed',
    latest: 'Newest known',
    running: 'Running',
    restartNeeded: 'Restart needed',
    status: 'Status',
    updateAvailable: 'Update available',
    upToDate: 'Up to date',
    notInstalled: 'Not installed',
    notChecked: 'Not checked yet.',
    yes: 'Yes',
    no: 'No',
  },
  update: {
    title: 'Client update',
    progressLabel: 'Download progress',
    steps: {
      checking: 'Checking the release and the free storage…',
      downloading: 'Downloading… {{done}} of {{total}}',
      installing: 'Verifying and installing…',
      awaitingRestartConfirm: 'Version {{version}} is installed. The client restarts 10 s after you confirm.',
      countdown: 'The client restarts in {{seconds}} s.',
      sending: 'Restarting the client…',
      waitingOffline: 'Restarting the client…',
      waitingOnline: 'Waiting for the device to come back…',
      verifying: 'Checking the new version…',
      done: 'The client now runs version {{version}}.',
      installed: 'Version {{version}} runs after the next restart.',
      failed: 'The update failed: {{error}}',
    },
    restart: 'Restart now',
    later: 'Later',
    cancel: 'Cancel the restart',
    dismiss: 'Dismiss',
  },
  flow: {
    notEnoughStorage: 'Not enough storage: the device has under 1GB free.',
    downloadError: 'Download error: the update could not be downloaded.',
    other: 'The update failed.',
    notOffline: 'The client did not restart.',
    notBack: 'The device did not come back online.',
    wrongVersion: 'The device came back with another version.',
    updated: 'The client is updated.',
  },
  checkFailed: 'The check failed: {{error}}',
};

export type SoftwareTexts = typeof en;
type Deep<T> = { [K in keyof T]: T[K] extends string ? string : Deep<T[K]> };
/** A language's texts: every key of English, any wording. */
export type SoftwareTranslation = Deep<SoftwareTexts>;
