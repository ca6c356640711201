/**
 * A simulated network (IP) camera for `sim://<name>` URLs (§3 IP camera). No network camera exists on a demo
 * machine, so the device "pulls" this one from nowhere: it draws its own synthetic scene — a parking lot
 * (flat asphalt, bay lines) with the scene's moving objects and an "IP" caption, seeded from the name so every
 * device and every run shows the same picture for the same name, and a different one from the device's own
 * cameras. Like SimCamera, nothing runs while no capture is open.
 */
import type { ResolutionOption } from '../../../protocol';
import { DEFAULT_RESOLUTION, STANDARD_RESOLUTIONS } from '../resolutions';
import type { CameraDevice, CaptureHandle, FrameListener, I420Frame } from '../types';
import { paceFrames, SyntheticFrameGenerator } from './frames';
import { createScene, hashSeed } from './scene';
import type { Scene } from './scene';

/** `sim://<name>`: name of 1–64 letters, digits, '.', '_' or '-'. */
export const SIM_URL_RE = /^sim:\/\/([A-Za-z0-9._-]{1,64})\/?$/;

/** The name of a `sim://<name>` URL, or null when `url` is not one. */
export function simCameraName(url: string): string | null {
  return SIM_URL_RE.exec(url)?.[1] ?? null;
}

/** A simulated IP camera: id and label come from the server's IP camera, the picture from `sim://<name>`. */
export class SimIpCamera implements CameraDevice {
  readonly cameraType = 'ip' as const;
  readonly resolutions = STANDARD_RESOLUTIONS;
  readonly defaultResolution = DEFAULT_RESOLUTION;
  /** Synthetic frames have no sensor noise: no denoising (saves ~40 % of the encode). */
  readonly needsDenoising = false;
  readonly uniqueId: string;
  readonly scene: Scene;

  /** `cameraId` = the server's IP camera id; `name` = its label; `simName` = the `<name>` of its URL. */
  constructor(
    readonly cameraId: string,
    readonly name: string,
    readonly simName: string,
  ) {
    this.uniqueId = `ip:sim://${simName}`;
    this.scene = createScene(hashSeed(`sim-ip:${simName}`));
  }

  private generator(resolution: ResolutionOption): SyntheticFrameGenerator {
    return new SyntheticFrameGenerator(this.scene, resolution.width, resolution.height, {
      background: 'lot',
      captionPrefix: 'IP',
    });
  }

  startCapture(resolution: ResolutionOption, onFrame: FrameListener): CaptureHandle {
    return paceFrames(this.generator(resolution), resolution.fps, onFrame);
  }

  async grabFrame(resolution: ResolutionOption): Promise<I420Frame> {
    return this.generator(resolution).draw(Date.now());
  }
}
