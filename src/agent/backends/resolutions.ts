/**
 * Resolution options (§3 "Supported resolution option": pixel_format, width, height, fps) and the rule for
 * picking one: the requested option when the camera supports it (same width, height and fps), else the
 * camera's default (640×480 at 30 fps).
 */
import type { ResolutionOption } from '../../protocol';

/** Pixel format name of the frames the agent produces (YUV 4:2:0 planar). */
export const PIXEL_FORMAT = 'I420';

/** Resolutions every agent camera offers; ffmpeg scales real sources to them. */
export const STANDARD_RESOLUTIONS: readonly ResolutionOption[] = [
  { pixel_format: PIXEL_FORMAT, width: 320, height: 240, fps: 30 },
  { pixel_format: PIXEL_FORMAT, width: 640, height: 480, fps: 30 },
  { pixel_format: PIXEL_FORMAT, width: 1280, height: 720, fps: 30 },
];

/** Default stream resolution: 640×480 at 30 fps. */
export const DEFAULT_RESOLUTION: ResolutionOption = {
  pixel_format: PIXEL_FORMAT,
  width: 640,
  height: 480,
  fps: 30,
};

/** Still pictures (getOneFrameFromPhysicalCamera) are small so the PNG fits one data-channel message. */
export const SNAPSHOT_RESOLUTION: ResolutionOption = {
  pixel_format: PIXEL_FORMAT,
  width: 320,
  height: 240,
  fps: 30,
};

/** The supported option matching `requested` (width, height, fps), else `fallback`. */
export function pickResolution(
  supported: readonly ResolutionOption[],
  fallback: ResolutionOption,
  requested?: ResolutionOption,
): ResolutionOption {
  if (!requested) return fallback;
  return (
    supported.find(
      (r) => r.width === requested.width && r.height === requested.height && r.fps === requested.fps,
    ) ?? fallback
  );
}
