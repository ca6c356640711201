/**
 * Health and metrics commands (§7 "Health and metrics"): ping, check-health, get-usages,
 * x86-device-information, jtop-health, get-client-version; and the GPU driver check get-gpu-driver-version
 * ("Engine and images"; x86 only, §5).
 */
import { GPU_DRIVER_X86_ONLY } from '../../protocol/health';
import { CommandError } from './errors';
import type { Handlers } from './registry';

type HealthProcess =
  | 'ping'
  | 'check-health'
  | 'get-usages'
  | 'x86-device-information'
  | 'jtop-health'
  | 'get-client-version'
  | 'get-gpu-driver-version';

/** Usage at or above this share (%) of CPU or memory makes check-health report 'degraded'. */
const DEGRADED_AT_PERCENT = 95;

export const healthHandlers = {
  ping: async () => ({ pong: true as const, time: Date.now() }),

  'check-health': async (_payload, ctx) => {
    const u = await ctx.backend.usages(ctx.streams.count);
    const memory = u.memory_total_mb > 0 ? (100 * u.memory_used_mb) / u.memory_total_mb : 0;
    return {
      status: u.cpu >= DEGRADED_AT_PERCENT || memory >= DEGRADED_AT_PERCENT ? 'degraded' : 'ok',
      uptime_s: Math.round((Date.now() - ctx.startedAt) / 1000),
      streams: ctx.streams.count,
      paused_streams: ctx.streams.pausedCount,
    };
  },

  'get-usages': (_payload, ctx) => ctx.backend.usages(ctx.streams.count),

  'x86-device-information': (_payload, ctx) => ctx.backend.systemInformation(),

  'jtop-health': (_payload, ctx) => ctx.backend.jtop(ctx.streams.count),

  // The running release (software part: an installed agent release, else this build's version).
  'get-client-version': async (_payload, ctx) => ({
    version: ctx.software.currentVersion(),
    backend: ctx.backend.name,
  }),

  'get-gpu-driver-version': async (_payload, ctx) => {
    if (ctx.backend.kind !== 'x86') throw new CommandError('not_x86', GPU_DRIVER_X86_ONLY);
    const { gpus } = await ctx.backend.systemInformation();
    return {
      driver_version: gpus.find((g) => g.driver_version)?.driver_version ?? null,
      gpus: gpus.map((g) => g.name),
    };
  },
} satisfies Pick<Handlers, HealthProcess>;
