/**
 * A simulated camera: draws the synthetic scene (see scene.ts, frames.ts) at the requested resolution and
 * frame rate with one setInterval per running capture; nothing runs while no capture is open.
 */
import type { ResolutionOption } from '../../../protocol';
import { DEFAULT_RESOLUTION, STANDARD_RESOLUTIONS } from '../resolutions';
import type { CameraDevice, CaptureHandle, FrameListener, I420Frame } from '../types';
import { paceFrames, SyntheticFrameGenerator } from './frames';
import { createScene, hashSeed, sceneObjectsAt } from './scene';
import type { BoundingBox, Scene } from './scene';

const PLACES = ['Entrance', 'Parking lot', 'Warehouse', 'Loading dock'];

/** A synthetic camera of a simulated device. */
export class SimCamera implements CameraDevice {
  readonly cameraId: string;
  readonly name: string;
  readonly uniqueId: string;
  readonly cameraType = 'physical' as const;
  readonly resolutions = STANDARD_RESOLUTIONS;
  readonly defaultResolution = DEFAULT_RESOLUTION;
  /** Synthetic frames have no sensor noise: no denoising (saves ~40 % of the encode). */
  readonly needsDenoising = false;
  /** The scene this camera shows (seeded from the device id and camera index). */
  readonly scene: Scene;
  private generator: SyntheticFrameGenerator | null = null;

  /**
   * `index` is 1-based. `sharedUniqueId` makes this the view of a physical camera that several devices see
   * (§2 camera chooser: "one physical camera matches on several devices"): it reports that unique_id and
   * shows the scene seeded from it, so every device sharing it shows the same picture.
   */
  constructor(deviceId: string, index: number, sharedUniqueId?: string) {
    this.cameraId = `cam-${index}`;
    this.name = sharedUniqueId
      ? `Shared camera ${sharedUniqueId}`
      : `Sim camera ${index} (${PLACES[(index - 1) % PLACES.length]})`;
    this.uniqueId = sharedUniqueId ?? `sim-${deviceId}-cam-${index}`;
    this.scene = createScene(hashSeed(this.uniqueId));
  }

  startCapture(resolution: ResolutionOption, onFrame: FrameListener): CaptureHandle {
    const generator = new SyntheticFrameGenerator(this.scene, resolution.width, resolution.height);
    this.generator = generator;
    return paceFrames(generator, resolution.fps, onFrame, () => {
      if (this.generator === generator) this.generator = null;
    });
  }

  async grabFrame(resolution: ResolutionOption): Promise<I420Frame> {
    return new SyntheticFrameGenerator(this.scene, resolution.width, resolution.height).draw(Date.now());
  }

  /**
   * Bounding boxes (pixels) of the objects shown at `timeMs` in a width×height frame — exact ground truth
   * for a simulated inference engine.
   */
  objectsAt(width: number, height: number, timeMs: number): BoundingBox[] {
    return sceneObjectsAt(this.scene, width, height, timeMs);
  }

  /** Boxes of the last frame drawn by the running capture ([] when none runs). */
  lastObjects(): BoundingBox[] {
    return this.generator?.lastObjects() ?? [];
  }
}
