export * from './constants';
export * from './rest';
export * from './commands';
export * from './link';
