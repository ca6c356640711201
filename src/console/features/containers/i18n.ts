/**
 * Every interface text of the containers feature, in the six languages of §2 (en, ch, es, jp, de, fr),
 * registered under the `containers` key of i18next's `translation` namespace when the feature's screens load
 * (so the shared src/console/i18n files and the first chunk do not grow). §8 texts keep their English
 * wording in en (`texts.*`, the contract's CONTAINER_TEXTS). Other languages: languages/<lang>.ts, each giving
 * every key (the type checks it).
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export const en = {
  title: 'Containers',
  caption: 'Containers on connected devices',
  refresh: 'Refresh',
  filterDevice: 'Device',
  filterState: 'State',
  all: 'All',
  yes: 'Yes',
  no: 'No',
  none: '–',
  columns: {
    id: 'Id',
    name: 'Name',
    status: 'Status',
    state: 'State',
    jupyter: 'Jupyter',
    localPort: 'Local port',
    device: 'Device',
    environment: 'Environment',
    image: 'Image',
    actions: 'Actions',
  },
  empty: 'No containers match the filter.',
  noDevice: 'No device is connected. Connect a device to see its containers.',
  connectDevices: 'Go to the devices',
  loadFailed: 'The containers of {{device}} could not be read: {{error}}',
  start: 'Start',
  stop: 'Stop',
  remove: 'Remove',
  openJupyter: 'Open Jupyter',
  startJupyter: 'Start Jupyter',
  logs: 'Logs',
  details: 'Details',
  rowAction: '{{action}} container {{name}}',
  confirmRemoveTitle: 'Remove container',
  confirmRemoveText: 'Remove container {{name}} from {{device}}? It is stopped first when it runs.',
  cancel: 'Cancel',
  close: 'Close',
  dismiss: 'Dismiss',
  logsTitle: 'Log of {{name}}',
  logsEmpty: 'The log is empty.',
  logsLoading: 'Reading the log…',
  logsFailed: 'The log could not be read: {{error}}',
  actionNames: { create: 'Create', start: 'Start', stop: 'Stop', remove: 'Remove', download: 'Download' },
  steps: {
    checking: 'Checking the image',
    offer: 'Waiting for your answer',
    downloading: 'Downloading the image',
    canceling: 'Canceling the download',
    creating: 'Creating the container',
    running: 'Working',
    jupyter: 'Starting Jupyter',
    following: 'Running on the device',
    succeeded: 'Done',
    failed: 'Failed',
    canceled: 'Canceled',
  },
  progressLabel: '{{action}} {{env}} on {{device}}',
  percent: '{{percent}} %',
  texts: {
    envNotFound: 'Environment not found',
    ongoingProcess: 'Ongoing Process',
    imageCheckFailed: 'Image check failed',
    unknownAction: 'Unknown action',
    actionFailed: 'Container action failed',
    unexpectedResponse: 'Unexpected response',
    unknownDockerAction: 'Unknown Docker Action',
    actionHasFailed: 'Container action has been failed',
  },
  offerText: 'The image {{image}} is not on {{device}}. Download it now?',
  offerSize: 'Download size: {{size}} MB',
  offerSizeUnknown: 'Download size: unknown',
  download: 'Download',
  downloadAgain: 'Download again',
  downloadFailed: 'The download failed: {{error}}',
  envTitle: 'Environments',
  envIntro: 'Deep-learning environments you can run as containers on your devices.',
  envEmpty: 'The catalogue is empty.',
  envLoadFailed: 'The environments could not be loaded.',
  retry: 'Retry',
  image: 'Image',
  tags: 'Tags',
  jupyterBadge: 'Jupyter',
  gpuBadge: 'GPU',
  openEnvironment: 'Open {{name}}',
  allEnvironments: 'All environments',
  versions: 'Versions',
  tag: 'Tag',
  platform: 'Platform',
  size: 'Size',
  sizeMb: '{{size}} MB',
  platforms: { jetson: 'Jetson', x86: 'x86', any: 'Jetson and x86' },
  runningOn: 'On connected devices',
  noneRunning: 'No connected device has a container of this environment.',
  createTitle: 'Create on a device',
  device: 'Device',
  version: 'Version',
  withJupyter: 'Start Jupyter',
  withGpu: 'Use the GPU',
  create: 'Create',
  noFittingDevice: 'No connected device fits this version.',
  notFound: 'There is no environment called {{alias}}.',
  loading: 'Loading…',
  detailsTitle: 'Container {{id}}',
  notOnDevice: 'No connected device has the container {{id}}.',
  publicNote: 'Sign in to run this environment on your devices.',
  signIn: 'Sign in',
  admin: {
    title: 'Dockers',
    caption: 'Environments in the catalogue',
    add: 'Add environment',
    edit: 'Edit',
    delete: 'Delete',
    editAria: 'Edit {{name}}',
    deleteAria: 'Delete {{name}}',
    confirmDeleteTitle: 'Delete environment',
    confirmDeleteText: 'Delete {{name}} from the catalogue? Containers on devices keep running.',
    addTitle: 'Add environment',
    editTitle: 'Edit environment',
    alias: 'Alias',
    aliasHint: 'Lower-case letters, digits and "-"; used in the address.',
    name: 'Name',
    description: 'Description',
    image: 'Image repository',
    imageHint: 'Without a tag, e.g. nvcr.io/nvidia/l4t-pytorch',
    jupyter: 'Serves Jupyter',
    jupyterPort: 'Jupyter port',
    gpu: 'Uses the GPU',
    public: 'Public (readable signed out)',
    tags: 'Tags',
    tag: 'Tag',
    platform: 'Platform',
    sizeMb: 'Size (MB)',
    addTag: 'Add a tag',
    removeTag: 'Remove tag {{tag}}',
    save: 'Save',
    saving: 'Saving…',
    publicColumn: 'Public',
  },
};

export type ContainersTexts = typeof en;
/** Every key of `en`, nested objects included (the other languages must give all of them). */
export type ContainersTranslation = {
  [K in keyof ContainersTexts]: ContainersTexts[K] extends string
    ? string
    : { [J in keyof ContainersTexts[K]]: string };
};

let registered = false;

/** Adds the feature's texts (`containers.*`) in the six languages to the console's i18next, once. */
export function registerContainersTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('containers', { en, ch, es, jp, de, fr });
}

registerContainersTexts();
