export * from './constants';
export * from './errors';
export * from './rest';
export * from './command';
export * from './health';
export * from './streams';
export * from './commands';
export * from './link';
