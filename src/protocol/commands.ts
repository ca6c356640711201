/**
 * Device commands over the peer link (spec §7 "Device commands over the peer link", field `process`).
 * One typed registry shared by the console (caller) and the agent (handler): for every process, the zod
 * schema of its request payload and of its reply data. Response shapes are not given by the spec
 * ("not shown"); the shapes here are ours, documented field by field with units.
 */
import { z } from 'zod';

const Empty = z.object({}).strict();

/** §3 Supported resolution option; shown as "format Resolution: WxH FPS: n". */
export const ResolutionOption = z.object({
  pixel_format: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  fps: z.number().positive(),
});
export type ResolutionOption = z.infer<typeof ResolutionOption>;
/** §3 label of a resolution option. */
export const resolutionLabel = (r: ResolutionOption): string =>
  `${r.pixel_format} Resolution: ${r.width}x${r.height} FPS: ${r.fps}`;

/** A camera as the device reports it (§3 physical camera fields). */
export const DeviceCamera = z.object({
  id: z.string(),
  camera_id: z.string(),
  uniqueCameraId: z.string(),
  unique_id: z.string(),
  name: z.string(),
  label: z.string(),
  device_id: z.string(),
  /** 'physical' for V4L2 / synthetic cameras, 'ip' for RTSP sources the device pulls. */
  camera_type: z.enum(['physical', 'ip', 'local']),
});
export type DeviceCamera = z.infer<typeof DeviceCamera>;

/** GPU usage: utilisation in %, memory in MiB. */
export const GpuUsage = z.object({
  name: z.string(),
  utilisation: z.number().min(0).max(100),
  memory_used_mb: z.number().min(0),
  memory_total_mb: z.number().min(0),
});
export type GpuUsage = z.infer<typeof GpuUsage>;

const CameraRef = z.object({ camera_id: z.string().min(1).max(200) });
const SdpOffer = z.object({ type: z.literal('offer'), sdp: z.string().min(1).max(200_000) });
const SdpAnswer = z.object({ type: z.literal('answer'), sdp: z.string() });

/**
 * The registry: process → { request, reply }. Add a process here and both ends see it:
 * the console's `callDevice()` is typed by it and the agent's handler table must cover it.
 */
export const deviceCommands = {
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
  /** Device client (agent) version, semver. */
  'get-client-version': { request: Empty, reply: z.object({ version: z.string(), backend: z.string() }) },
  /** Cameras of the device. */
  'camera-list': { request: Empty, reply: z.object({ cameras: z.array(DeviceCamera) }) },
  /** Resolutions a camera supports (§3). */
  'get-supported-resolutions': {
    request: CameraRef,
    reply: z.object({ resolutions: z.array(ResolutionOption) }),
  },
  /**
   * Start a stream: the browser's SDP offer (recvonly video) → the agent's answer with the camera as a
   * video track, keyframe first. callId identifies the stream (§3 Stream.callId). On failure the reply is an
   * error with code 'inferenceEngineError' (§7 "send-sdp (answer or inferenceEngineError)").
   */
  'send-sdp': {
    request: CameraRef.extend({
      callId: z.string().min(1).max(100),
      sdp: SdpOffer,
      resolution: ResolutionOption.optional(),
    }),
    reply: z.object({ callId: z.string(), sdp: SdpAnswer, resolution: ResolutionOption }),
  },
  /**
   * End a stream the browser no longer shows (not named by the spec; closing the peer connection alone is
   * seen by the agent only after ICE times out). Idempotent: stopped=false when no such stream.
   */
  'stop-stream': {
    request: z.object({ callId: z.string().min(1).max(100) }),
    reply: z.object({ stopped: z.boolean() }),
  },
  /**
   * Hold a stream the browser hides (not named by the spec; issue 3 "hidden cells: the agent stops encoding
   * for them"): its peer connection stays up, the agent stops sending and encoding (and capturing, when it was
   * the camera's last viewer). paused=false when the viewer has no such stream.
   */
  'pause-stream': {
    request: z.object({ callId: z.string().min(1).max(100) }),
    reply: z.object({ paused: z.boolean() }),
  },
  /**
   * Send a held stream again on the same peer connection (no new negotiation). resumed=false when the viewer
   * has no such stream any more (it ended while held): the browser negotiates a new one with send-sdp.
   */
  'resume-stream': {
    request: z.object({ callId: z.string().min(1).max(100) }),
    reply: z.object({ resumed: z.boolean() }),
  },
  /** §4 Camera use: is the camera in use by other processes (streams of other viewers, jobs)? */
  'check-camera-usage': {
    request: CameraRef,
    reply: z.object({
      in_use: z.boolean(),
      processes: z.array(z.object({ id: z.string(), kind: z.enum(['stream', 'job']) })),
    }),
  },
  /** §4 Kill the other processes using a camera; result true or false. */
  'force-kill-stream': { request: CameraRef, reply: z.object({ result: z.boolean() }) },
  /** One still frame of a camera, for the chooser dialog: a PNG data URL. */
  getOneFrameFromPhysicalCamera: {
    request: CameraRef,
    reply: z.object({ image: z.string(), width: z.number().int(), height: z.number().int() }),
  },
} as const;

export type DeviceProcess = keyof typeof deviceCommands;
export const DEVICE_PROCESSES = Object.keys(deviceCommands) as DeviceProcess[];
export type CommandRequest<P extends DeviceProcess> = z.input<(typeof deviceCommands)[P]['request']>;
export type CommandReply<P extends DeviceProcess> = z.infer<(typeof deviceCommands)[P]['reply']>;

export const isDeviceProcess = (p: string): p is DeviceProcess =>
  Object.prototype.hasOwnProperty.call(deviceCommands, p);
