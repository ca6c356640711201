/**
 * The logs feature's texts in English (§2 language 'en'), the complete set the other languages must give
 * (LogsTranslation). §8 texts keep the spec's wording (`texts.*`, the contract's LOG_TEXTS).
 */
export const en = {
  title: 'Logs',
  tab: 'Logs',
  device: 'Device',
  chooseDevice: 'Choose a device',
  topic: 'Topic',
  subtopic: 'Subtopic',
  count: 'Lines from the end',
  follow: 'Follow new lines',
  open: 'Show log',
  pause: 'Pause',
  resume: 'Follow',
  stop: 'Stop',
  restart: 'Show again',
  download: 'Download',
  search: 'Search',
  searchPlaceholder: 'Filter lines',
  refreshTopics: 'Reload topics',
  status: {
    idle: 'Choose a log and show it.',
    loading: 'Reading the log…',
    following: 'Following',
    paused: 'Paused: new lines are kept and shown when you follow again.',
    ended: 'Stopped',
    failed: 'Failed',
  },
  ended: {
    done: 'All lines asked for were read.',
    stopped: 'The log was stopped.',
    link_closed:
      'The device went offline (its link closed); the log is no longer followed. Show it again once the device is back.',
  },
  noDevice: 'No device is connected. Connect a device to read its logs.',
  connectDevices: 'Go to the devices',
  loadingTopics: 'Reading the topics of the device…',
  topicsFailed: 'The topics of {{device}} could not be read: {{error}}',
  noTopics: 'This device has no logs to read.',
  shown: '{{shown}} of {{received}} lines shown',
  lost: '{{count}} lines were lost on the way.',
  empty: 'No lines yet.',
  noMatch: 'No line matches the search.',
  rowsLabel: 'Lines of {{topic}} / {{subtopic}}',
  forDevice: 'for {{device}}',
  openDevice: 'Open {{device}}',
  failed: 'The log could not be read: {{error}}',
  texts: {
    noLogFile: 'No log file found',
    logChanged: 'Log file modified or deleted',
  },
};

export type LogsTexts = typeof en;

/** A translation: every key of English, with text values. */
type Translation<T> = { [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };
export type LogsTranslation = Translation<LogsTexts>;
