/**
 * The backend interface: everything the agent reads from "the machine" — metrics, system information,
 * Jetson stats and cameras. Two implementations: `host` (the real machine) and `sim` (a simulated Jetson or
 * x86 device with synthetic cameras). ARCHITECTURE "Processes → agent".
 */
import type { CommandReply, ResolutionOption } from '../../protocol';

/**
 * One I420 (YUV 4:2:0 planar) video frame: Y plane (width×height bytes), then U and V planes
 * (width/2 × height/2 bytes each). `data.byteLength` is exactly width×height×1.5 and `data` owns its whole
 * ArrayBuffer (wrtc's RTCVideoSource requires both). width and height are even, in pixels.
 */
export interface I420Frame {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Receives frames from a running capture. The frame's buffer is reused for the next frame: copy to keep. */
export type FrameListener = (frame: I420Frame) => void;

/** A running capture; stop() ends drawing/decoding (idempotent). */
export interface CaptureHandle {
  stop(): void;
  /**
   * Present when the source may fail to open (network cameras, files): resolves at the first frame, rejects
   * with a readable Error (source and reason, e.g. ffmpeg's last stderr line) when the source gives no frame.
   * Absent: frames start at once (synthetic cameras).
   */
  readonly ready?: Promise<void>;
}

/** A camera the device can stream. */
export interface CameraDevice {
  /** The camera's id on this device (DeviceCamera.camera_id). */
  readonly cameraId: string;
  readonly name: string;
  /** Stable id of the physical camera, the same on every device that sees it (§2 camera chooser). */
  readonly uniqueId: string;
  /** 'physical' for V4L2 / synthetic cameras and files, 'ip' for network cameras the device pulls (§3). */
  readonly cameraType: 'physical' | 'ip';
  /** Supported resolution options (§3). */
  readonly resolutions: readonly ResolutionOption[];
  /** Used when the requested resolution is missing or unsupported. */
  readonly defaultResolution: ResolutionOption;
  /**
   * Starts producing frames at `resolution` (one of `resolutions`) at its fps until stop(). Errors after start
   * (source lost) go to `onError`; the capture may retry on its own.
   * Throws when the capture cannot start at all (e.g. ffmpeg missing).
   */
  startCapture(
    resolution: ResolutionOption,
    onFrame: FrameListener,
    onError?: (err: Error) => void,
  ): CaptureHandle;
  /** One frame at `resolution` (for still pictures). Rejects when the source gives none within 10 s. */
  grabFrame(resolution: ResolutionOption): Promise<I420Frame>;
  /**
   * Whether the video encoder should denoise this camera's frames (libwebrtc's VP8 denoiser). false for
   * synthetic sources: they have no sensor noise, and the denoiser costs ~40 % of a 640×480 VP8 encode
   * (measured with tests/bench/agentStreams.ts). Absent: libwebrtc's default (on), right for real sensors.
   */
  readonly needsDenoising?: boolean;
  /** Releases what the camera holds beyond its captures (e.g. ffmpeg children); optional. */
  close?(): void;
}

export type Usages = CommandReply<'get-usages'>;
export type SystemInformation = CommandReply<'x86-device-information'>;
export type JtopHealth = CommandReply<'jtop-health'>;

/** What the agent needs from the machine. */
export interface Backend {
  readonly name: 'host' | 'sim';
  /** Device kind: 'jetson' (chipset_id ≠ '0') or 'x86' (chipset_id '0'), §3 §9. */
  readonly kind: 'jetson' | 'x86';
  readonly cameras: readonly CameraDevice[];
  /** Current usage (§3 usage data); `activeStreams` lets the sim model load. */
  usages(activeStreams: number): Promise<Usages>;
  systemInformation(): Promise<SystemInformation>;
  /** Jetson stats; available=false when not a Jetson or no tegrastats/jtop. */
  jtop(activeStreams: number): Promise<JtopHealth>;
  /** Releases children (ffmpeg, tegrastats) and timers. */
  close(): Promise<void>;
}

/** Allocates an I420 frame buffer that owns its ArrayBuffer. Throws on odd or non-positive sizes. */
export function allocI420(width: number, height: number): I420Frame {
  if (
    !Number.isInteger(width) ||
    !Number.isInteger(height) ||
    width <= 0 ||
    height <= 0 ||
    width % 2 ||
    height % 2
  ) {
    throw new Error(`I420 frames need positive even sizes, got ${width}x${height}`);
  }
  return { width, height, data: new Uint8Array((width * height * 3) / 2) };
}
