/**
 * Health and metrics commands (spec §3 usage data, x86Metrics, deviceInfo; §7 "Health and metrics"):
 * ping, check-health, get-usages, x86-device-information, jtop-health, get-client-version.
 */
import { z } from 'zod';
import { defineCommands, Empty } from './command';

/** GPU usage: utilisation in %, memory in MiB. */
export const GpuUsage = z.object({
  name: z.string(),
  utilisation: z.number().min(0).max(100),
  memory_used_mb: z.number().min(0),
  memory_total_mb: z.number().min(0),
});
export type GpuUsage = z.infer<typeof GpuUsage>;

/** §5: the GPU driver check on a Jetson. */
export const GPU_DRIVER_X86_ONLY = 'GPU Driver check is just for x86 devices.';

export const healthCommands = defineCommands({
  /** Liveness: answers at once. time = agent clock, ms since epoch. */
  ping: { request: Empty, reply: z.object({ pong: z.literal(true), time: z.number() }) },
  /** Overall health. uptime_s = agent uptime in seconds. */
  'check-health': {
    request: Empty,
    /** streams: streams being sent (encoded); paused_streams: streams held by pause-stream. */
    reply: z.object({
      status: z.enum(['ok', 'degraded']),
      uptime_s: z.number(),
      streams: z.number().int(),
      paused_streams: z.number().int().optional(),
    }),
  },
  /** §3 usage data: cpu in %, memory in MiB, gpus. */
  'get-usages': {
    request: Empty,
    reply: z.object({
      cpu: z.number().min(0).max(100),
      memory_used_mb: z.number().min(0),
      memory_total_mb: z.number().min(0),
      gpus: z.array(GpuUsage),
      temperature_c: z.number().nullable(),
    }),
  },
  /** x86 system information (§3 x86Metrics / deviceInfo). */
  'x86-device-information': {
    request: Empty,
    reply: z.object({
      hostname: z.string(),
      os: z.string(),
      kernel: z.string(),
      cpu_model: z.string(),
      cpu_cores: z.number().int(),
      memory_total_mb: z.number(),
      gpus: z.array(z.object({ name: z.string(), driver_version: z.string().nullable() })),
      arch: z.string(),
    }),
  },
  /** Jetson stats as jtop reports them; available=false on x86. Power in mW, temperatures in °C. */
  'jtop-health': {
    request: Empty,
    reply: z.object({
      available: z.boolean(),
      board: z.string().nullable(),
      jetpack: z.string().nullable(),
      gpu_utilisation: z.number().nullable(),
      power_mw: z.number().nullable(),
      temperatures_c: z.record(z.string(), z.number()),
    }),
  },
  /**
   * GPU driver check (§7 "Engine and images" get-gpu-driver-version; §5 "GPU Driver check is just for x86
   * devices."): the NVIDIA driver version (null when no driver answers) and the GPUs' names. On a Jetson the
   * device refuses with code 'not_x86' and the §5 text (the console says so before asking).
   */
  'get-gpu-driver-version': {
    request: Empty,
    reply: z.object({ driver_version: z.string().nullable(), gpus: z.array(z.string()) }),
  },
  /** Device client (agent) version, semver. */
  'get-client-version': { request: Empty, reply: z.object({ version: z.string(), backend: z.string() }) },
});
