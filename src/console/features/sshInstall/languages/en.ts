/**
 * The SSH install feature's texts in English (§2 language 'en'), the complete set the other languages must give
 * (SshInstallTranslation). `texts.*` are the §8 SSH texts and the §2 unload warning, word for word.
 */
export const en = {
  add: 'Add device over SSH',
  title: 'Add a device over SSH',
  intro:
    'The console connects to the machine over SSH, checks it, installs the device client in the user’s space as a service, registers a new device token and starts it.',
  form: {
    label: 'Device name',
    hostname: 'Host name or IP address',
    port: 'SSH port',
    username: 'Username',
    method: 'Sign in with',
    password: 'Password',
    key: 'Private key',
    pemFile: 'Private key file (PEM or OpenSSH)',
    passphrase: 'Key passphrase (if any)',
    connect: 'Connect',
    required: 'Required',
    credentialsNote: 'The password or key is kept in memory for this session only; it is never stored.',
  },
  status: {
    idle: 'Not connected',
    connecting: 'Connecting…',
    connected: 'Connected',
    installing: 'Installing',
    finished: 'Finished',
  },
  hostKey: 'Host key {{fingerprint}} ({{type}})',
  hostKeyPinned: 'pinned now (first connection)',
  hostKeyMatches: 'matches the pinned key',
  forgetHostKey: 'Forget the pinned host key',
  install: 'Install',
  disconnect: 'Disconnect',
  cancel: 'Cancel installation',
  retry: 'Retry from this step',
  openDevice: 'Open the device',
  another: 'Add another device',
  showOutput: 'Output',
  noOutput: 'No output yet.',
  elapsed: '{{seconds}} s',
  errorCode: 'Error {{code}}',
  groups: {
    requirements: 'Requirements',
    download: 'Downloading and Installing',
    registration: 'Registration procedures',
  },
  steps: {
    'check-gpu': 'GPU check',
    'check-docker': 'Docker check',
    'install-docker': 'Docker install',
    'check-docker-privileged': 'Docker privileged settings',
    'install-requirements': 'Install requirements',
    'download-client': 'Download',
    'install-client': 'Install',
    'register-token': 'Register token',
    'restart-device': 'Restart device',
    'start-client': 'Start the client',
  },
  stepStatus: {
    pending: 'Waiting',
    running: 'Running',
    ok: 'Done',
    failed: 'Failed',
    skipped: 'Skipped',
    canceled: 'Canceled',
  },
  groupOk: 'All steps succeeded',
  groupFailed: 'A step failed',
  restart: {
    title: 'Restart {{device}}?',
    message:
      'Docker was installed or the user joined the docker group: the device needs a restart for it to take effect. The client starts by itself after the restart.',
    confirm: 'Restart now',
    decline: 'Not now',
  },
  done: 'Installation finished. {{device}} registers with the console by itself.',
  canceledNote: 'The installation was canceled.',
  texts: {
    serverTrouble: 'SSH connection has been failed. Server got itself in trouble.',
    connectFailed: 'SSH connection has been failed.',
    connected: 'Successfully connected via SSH',
    disconnected: 'Disconnected.',
    installFailed: 'Installation to {{device}} has failed',
    installSucceeded: 'Installation successful',
    unloadWarning: 'SSH installing process is running. Would you like to continue?',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
/** The shape every language gives. */
export type SshInstallTranslation = Widen<typeof en>;
export type SshInstallTexts = typeof en;
