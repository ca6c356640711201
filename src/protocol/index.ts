export * from './constants';
export * from './errors';
export * from './rest';
export * from './commands';
export * from './link';
