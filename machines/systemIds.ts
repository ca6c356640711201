/** systemIds of the long-lived actors started by `system.machine.ts` (ARCHITECTURE "Console state"). */
export const SYSTEM_IDS = {
  auth: 'auth',
  signal: 'signal',
  devicesTable: 'devicesTable',
  devicePool: 'devicePool',
  streams: 'streams',
  notifications: 'notifications',
} as const;
export type SystemId = (typeof SYSTEM_IDS)[keyof typeof SYSTEM_IDS];
