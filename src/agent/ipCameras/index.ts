/**
 * The device's ipCameras part (issue 16 §2 IP cameras: "a test that fetches a still through the device that will
 * reach it"): `still` fetches one picture of a network camera from this device, the same way on both backends
 * (src/agent/ipCameras/still.ts): http(s) snapshots for real with basic auth, rtsp through ffmpeg when the
 * device has it, sim://<name> from the simulated IP camera. The picture is a PNG data URL under the link's
 * message limit (src/agent/commands/snapshot.ts). At most MAX_STILLS at once.
 */
import { hasFfmpeg } from '../backends/host/exec';
import { snapshotDataUrl } from '../commands/snapshot';
import type { AgentPartDeps } from '../parts';
import { grabStill, type StillRequest } from './still';

export { IP_STILL_ERRORS, IP_STILL_TEXTS, StillError } from './still';

/** Stills fetched at the same time by one device. */
export const MAX_STILLS = 2;

/** A still: a PNG data URL and its size in pixels. */
export interface IpStill {
  image: string;
  width: number;
  height: number;
}

export interface IpCameraReach {
  /**
   * One still of the camera at `req.url` with its credentials.
   * @throws StillError (ip_camera_unreachable | _auth_failed | _timeout | _not_an_image | _needs_ffmpeg |
   *   _bad_url), or Error 'busy' when MAX_STILLS are being fetched.
   */
  still(req: StillRequest, signal?: AbortSignal): Promise<IpStill>;
  /** Stops what the part runs; idempotent. */
  close(): Promise<void>;
}

/** Options for tests: the ffmpeg binary (null = pretend there is none), the time limit (ms). */
export interface IpCameraReachOptions {
  ffmpeg?: string | null;
  timeoutMs?: number;
}

export function createIpCameraReach(deps: AgentPartDeps, options: IpCameraReachOptions = {}): IpCameraReach {
  const ffmpeg = options.ffmpeg !== undefined ? options.ffmpeg : hasFfmpeg() ? 'ffmpeg' : null;
  const running = new Set<AbortController>();
  return {
    async still(req, signal) {
      if (running.size >= MAX_STILLS) throw new Error('busy');
      const ac = new AbortController();
      const onAbort = () => ac.abort();
      signal?.addEventListener('abort', onAbort);
      running.add(ac);
      try {
        const frame = await grabStill(req, { ffmpeg, timeoutMs: options.timeoutMs, signal: ac.signal });
        return snapshotDataUrl(frame);
      } catch (err) {
        deps.log.info(`ip camera still failed: ${(err as Error).message}`);
        throw err;
      } finally {
        running.delete(ac);
        signal?.removeEventListener('abort', onAbort);
      }
    },
    async close() {
      for (const ac of running) ac.abort();
    },
  };
}
