/** The repositories feature's texts in English (§2 'en'); the complete set. */
export const en = {
  title: 'Image repositories',
  intro: 'Container images of the project {{project}} in the registry {{registry}}.',
  notConfigured: 'No image registry is configured.',
  notConfiguredHelp:
    'Set REGISTRY_URL (and REGISTRY_USERNAME, REGISTRY_PASSWORD, REGISTRY_PROJECT when needed) on the server, then reload.',
  loading: 'Reading the registry…',
  failed: 'The registry could not be read: {{error}}',
  retry: 'Try again',
  refresh: 'Refresh',
  empty: 'The project has no repositories yet.',
  name: 'Name',
  tags: 'Tags',
  tagCount_one: '{{count}} tag',
  tagCount_other: '{{count}} tags',
  open: 'Open {{name}}',
  back: 'All repositories',
  tagsTitle: 'Tags of {{name}}',
  noTags: 'This repository has no tags.',
  notFound: 'The repository {{name}} does not exist in the project.',
  tag: 'Tag',
  size: 'Size',
  digest: 'Digest',
  created: 'Created',
  platforms: 'Platforms',
  pullCommand: 'Pull command',
  actions: 'Actions',
  unknown: 'unknown',
  copy: 'Copy the pull command of {{tag}}',
  copyDigest: 'Copy the digest of {{tag}}',
  copied: 'Copied to the clipboard.',
  copyFailed: 'Could not copy; select the text and copy it.',
  tagError: 'Could not read this tag: {{error}}',
  push: 'Push {{tag}}',
  pushTitle: 'Push {{name}}:{{tag}}',
  pushIntro: 'The registry copies the image under a new tag; the pushed image keeps its digest.',
  targetRepository: 'Target repository',
  targetRepositoryHelp: 'Empty: this repository. Lower-case letters, digits, . _ - and /',
  targetTag: 'New tag',
  targetTagHelp: 'Letters, digits, _ . - (up to 128)',
  invalidTag: 'Enter a valid tag.',
  invalidRepository: 'Enter a valid repository name.',
  pushStart: 'Push',
  close: 'Close',
  pushStates: {
    idle: 'Not started',
    started: 'Push started…',
    successful: 'Push successful: {{ref}}',
    error: 'Push failed: {{error}}',
  },
  pushed: 'Image pushed',
  pushedMessage: '{{ref}} is in the registry.',
  pushFailed: 'Image push failed',
};
export type RepositoriesTexts = typeof en;
/** A translation: every key of en, with any text. */
export type RepositoriesTranslation = {
  [K in keyof RepositoriesTexts]: RepositoriesTexts[K] extends string
    ? string
    : { [L in keyof RepositoriesTexts[K]]: string };
};
