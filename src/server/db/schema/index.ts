/**
 * Database schema (drizzle-orm, PostgreSQL), one file per feature. Entities of spec §3 that the server owns plus
 * each feature's own tables. Migrations are generated from this index with `npx drizzle-kit generate` into
 * /drizzle. A new feature adds its own `<feature>.ts` here and one export line below.
 */
export * from './core';
export * from './models';
export * from './ssh';
export * from './accounts';
export * from './applications';
export * from './admin';
export * from './billing';
export * from './profile';
export * from './inference';
export * from './schedulers';
export * from './alarms';
export * from './alarmChannels';
export * from './analytics';
export * from './signalling';
export * from './rateLimits';
