/**
 * What the camera grid does with a saved layout once it is loaded (machines/cameras/cameraGrid.machine.ts
 * `restoreStreams`), as a pure plan: which saved streams are reopened, which devices are connected first (§5),
 * and where every stream stands. The machine then spawns the reopened streams and tells the open ones whether
 * they are on the shown page.
 *
 * Decision (README "Decisions where the spec is silent", camera layout through an outage): streams already open
 * when the saved layout arrives — opened while it could not be loaded — are the user's newer choice and win: a
 * saved stream of the same camera is not reopened (the open one keeps its size and resolution), the other saved
 * streams come back at their places, and the open ones are placed after them where there is room. The layout
 * region then saves the merged layout if the user changed anything meanwhile (and only then, after the load
 * succeeded, so nothing was saved over a layout the console had not seen).
 */
import type { DeviceCamera } from '../../src/protocol/commands';
import type { Device, LayoutCell, SavedStream } from '../../src/protocol/rest';
import { clampCell, compactPages, placeAfter } from './gridLayout';
import { placeholderCamera, type CameraGridContext, type GridEntry, type LoadedLayout } from './gridModel';

/** A saved stream to reopen: its new stream id, camera (a placeholder until the device lists it) and place. */
export interface RestoredStream {
  saved: SavedStream;
  streamId: string;
  camera: DeviceCamera;
  /** Its device's link is open now. */
  deviceOpen: boolean;
  page: number;
  cell: LayoutCell;
}

export interface RestorePlan {
  /** Devices of reopened streams whose link is not open: connect them first. */
  connect: Device[];
  restored: RestoredStream[];
  /** The streams open before, moved where the restored ones leave room (same order as context.entries). */
  kept: GridEntry[];
  /** Streams opened so far, the restored ones counted. */
  opened: number;
  /** The page shown afterwards (the first). */
  shownPage: number;
}

/** The plan for `loaded` over the grid's `context` (pure; see the decision above). */
export function planRestore(context: CameraGridContext, loaded: LoadedLayout): RestorePlan {
  const byId = new Map(loaded.devices.map((d) => [d.device_id, d]));
  const openKeys = new Map<string, number>();
  for (const e of context.entries) openKeys.set(e.key, (openKeys.get(e.key) ?? 0) + 1);
  const saved = loaded.streams.filter((s) => {
    if (!byId.has(s.deviceId)) return false;
    const open = openKeys.get(s.key) ?? 0;
    if (open === 0) return true;
    openKeys.set(s.key, open - 1);
    return false;
  });
  const connect = [...new Set(saved.map((s) => s.deviceId))]
    .filter((d) => context.devices[d]?.status !== 'open')
    .map((d) => byId.get(d)!);
  let opened = context.opened;
  const restored = compactPages(
    saved.map((s) => {
      opened += 1;
      const streamId = `${context.idPrefix}-${opened}`;
      const known = context.devices[s.deviceId];
      const camera =
        known?.cameras.find((c) => c.camera_id === s.cameraId) ??
        placeholderCamera(s.deviceId, s.cameraId, s.key);
      const cell = clampCell({ ...s.cell, i: streamId });
      return { saved: s, streamId, camera, deviceOpen: known?.status === 'open', page: s.page, cell };
    }),
  );
  const kept = restored.length > 0 ? placeAfter(restored, context.entries) : context.entries;
  return { connect, restored, kept, opened, shownPage: 0 };
}
