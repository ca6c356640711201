/**
 * Handlers of the alarms feature's device commands (src/protocol/alarms.ts; spec §4 start step 1, §7
 * alarm-new): the device keeps the list and matches detections against it (src/agent/alarms/).
 */
import type { Handlers } from './registry';

export const alarmHandlers = {
  'alarm-new': async ({ alarms }, ctx) => ({ count: await ctx.alarms.set(alarms) }),
} satisfies Pick<Handlers, 'alarm-new'>;
