/**
 * The opener's decisions as pure functions (machines/cameras/opener.machine.ts): which connected devices
 * offer a physical camera (§2 chooser), what usage/check_stream_limit `numOfCameras` a request's check
 * asks (§4 stream slots, §7), whether a check made ahead still holds, which checks to start and stop, and
 * which step comes next from a check's answer (§4 "A stream quota is available or not", "Camera use").
 */
import type { CommandReply, DeviceCamera, ResolutionOption } from '../../src/protocol/commands';
import type { DeviceConnectionStatus } from '../devices/deviceConnection.machine';

/** What the pool last said about a device. */
export interface KnownDevice {
  label: string;
  status: DeviceConnectionStatus;
  cameras: DeviceCamera[];
}

/** A stream the user asked to open. */
export interface OpenRequest {
  /** Sequence number of the request (its check is `checks[id]`). */
  id: number;
  deviceId: string;
  camera: DeviceCamera;
  resolution: ResolutionOption | null;
  /** Offer the supported resolutions before opening. */
  chooseResolution: boolean;
}

/** A device that has the requested physical camera (chooser dialog). */
export interface CameraCandidate {
  deviceId: string;
  deviceLabel: string;
  camera: DeviceCamera;
}

/** What `checkRequest` checks (§4 stream quota and camera use) for one request. */
export interface RequestCheckInput {
  /** The spawned check's actor id; its `opener.checked` event carries it back. */
  checkId: string;
  requestId: number;
  deviceId: string;
  cameraId: string;
  /** usage/check_stream_limit numOfCameras: the device's streams, the requests before this one on it, + 1. */
  numOfCameras: number;
}

/** `checkRequest`'s answer: usage/check_stream_limit and check-camera-usage, asked together. */
export interface RequestCheckOutcome {
  /** is_quota_available; false also when the quota could not be checked (then `quotaError` says why). */
  quotaAvailable: boolean;
  quotaError: string | null;
  /** check-camera-usage's reply; null when the device did not answer (that does not block the stream). */
  usage: CommandReply<'check-camera-usage'> | null;
}

/** A check made for a request, and its outcome once answered. */
export interface RequestCheck {
  checkId: string;
  deviceId: string;
  cameraId: string;
  numOfCameras: number;
  outcome: RequestCheckOutcome | null;
}

/** What a check is made for: a device, a camera and a count. */
export type CheckWant = Omit<RequestCheck, 'checkId' | 'outcome'>;

/** Connected devices that have a physical camera with the request's unique_id (none for IP cameras). */
export function candidatesFor(
  devices: Readonly<Record<string, KnownDevice>>,
  request: Pick<OpenRequest, 'camera'>,
): CameraCandidate[] {
  if (request.camera.camera_type === 'ip' || !request.camera.unique_id) return [];
  const out: CameraCandidate[] = [];
  for (const [deviceId, d] of Object.entries(devices)) {
    if (d.status !== 'open') continue;
    const camera = d.cameras.find((c) => c.unique_id === request.camera.unique_id && c.camera_type !== 'ip');
    if (camera) out.push({ deviceId, deviceLabel: d.label, camera });
  }
  return out;
}

/** What the opener counts of a device's streams when it asks for a check. */
export interface OpenerCounts {
  /** Streams on the grid per device (as the grid last reported, plus those admitted since). */
  streams: (deviceId: string) => number;
  /** The request the opener works on. */
  request: OpenRequest | null;
  queue: readonly OpenRequest[];
}

/**
 * usage/check_stream_limit numOfCameras for the queued request at `index`: the device's streams, the
 * current request and the queued requests before it on that device, + 1.
 */
export function numOfCamerasAhead(counts: OpenerCounts, index: number): number {
  const request = counts.queue[index];
  if (!request) throw new Error(`numOfCamerasAhead: no queued request at ${index}`);
  const { deviceId } = request;
  return (
    counts.streams(deviceId) +
    (counts.request?.deviceId === deviceId ? 1 : 0) +
    counts.queue.slice(0, index).filter((r) => r.deviceId === deviceId).length +
    1
  );
}

