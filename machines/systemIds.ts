/** systemIds of the long-lived actors started by `system.machine.ts` (ARCHITECTURE "Console state"). */
export const SYSTEM_IDS = {
  auth: 'auth',
  signal: 'signal',
  devicesTable: 'devicesTable',
  devicePool: 'devicePool',
  streams: 'streams',
  notifications: 'notifications',
  containers: 'containers',
  containerActions: 'containerActions',
  containerLogs: 'containerLogs',
  environments: 'environments',
  logs: 'logs',
  power: 'power',
  deviceSettings: 'deviceSettings',
  storage: 'storage',
  metrics: 'metrics',
  devicePage: 'devicePage',
  quickSearch: 'quickSearch',
} as const;
export type SystemId = (typeof SYSTEM_IDS)[keyof typeof SYSTEM_IDS];
