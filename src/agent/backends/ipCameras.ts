/**
 * IP cameras the server lists for this device (§3 IP camera: "streams through the device that can reach
 * them"; agent-facing GET device/ip-cameras → DeviceIpCamerasResponse). Each entry becomes a CameraDevice
 * whose camera_id is the server's IP camera id and whose camera_type is 'ip':
 *   rtsp://, rtsps://, http://, https://, an absolute file path or file:// → ffmpeg (FfmpegCamera; RTSP over
 *       TCP, reconnect with back-off, stderr kept for a clear error). Needs ffmpeg on the device.
 *   sim://<name> → SimIpCamera, a simulated network camera (no network camera exists on a demo machine).
 *   anything else → a camera that refuses to start with a message naming the accepted forms (send-sdp then
 *       answers inferenceEngineError with it; the agent never crashes on a bad URL).
 * The same rules hold on both backends (host and sim).
 */
import type { ResolutionOption } from '../../protocol';
import type { Logger } from '../log';
import { FfmpegCamera, redactSource } from './host/ffmpegCamera';
import { DEFAULT_RESOLUTION, STANDARD_RESOLUTIONS } from './resolutions';
import { SimIpCamera, simCameraName } from './sim/ipCamera';
import { withCredentials } from '../ipCameras/still';
import type { CameraDevice, CaptureHandle, I420Frame } from './types';

/** One IP camera as the server gives it: id (its IP camera id), label, url. */
export interface IpCameraEntry {
  id: string;
  label: string;
  url: string;
  /** Credentials for rtsp/http(s) sources (the server hands them to this device only). */
  username?: string | null;
  password?: string | null;
}

/** How an IP camera URL is read: 'ffmpeg', 'sim', or 'unsupported'. */
export function ipSourceKind(url: string): 'ffmpeg' | 'sim' | 'unsupported' {
  if (/^sim:\/\//i.test(url)) return simCameraName(url) ? 'sim' : 'unsupported';
  if (/^(rtsps?|https?):\/\/[^\s]+$/i.test(url)) return 'ffmpeg';
  if (/^file:\/\/\/\S/i.test(url) || /^\/\S/.test(url)) return 'ffmpeg';
  return 'unsupported';
}

/** A camera whose URL the agent cannot read: listed, but starting it fails with `reason`. */
export class UnavailableCamera implements CameraDevice {
  readonly cameraType = 'ip' as const;
  readonly resolutions = STANDARD_RESOLUTIONS;
  readonly defaultResolution = DEFAULT_RESOLUTION;
  constructor(
    readonly cameraId: string,
    readonly name: string,
    readonly uniqueId: string,
    readonly reason: string,
  ) {}
  startCapture(_resolution: ResolutionOption): CaptureHandle {
    throw new Error(this.reason);
  }
  grabFrame(_resolution: ResolutionOption): Promise<I420Frame> {
    return Promise.reject(new Error(this.reason));
  }
}

/** The CameraDevice for one server IP camera entry (see the module comment for the URL forms). */
export function createIpCamera(entry: IpCameraEntry, logger: Logger): CameraDevice {
  const kind = ipSourceKind(entry.url);
  const uniqueId = `ip:${redactSource(entry.url)}`;
  if (kind === 'sim') return new SimIpCamera(entry.id, entry.label, simCameraName(entry.url) as string);
  if (kind === 'ffmpeg') {
    const source = /^(rtsps?|https?):/i.test(entry.url)
      ? withCredentials(entry.url, entry.username, entry.password)
      : entry.url.replace(/^file:\/\//i, '');
    return new FfmpegCamera(source, 0, logger, {
      cameraId: entry.id,
      name: entry.label,
      uniqueId,
      cameraType: 'ip',
    });
  }
  return new UnavailableCamera(
    entry.id,
    entry.label,
    uniqueId,
    `IP camera "${entry.label}" has an unsupported URL (${redactSource(entry.url).slice(0, 100)}): ` +
      'use rtsp://, http(s)://, a file path or sim://<name>',
  );
}
