/**
 * Every camera this device can stream (§3 Camera; §7 camera-list): the backend's own cameras (physical,
 * fixed at start-up) followed by the IP cameras the server lists for this device (refreshed by the agent
 * every IP_CAMERA_REFRESH_MS). Camera ids are unique across both: an IP camera whose id collides with
 * another camera is skipped with a warning.
 */
import type { IpCameraEntry } from '../backends/ipCameras';
import type { CameraDevice } from '../backends/types';
import type { Logger } from '../log';

/** How often the agent asks the server for its IP cameras, ms. */
export const IP_CAMERA_REFRESH_MS = 60_000;

/** Looks a camera up by its camera_id (what StreamManager needs). */
export interface CameraLookup {
  find(cameraId: string): CameraDevice | undefined;
}

/** What changed in an IP camera update: camera ids added, and removed (or replaced because their URL changed). */
export interface IpCameraChange {
  added: string[];
  removed: string[];
}

export class CameraCatalog implements CameraLookup {
  private readonly ip = new Map<string, { entry: IpCameraEntry; camera: CameraDevice }>();

  /** `makeIpCamera` turns a server entry into a camera (see backends/ipCameras.ts createIpCamera). */
  constructor(
    private readonly physical: readonly CameraDevice[],
    private readonly makeIpCamera: (entry: IpCameraEntry) => CameraDevice,
    private readonly logger: Logger,
  ) {}

  /** Physical cameras, then IP cameras in the server's order. */
  list(): CameraDevice[] {
    return [...this.physical, ...[...this.ip.values()].map((c) => c.camera)];
  }

  /** The camera with this camera_id, or undefined. */
  find(cameraId: string): CameraDevice | undefined {
    return this.physical.find((c) => c.cameraId === cameraId) ?? this.ip.get(cameraId)?.camera;
  }

  /** Number of IP cameras. */
  get ipCount(): number {
    return this.ip.size;
  }

  /**
   * Replaces the IP cameras with `entries`. A camera whose label and URL are unchanged is kept (its running
   * streams go on); one whose URL or label changed is replaced (reported as removed and added); one the
   * server no longer lists is removed. The caller ends the streams of removed cameras.
   */
  setIpCameras(entries: readonly IpCameraEntry[]): IpCameraChange {
    const change: IpCameraChange = { added: [], removed: [] };
    const wanted = new Map<string, IpCameraEntry>();
    for (const e of entries) {
      if (wanted.has(e.id) || this.physical.some((c) => c.cameraId === e.id)) {
        this.logger.warn(
          `IP camera ${e.id} ("${e.label}") skipped: its id is already used by another camera`,
        );
        continue;
      }
      wanted.set(e.id, e);
    }
    for (const [id, cur] of [...this.ip]) {
      const next = wanted.get(id);
      if (
        next &&
        next.url === cur.entry.url &&
        next.label === cur.entry.label &&
        (next.username ?? null) === (cur.entry.username ?? null) &&
        (next.password ?? null) === (cur.entry.password ?? null)
      )
        continue;
      this.ip.delete(id);
      cur.camera.close?.();
      change.removed.push(id);
    }
    for (const [id, e] of wanted) {
      if (this.ip.has(id)) continue;
      this.ip.set(id, { entry: e, camera: this.makeIpCamera(e) });
      change.added.push(id);
    }
    return change;
  }

  /** Releases the IP cameras (ffmpeg children). */
  close(): void {
    for (const { camera } of this.ip.values()) camera.close?.();
  }
}
