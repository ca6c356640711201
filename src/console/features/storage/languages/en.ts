/**
 * The storage feature's texts in English (§2 language 'en'), the complete set the other languages must give
 * (StorageTranslation). Interpolations: {{…}} (i18next).
 */
export const en = {
  tab: 'Storage',
  title: 'Storage',
  refresh: 'Refresh',
  loading: 'Reading the device’s storage…',
  loadFailed: 'The storage of the device could not be read: {{error}}',
  retry: 'Try again',
  filesystems: {
    title: 'Disks',
    caption: 'Filesystems of the device',
    mount: 'Mounted on',
    device: 'Device',
    type: 'Type',
    usage: 'Usage',
    size: 'Size',
    free: 'Free',
    used: '{{used}} of {{size}} used ({{percent}} %)',
    usedLabel: 'Used space on {{mount}}',
    total: 'Total',
    empty: 'The device reports no disks.',
  },
  scan: {
    title: 'Scan a folder',
    intro: 'Find what takes the space in a folder of the device. Large folders take a while.',
    path: 'Folder',
    pathHint: 'An absolute path, e.g. / or /var/lib',
    pathInvalid: 'Use an absolute path (starting with “/”).',
    start: 'Scan',
    cancel: 'Cancel',
    cancelLabel: 'Cancel the scan of {{path}}',
    remove: 'Scan again',
    progress: '{{files}} files in {{dirs}} folders, {{bytes}} so far',
    progressLabel: 'Scanning {{path}}',
    status: {
      scanning: 'Scanning',
      canceling: 'Canceling',
      done: 'Done',
      failed: 'Failed',
      canceled: 'Canceled',
    },
    result: '{{bytes}} in {{files}} files and {{dirs}} folders',
    unreadable: '{{count}} entries could not be read.',
    failed: 'The scan failed: {{error}}',
    chartCaption: 'Largest folders in {{path}}',
    folder: 'Folder',
    size: 'Size',
    share: 'Share',
    filesHere: '(files directly in it)',
    noFolders: 'The folder is empty.',
  },
  images: {
    title: 'Images',
    kinds: {
      product: 'Product images',
      'inference-engine': 'Inference-engine images',
      companion: 'Companion-service images',
    },
    summary: '{{count}} images, {{bytes}}',
    tags: 'RepoTags',
    size: 'Size',
    untagged: '<none>',
    empty: 'No images of this kind on the device.',
    more: 'The {{shown}} largest of {{count}} are shown.',
  },
  productData: {
    title: 'Product data',
    intro: 'Data the product keeps on the device, in {{root}}.',
    caption: 'Product data folders',
    folder: 'Data',
    path: 'Folder',
    size: 'Size',
    files: 'Files',
    actions: 'Actions',
    folders: {
      recordings: 'Recordings',
      models: 'Downloaded models',
      cache: 'Caches',
    },
    delete: 'Delete',
    deleteLabel: 'Delete {{folder}}',
    confirmTitle: 'Delete {{folder}}?',
    confirmText:
      'Everything in {{path}} ({{files}} files, {{bytes}}) will be deleted from the device. This cannot be undone.',
    confirmPathText: '{{path}} will be deleted from the device. This cannot be undone.',
    confirm: 'Delete',
    cancel: 'Cancel',
    deleting: 'Deleting…',
    deleted: '{{files}} files deleted, {{bytes}} freed.',
    deleteFailed: 'Nothing was deleted: {{error}}',
  },
};

export type StorageTexts = typeof en;

/** Every key of `en`, with strings of any wording (what each other language must give). */
type Translation<T> = { [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };
export type StorageTranslation = Translation<StorageTexts>;
