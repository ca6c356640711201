/**
 * What the remote desktop part needs from a desktop (spec §7 remote control commands, §3 openWindows): its
 * picture as a stream source (a CameraDevice with camera_id REMOTE_DESKTOP_CAMERA_ID, streamed by the same
 * StreamManager as the cameras) and its input and windows. Two drivers: `x11` (a real X display: ffmpeg
 * x11grab + xdotool) and `sim` (a synthetic desktop drawn into I420 frames).
 */
import type {
  KeyboardControl,
  MouseControl,
  MouseDrag,
  OpenWindowsReply,
  ScrollMouse,
} from '../../protocol/remoteDesktop';
import type { CameraDevice } from '../backends/types';

export interface DesktopDriver {
  readonly backend: 'x11' | 'sim';
  /** The desktop's picture, 1280×720 (§9), as a stream source. */
  readonly camera: CameraDevice;
  mouse(input: MouseControl): Promise<void>;
  drag(input: MouseDrag): Promise<void>;
  scroll(input: ScrollMouse): Promise<void>;
  keyboard(input: KeyboardControl): Promise<void>;
  /** §3 openWindows: the windows now, bottom to top. */
  windows(): Promise<OpenWindowsReply>;
  /** Closes a window; false when there is no such window. */
  closeWindow(id: string): Promise<boolean>;
  /** Stops children and timers (idempotent). */
  close(): void;
}
