/**
 * The camera grid's model (cameraGrid.machine.ts): its context, input and events, the §8 texts it shows, and
 * the pure helpers its actions use (saved form of the entries, placeholder cameras of restored streams,
 * streams per device, the opener request of an open event). No XState actions here: the machine owns
 * every transition.
 */
import type { ActorRefFrom } from 'xstate';
import type { DeviceCamera, ResolutionOption } from '../../src/protocol/commands';
import type { CameraLayoutSize } from '../../src/protocol/constants';
import type { Device, IpCamera, LayoutCell, SavedStream } from '../../src/protocol/rest';
import type { DeviceCamerasReport, DeviceStatusReport } from '../devices/deviceConnection.machine';
import type { NoticeEmitted, NoticeVariant } from '../notifications/emitted';
import {
  OPENER_TEXTS,
  type KnownDevice,
  type OpenerReport,
  type OpenRequest,
  type openerMachine,
} from './opener.machine';
import type { StreamClosedReport, streamMachine } from './stream.machine';

export type StreamRef = ActorRefFrom<typeof streamMachine>;
export type OpenerRef = ActorRefFrom<typeof openerMachine>;
export type {
  CameraCandidate,
  KnownDevice,
  OpenRequest,
  RequestCheck,
  RequestCheckInput,
  RequestCheckOutcome,
} from './opener.machine';

/** Debounce of the layout PUT after the last change, ms. */
export const LAYOUT_SAVE_DEBOUNCE_MS = 1_000;
/** Wait before saving again after a save the server could not take (outage), ms; doubles per failure. */
export const LAYOUT_SAVE_RETRY_BASE_MS = 2_000;
/** Longest wait between two tries of an unsaved layout, ms (the server's return also triggers a try). */
export const LAYOUT_SAVE_RETRY_MAX_MS = 30_000;

/** The wait before the next try after `failures` (≥ 1) saves in a row failed, ms: 2 s, 4 s, 8 s … 30 s. */
export function layoutSaveRetryDelay(failures: number): number {
  return Math.min(LAYOUT_SAVE_RETRY_MAX_MS, LAYOUT_SAVE_RETRY_BASE_MS * 2 ** Math.max(0, failures - 1));
}

/**
 * Whether a failed PUT camera-layout may succeed when tried again unchanged: yes when the server was out of
 * reach (status 0), overloaded or away (408, 429, 5xx: 503 Database_unavailable in a database outage), or
 * the failure carries no status; no when the server refused this layout or this caller (any other 4xx).
 */
