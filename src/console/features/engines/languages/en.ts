/** The engines feature's texts in English (§2 'en'); the complete set. §5's text keeps the spec's wording. */
export const en = {
  title: 'Inference engines',
  intro:
    'The inference engines of your connected devices: their state, their images, the GPU driver, and the device the score chooses for a new job.',
  noDevice: 'No device is connected. Connect a device to see its engines.',
  connectDevices: 'Go to devices',
  scoresTitle: 'Device score',
  scoresHelp:
    'Score = 100 − (0.5 × GPU memory % + 0.3 × GPU utilisation + 0.2 × CPU %), from live usage. The device with the lowest score is chosen.',
  device: 'Device',
  score: 'Score',
  noScore: 'not read yet',
  chosen: 'Chosen by score',
  checking: 'Checking engines…',
  refresh: 'Check the engines of {{name}} again',
  engine: 'Engine',
  state: 'State',
  version: 'Version',
  details: 'Details',
  actions: 'Actions',
  kind: { jetson: 'Jetson', x86: 'x86' },
  backend: { host: 'this machine', sim: 'simulated device' },
  engineName: { sim: 'Simulated engine', onnxruntime: 'ONNX Runtime', deepstream: 'NVIDIA DeepStream' },
  states: {
    ready: 'Ready',
    not_installed: 'Not installed',
    downloading: 'Downloading',
    unavailable: 'Unavailable',
  },
  runsIn: { native: 'Runs natively', container: 'Runs from a container image', simulated: 'Simulated' },
  providers: 'Execution providers',
  providerUsed: 'runs on {{provider}}',
  providerMissing: 'not available',
  image: 'Image',
  size: '{{size}} MB download',
  download: 'Download image',
  downloadLabel: 'Download the {{engine}} image on {{device}}',
  downloading: 'Downloading the {{engine}} image: {{percent}} %',
  cancel: 'Cancel download',
  downloadFailed: 'The download failed: {{error}}',
  checkFailed: 'The engines could not be checked: {{error}}',
  retry: 'Check again',
  gpuDriver: 'GPU driver',
  driverVersion: '{{version}} ({{gpus}})',
  noDriver: 'No NVIDIA driver answers on this device.',
  x86Only: 'GPU Driver check is just for x86 devices.',
  driverError: 'The driver check failed: {{error}}',
  noGpu: 'No NVIDIA GPU on this device: DeepStream needs one.',
  logs: 'Logs',
  settings: 'Settings and engine restart',
};

export type EnginesTexts = typeof en;
/** A language's texts: every key of English, any wording. */
export type EnginesTranslation = {
  [K in keyof EnginesTexts]: EnginesTexts[K] extends string
    ? string
    : { [L in keyof EnginesTexts[K]]: string };
};
