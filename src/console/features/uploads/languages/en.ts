/** The uploads feature's texts in English (§2 'en'); the complete set. §2/§8 texts keep the spec's wording. */
export const en = {
  button: 'Uploads ({{count}})',
  buttonLabel: 'Show upload progress: {{count}} running',
  dialogTitle: 'Upload Progresses',
  running: 'Running uploads',
  none: 'No upload is running.',
  preparing: 'Checking {{name}}',
  percent: '{{percent}} %',
  progressLabel: 'Upload of {{name}}',
  cancel: 'Cancel upload of {{name}}',
  results: 'Finished uploads',
  succeeded: 'Succeeded',
  failedLine: 'Failed',
  close: 'Close',
  toast: {
    uploadedTitle: 'Uploaded',
    uploaded: '{{file}} is successfully uploaded',
    failedTitle: 'Upload Failed',
    failed: '{{file}} failed to upload',
  },
};

export type UploadsTexts = typeof en;
/** A language's texts: every key of English, any wording. */
export type UploadsTranslation = {
  [K in keyof UploadsTexts]: UploadsTexts[K] extends string
    ? string
    : { [L in keyof UploadsTexts[K]]: string };
};