/** numOfCameras for the current request (nothing is ahead of it): the device's streams + 1. */
export function numOfCamerasNow(counts: OpenerCounts): number {
  return counts.request ? counts.streams(counts.request.deviceId) + 1 : 0;
}

/**
 * The checks wanted ahead: every queued request that needs no dialog first (device connected, at most one
 * candidate), with its present count.
 */
export function checksWantedAhead(
  devices: Readonly<Record<string, KnownDevice>>,
  counts: OpenerCounts,
): Array<{ request: OpenRequest; numOfCameras: number }> {
  return counts.queue.flatMap((request, index) =>
    devices[request.deviceId]?.status === 'open' && candidatesFor(devices, request).length <= 1
      ? [{ request, numOfCameras: numOfCamerasAhead(counts, index) }]
      : [],
  );
}

/** True when `check` was made for this device, camera and count (else it no longer holds: re-run it). */
export function checkHolds(check: RequestCheck | undefined, want: CheckWant): boolean {
  return (
    !!check &&
    check.deviceId === want.deviceId &&
    check.cameraId === want.cameraId &&
    check.numOfCameras === want.numOfCameras
  );
}

/** What to do so each wanted request has a check that holds. */
export interface CheckPlan {
  /** Check actor ids to stop (their count no longer holds). */
  stop: string[];
  /** Checks to spawn (actor id `check-<n>`). */
  start: RequestCheckInput[];
  /** The checks by request id afterwards. */
  checks: Record<number, RequestCheck>;
  /** Checks made so far, afterwards. */
  checked: number;
}

/** Plans the checks: a request whose check holds keeps it; others get a new one (the old one stopped). */
export function planChecks(
  checks: Readonly<Record<number, RequestCheck>>,
  checked: number,
  wanted: ReadonlyArray<{ request: OpenRequest; numOfCameras: number }>,
): CheckPlan {
  const plan: CheckPlan = { stop: [], start: [], checks: { ...checks }, checked };
  for (const { request, numOfCameras } of wanted) {
    const want = { deviceId: request.deviceId, cameraId: request.camera.camera_id, numOfCameras };
    const check = plan.checks[request.id];
    if (checkHolds(check, want)) continue;
    if (check) plan.stop.push(check.checkId);
    plan.checked += 1;
    const checkId = `check-${plan.checked}`;
    plan.checks[request.id] = { ...want, checkId, outcome: null };
    plan.start.push({ ...want, checkId, requestId: request.id });
  }
  return plan;
}

/** The checks of the requests in `keep`, and the actor ids of the others (to stop). */
export function keepChecks(
  checks: Readonly<Record<number, RequestCheck>>,
  keep: ReadonlySet<number>,
): { stop: string[]; checks: Record<number, RequestCheck> } {
  const entries = Object.entries(checks);
  return {
    stop: entries.filter(([id]) => !keep.has(Number(id))).map(([, c]) => c.checkId),
    checks: Object.fromEntries(entries.filter(([id]) => keep.has(Number(id)))),
  };
}

/** Keeps an answer only from the check that is current for its request (a stopped one may still answer). */
export function withOutcome(
  checks: Readonly<Record<number, RequestCheck>>,
  answer: RequestCheckOutcome & { checkId: string; requestId: number },
): Readonly<Record<number, RequestCheck>> {
  const check = checks[answer.requestId];
  if (!check || check.checkId !== answer.checkId) return checks;
  const { quotaAvailable, quotaError, usage } = answer;
  return { ...checks, [answer.requestId]: { ...check, outcome: { quotaAvailable, quotaError, usage } } };
}

/**
 * The step a check's answer leads to: 'waiting' (no answer yet), 'refused' (no quota, §4), 'conflict'
 * (camera in use, §4 Camera use), else 'admitted' — an unanswered usage check (usage null) does not block.
 */
export function stepAfterCheck(
  outcome: RequestCheckOutcome | null,
): 'waiting' | 'refused' | 'conflict' | 'admitted' {
  if (!outcome) return 'waiting';
  if (!outcome.quotaAvailable) return 'refused';
  if (outcome.usage?.in_use === true) return 'conflict';
  return 'admitted';
}
