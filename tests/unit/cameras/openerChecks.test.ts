import { describe, expect, it } from 'vitest';
import {
  candidatesFor,
  checkHolds,
  checksWantedAhead,
  keepChecks,
  numOfCamerasAhead,
  numOfCamerasNow,
  planChecks,
  stepAfterCheck,
  withOutcome,
  type KnownDevice,
  type OpenerCounts,
  type OpenRequest,
  type RequestCheck,
  type RequestCheckOutcome,
} from '../../../machines/cameras/openerChecks';
import { makeCamera } from '../machines/fixtures';

const request = (id: number, deviceId: string, i = id): OpenRequest => ({
  id,
  deviceId,
  camera: makeCamera(deviceId, i),
  resolution: null,
  chooseResolution: false,
});
const open = (...cameras: ReturnType<typeof makeCamera>[]): KnownDevice => ({
  label: 'Device',
  status: 'open',
  cameras,
});
const counts = (
  streams: Record<string, number>,
  current: OpenRequest | null,
  queue: OpenRequest[],
): OpenerCounts => ({ streams: (d) => streams[d] ?? 0, request: current, queue });
const answered = (outcome: Partial<RequestCheckOutcome> = {}): RequestCheckOutcome => ({
  quotaAvailable: true,
  quotaError: null,
  usage: { in_use: false, processes: [] },
  ...outcome,
});

describe('opener checks: numOfCameras', () => {
  it("counts the device's streams, the current request and the queued ones before it on that device, + 1", () => {
    const queue = [request(2, 'dev-1'), request(3, 'dev-2'), request(4, 'dev-1')];
    const c = counts({ 'dev-1': 2 }, request(1, 'dev-1'), queue);
    expect(numOfCamerasAhead(c, 0)).toBe(4); // 2 streams + current + 1
    expect(numOfCamerasAhead(c, 1)).toBe(1); // nothing on dev-2
    expect(numOfCamerasAhead(c, 2)).toBe(5); // 2 streams + current + the queued one + 1
  });

  it("asks for the current request with the device's streams + 1", () => {
    expect(numOfCamerasNow(counts({ 'dev-1': 3 }, request(1, 'dev-1'), []))).toBe(4);
  });
});

describe('opener checks: which run ahead', () => {
  it('checks ahead only queued requests whose device is connected and that need no chooser', () => {
    const shared = makeCamera('dev-1', 0); // unique_id 'u-cam0' on both devices
    const devices = { 'dev-1': open(shared, makeCamera('dev-1', 1)), 'dev-2': open(makeCamera('dev-2', 0)) };
    const queue = [request(1, 'dev-1', 0), request(2, 'dev-1', 1), request(3, 'dev-3', 1)];
    const wanted = checksWantedAhead(devices, counts({}, null, queue));
    expect(wanted.map((w) => [w.request.id, w.numOfCameras])).toEqual([[2, 2]]);
  });

  it('offers the devices that have the same physical camera, not IP cameras', () => {
    const devices = { 'dev-1': open(makeCamera('dev-1')), 'dev-2': open(makeCamera('dev-2')) };
    expect(candidatesFor(devices, request(1, 'dev-1', 0)).map((c) => c.deviceId)).toEqual(['dev-1', 'dev-2']);
    const ip = { ...makeCamera('dev-1'), camera_type: 'ip' as const };
    expect(candidatesFor(devices, { camera: ip })).toEqual([]);
    expect(
      candidatesFor(
        { ...devices, 'dev-2': { ...devices['dev-2'], status: 'reconnecting' } },
        request(1, 'dev-1', 0),
      ),
    ).toHaveLength(1);
  });
});

describe('opener checks: made ahead, kept or made again', () => {
  const check = (numOfCameras: number): RequestCheck => ({
    checkId: 'check-1',
    deviceId: 'dev-1',
    cameraId: 'cam1',
    numOfCameras,
    outcome: null,
  });

  it('holds a check only for the same device, camera and count', () => {
    const want = { deviceId: 'dev-1', cameraId: 'cam1', numOfCameras: 2 };
    expect(checkHolds(check(2), want)).toBe(true);
    expect(checkHolds(check(3), want)).toBe(false);
    expect(checkHolds(check(2), { ...want, cameraId: 'cam2' })).toBe(false);
    expect(checkHolds(undefined, want)).toBe(false);
  });

  it('keeps a check that holds, stops and re-runs one whose count no longer holds', () => {
    const plan = planChecks({ 1: check(2) }, 1, [
      { request: request(1, 'dev-1'), numOfCameras: 1 },
      { request: request(2, 'dev-1'), numOfCameras: 2 },
    ]);
    expect(plan.stop).toEqual(['check-1']);
    expect(plan.start.map((s) => [s.checkId, s.requestId, s.numOfCameras])).toEqual([
      ['check-2', 1, 1],
      ['check-3', 2, 2],
    ]);
    expect(plan.checked).toBe(3);
    const again = planChecks(plan.checks, plan.checked, [{ request: request(1, 'dev-1'), numOfCameras: 1 }]);
    expect(again.start).toEqual([]);
    expect(again.stop).toEqual([]);
  });

  it('drops the checks of requests no longer current or queued', () => {
    const kept = keepChecks({ 1: check(1), 2: { ...check(2), checkId: 'check-2' } }, new Set([2]));
    expect(kept.stop).toEqual(['check-1']);
    expect(Object.keys(kept.checks)).toEqual(['2']);
  });

  it('keeps an answer only from the check that is current for its request', () => {
    const checks = { 1: check(1) };
    expect(withOutcome(checks, { checkId: 'check-0', requestId: 1, ...answered() })).toBe(checks);
    expect(withOutcome(checks, { checkId: 'check-1', requestId: 1, ...answered() })[1]?.outcome).toEqual(
      answered(),
    );
  });
});

describe('opener checks: the step after a check', () => {
  it('waits for the answer, refuses without quota, offers the conflict dialog when in use, else admits', () => {
    expect(stepAfterCheck(null)).toBe('waiting');
    expect(stepAfterCheck(answered({ quotaAvailable: false }))).toBe('refused');
    expect(
      stepAfterCheck(answered({ usage: { in_use: true, processes: [{ id: 'x', kind: 'stream' }] } })),
    ).toBe('conflict');
    expect(stepAfterCheck(answered())).toBe('admitted');
    // A device that did not answer the usage check does not block the stream.
    expect(stepAfterCheck(answered({ usage: null }))).toBe('admitted');
  });
});