export function saveMaySucceedLater(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number') return true;
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

/**
 * Whether a failed GET camera-layout may succeed when tried again: the same rule as a save (network, 408, 429,
 * 5xx: the saved layout is still on the server, it just could not be read). Then the grid must not take
 * "empty" for the saved layout; any other 4xx (refused) starts empty, as before.
 */
export const loadMaySucceedLater = saveMaySucceedLater;

/** The wait before loading again after `failures` (≥ 1) loads in a row failed, ms: the save's back-off. */
export const layoutLoadRetryDelay = layoutSaveRetryDelay;

/** One open stream on the grid. */
export interface GridEntry {
  streamId: string;
  /** Camera identity in the saved layout (gridLayout.cameraKey). */
  key: string;
  deviceId: string;
  camera: DeviceCamera;
  /** Grid page, 0-based. */
  page: number;
  /** react-grid-layout item; i = streamId. */
  cell: LayoutCell;
  ref: StreamRef;
}

/** Outcome of GET camera-layout (with the devices its streams need, and the server's IP cameras). */
export interface LoadedLayout {
  streams: SavedStream[];
  /** The devices the saved streams are on (those still owned by the user). */
  devices: Device[];
  /** GET ip-cameras (§3: listed from the server, each with the device that reaches it). */
  ipCameras: IpCamera[];
}

export interface CameraGridContext {
  entries: GridEntry[];
  /** The page shown, 0-based. */
  page: number;
  devices: Record<string, KnownDevice>;
  /** IP cameras listed by the server. */
  ipCameras: IpCamera[];
  /** Prefix of stream ids (this tab's browser id), so callIds are unique across tabs. */
  idPrefix: string;
  /** Streams opened so far (for the next id). */
  opened: number;
  /** The last admission of the opener taken (`opener.admitted` seq). */
  admitted: number;
  /** A change arrived while saving: save again afterwards. */
  dirty: boolean;
  /** Saves in a row that failed and are being tried again (0: the server has the layout, or it is pending). */
  saveFailures: number;
  /**
   * Loads in a row that failed for an outage (0: loaded, loading for the first time, or refused). While > 0
   * the saved layout is unknown and nothing is saved (it would overwrite it).
   */
  loadFailures: number;
  /** The stream in the modal. */
  modalStreamId: string | null;
}

export interface CameraGridInput {
  idPrefix?: string;
}

export type CameraGridEvent =
  | {
      type: 'stream.open';
      deviceId: string;
      camera: DeviceCamera;
      resolution?: ResolutionOption;
      chooseResolution?: boolean;
      /** When given and not connected, the grid asks the pool to connect it (§8 "connection is still attempted"). */
      device?: Device;
    }
  /** Open an IP camera listed by the server (§3) through the device that reaches it. */
  | { type: 'stream.openIp'; ipCameraId: string; chooseResolution?: boolean }
  | OpenerReport
  | { type: 'stream.close'; streamId: string }
  | { type: 'grid.page'; page: number }
  /** Cells of the shown page after a drag or resize (react-grid-layout's layout). */
  | { type: 'grid.layout'; cells: LayoutCell[] }
  | { type: 'grid.size'; streamId: string; size: CameraLayoutSize }
  /** Root system on sign-in: load the saved layout and reopen its streams. */
  | { type: 'grid.load' }
  /** Root system, on sign-out: close every stream (not saved). */
  | { type: 'streams.reset' }
  | { type: 'modal.open'; streamId: string }
  | { type: 'modal.close' }
  | { type: 'modal.minimize' }
  | { type: 'modal.restore' }
  /** "I understood" (or "Camera Page") on the Minimized dialog. */
  | { type: 'modal.ack' }
  /** Internal: the layout changed (saved after the debounce). */
  | { type: 'layout.changed' }
  /**
   * From `watchServer` while a layout waits unsaved, or the saved layout waits to be loaded: the server's links
   * are up again (try now).
   */
  | { type: 'layout.serverBack' }
  | DeviceStatusReport
  | DeviceCamerasReport
  | StreamClosedReport;

/** §8 texts. */
export const GRID_TEXTS = {
  deviceWarningTitle: 'Device Warning',
  deviceWarning: 'The device is not connected. Connect it first (the connection is still attempted).',
  quotaExceeded: OPENER_TEXTS.quotaExceeded,
  conflictTitle: 'Camera Conflict',
  layoutTitle: 'Camera page',
  saveFailed: 'The camera layout could not be saved.',
  saveRetrying: 'The camera layout could not be saved. It will be saved as soon as the server answers again.',
  saved: 'The camera layout is saved.',
  loadRetrying:
    'The saved camera layout could not be loaded yet. It will be loaded as soon as the server answers again; until then changes are not saved.',
  loaded: 'The saved camera layout is loaded.',
  loadFailed: 'The saved camera layout could not be loaded. Your next change is saved as the new layout.',
  minimized: 'Minimized - Stream is still going on. You can use the camera page to monitor and manage',
} as const;

/** The layout texts a toast of the camera page says, with their i18n keys (src/console/i18n `cameras.*`). */
const LAYOUT_NOTICES = {
  saveFailed: { message: GRID_TEXTS.saveFailed, key: 'cameras.layoutSaveFailed', variant: 'warning' },
  saveRetrying: { message: GRID_TEXTS.saveRetrying, key: 'cameras.layoutSaveRetrying', variant: 'warning' },
  saved: { message: GRID_TEXTS.saved, key: 'cameras.layoutSaved', variant: 'success' },
  loadRetrying: { message: GRID_TEXTS.loadRetrying, key: 'cameras.layoutLoadRetrying', variant: 'warning' },
  loaded: { message: GRID_TEXTS.loaded, key: 'cameras.layoutLoaded', variant: 'success' },
  loadFailed: { message: GRID_TEXTS.loadFailed, key: 'cameras.layoutLoadFailed', variant: 'warning' },
} as const satisfies Record<string, { message: string; key: string; variant: NoticeVariant }>;

/** The toast (emitted `notice`) of a layout save or load outcome, titled "Camera page", in six languages. */
export function layoutNotice(which: keyof typeof LAYOUT_NOTICES): NoticeEmitted {
  const { message, key, variant } = LAYOUT_NOTICES[which];
  return {
    type: 'notice',
    title: GRID_TEXTS.layoutTitle,
    message,
    variant,
    i18n: { title: { key: 'cameras.layoutTitle' }, message: { key } },
  };
}

/** What a device's link status tells its streams: up, down for now (reconnecting), lost; null: nothing. */
export function streamSignalOf(
  status: KnownDevice['status'],
): 'stream.deviceUp' | 'stream.deviceDown' | 'stream.deviceLost' | null {
  if (status === 'open') return 'stream.deviceUp';
  if (status === 'reconnecting') return 'stream.deviceDown';
  return status === 'closed' || status === 'errored' ? 'stream.deviceLost' : null;
}

/** A device listed its cameras: remember them; entries of that device get the real camera (its label). */
export function withCameras(
  context: CameraGridContext,
  deviceId: string,
  cameras: DeviceCamera[],
): Pick<CameraGridContext, 'devices' | 'entries'> {
  const prev = context.devices[deviceId];
  return {
    devices: {
      ...context.devices,
      [deviceId]: { label: prev?.label ?? deviceId, status: prev?.status ?? 'open', cameras },
    },
    entries: context.entries.map((e) => {
      if (e.deviceId !== deviceId) return e;
      const camera = cameras.find((c) => c.camera_id === e.camera.camera_id);
      return camera && camera !== e.camera ? { ...e, camera } : e;
    }),
  };
}

/** The saved form of the entries (PUT camera-layout). */
export function toSavedStreams(entries: readonly GridEntry[]): SavedStream[] {
  return entries.map((e) => {
    const resolution = e.ref.getSnapshot().context.resolution;
    return {
      key: e.key,
      deviceId: e.deviceId,
      cameraId: e.camera.camera_id,
      page: e.page,
      cell: { ...e.cell, i: e.streamId },
      ...(resolution ? { resolution } : {}),
    };
  });
}

/** A camera known only by its id (a restored stream before its device listed its cameras). */
export function placeholderCamera(deviceId: string, cameraId: string, key: string): DeviceCamera {
  const ip = key.startsWith('ip:');
  return {
    id: ip ? cameraId : `${deviceId}-${cameraId}`,
    camera_id: cameraId,
    uniqueCameraId: `${deviceId}-${cameraId}`,
    unique_id: cameraId,
    name: cameraId,
    label: cameraId,
    device_id: deviceId,
    camera_type: ip ? 'ip' : 'physical',
  };
}

/** Streams per device (what the opener counts for the quota check). */
export function streamsPerDevice(entries: readonly GridEntry[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of entries) out[e.deviceId] = (out[e.deviceId] ?? 0) + 1;
  return out;
}

/** The request a `stream.open` / `stream.openIp` asks the opener for (null: an IP camera without device). */
export function requestOf(
  context: CameraGridContext,
  event: CameraGridEvent,
): Omit<OpenRequest, 'id'> | null {
  if (event.type === 'stream.open') {
    return {
      deviceId: event.deviceId,
      camera: event.camera,
      resolution: event.resolution ?? null,
      chooseResolution: event.chooseResolution ?? false,
    };
  }
  if (event.type !== 'stream.openIp') return null;
  const ip = context.ipCameras.find((c) => c.id === event.ipCameraId);
  // §3: camera ids without deviceId are skipped.
  if (!ip?.deviceId) return null;
  const listed = context.devices[ip.deviceId]?.cameras.find(
    (c) => c.camera_type === 'ip' && c.camera_id === ip.id,
  );
  const camera: DeviceCamera = listed ?? {
    ...placeholderCamera(ip.deviceId, ip.id, `ip:${ip.id}`),
    name: ip.label,
    label: ip.label,
  };
  return {
    deviceId: ip.deviceId,
    camera,
    resolution: null,
    chooseResolution: event.chooseResolution ?? false,
  };
}
