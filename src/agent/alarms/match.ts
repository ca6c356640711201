/**
 * Which detections fire which alarms (issue 11; spec §3 Alarm): pure functions, no clock or I/O.
 *
 * A detection fires an alarm when the alarm is active at the frame's time (enabled, not silenced, inside one
 * of its calendars or without any: alarmActiveAt), the job's camera is one of its sources, its class is one of
 * the alarm's (none listed: any), its score reaches min_score, the bottom centre of its box (where an object
 * stands) lies in one of the zones (none drawn: the whole frame), a face alarm's identity is on its blacklist,
 * and the same alarm has not fired for the same tracked object within cooldown_seconds.
 */
import { alarmActiveAt, type AlarmSource, type DeviceAlarm, type Zone } from '../../protocol/alarms';
import type { Detection } from '../../protocol/inference';

/** Ray casting: is (x, y) inside the polygon (points in the same frame coordinates)? Edges count as inside. */
export function pointInPolygon(x: number, y: number, polygon: Zone): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    // On the edge (collinear and between the ends): inside.
    const cross = (xj - xi) * (y - yi) - (yj - yi) * (x - xi);
    if (
      Math.abs(cross) < 1e-12 &&
      x >= Math.min(xi, xj) &&
      x <= Math.max(xi, xj) &&
      y >= Math.min(yi, yj) &&
      y <= Math.max(yi, yj)
    )
      return true;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The bottom centre of a box [x, y, w, h] (0..1): where the object touches the ground. */
export const bottomCentre = (box: readonly [number, number, number, number]): [number, number] => [
  box[0] + box[2] / 2,
  box[1] + box[3],
];

/** The camera a job runs on, as the device knows it. */
export interface CameraRef {
  /** This device's id (peer id). */
  deviceId: string;
  /** The camera's id on the device (a job's camera_id). */
  cameraId: string;
  /** 'IP' when the camera is one of the server's IP cameras, else 'PHYSICAL'. */
  kind: 'IP' | 'PHYSICAL';
}

/** The alarm source naming this camera, or undefined: a PHYSICAL source names `<device_id>_<camera_id>`. */
export function sourceOf(alarm: Pick<DeviceAlarm, 'sources'>, camera: CameraRef): AlarmSource | undefined {
  const unique = `${camera.deviceId}_${camera.cameraId}`;
  return alarm.sources.find((s) =>
    s.type === 'IP' ? s.value === camera.cameraId : s.value === unique || s.value === camera.cameraId,
  );
}

/** A detection's identity (face engines, the sim scene's people), or null. */
export function identityOf(d: Detection): string | null {
  const x = d as Detection & { identity?: unknown; attributes?: { identity?: unknown } };
  const id = x.identity ?? x.attributes?.identity;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

/** Does the detection match the alarm's class, score, zones and blacklist (time and cooldown aside)? */
export function detectionMatches(alarm: DeviceAlarm, d: Detection): boolean {
  if (alarm.classes.length > 0 && !alarm.classes.includes(d.class_name)) return false;
  if (d.score < alarm.min_score) return false;
  if (alarm.zones.length > 0) {
    const [x, y] = bottomCentre(d.box);
    if (!alarm.zones.some((z) => pointInPolygon(x, y, z))) return false;
  }
  if (alarm.kind === 'face') {
    const id = identityOf(d);
    if (!id || !alarm.identities.includes(id)) return false;
  }
  return true;
}

/** One firing: the alarm, the detection that fired it and the source naming its camera. */
export interface Firing {
  alarm: DeviceAlarm;
  source: AlarmSource;
  detection: Detection;
  /** Cooldown key (alarm, camera, track). */
  key: string;
}

/**
 * The per-(alarm, camera, track) cooldown. `fire` answers whether a firing at `at` (ms) is allowed and, when
 * it is, remembers it. An untracked detection (track 0) shares the camera's key, so an untracked alarm fires at
 * most once per cooldown per camera.
 */
export class Cooldowns {
  private readonly last = new Map<string, number>();

  fire(key: string, at: number, cooldownS: number): boolean {
    const prev = this.last.get(key);
    if (prev !== undefined && at - prev < cooldownS * 1000 && at >= prev) return false;
    this.last.set(key, at);
    if (this.last.size > 10_000) this.prune(at);
    return true;
  }

  /** Forgets keys older than a day. */
  prune(now: number): void {
    for (const [k, t] of this.last) if (now - t > 86_400_000) this.last.delete(k);
  }

  /**
   * Keeps the cooldowns of the given alarms and forgets the others' (a new alarm list, `alarm-new`): an alarm
   * kept across a list change — e.g. every face alarm after a gallery change — does not fire again at once for
   * the objects it has just fired on.
   */
  retain(alarmIds: ReadonlySet<string>): void {
    for (const k of this.last.keys()) if (!alarmIds.has(k.slice(0, k.indexOf('|')))) this.last.delete(k);
  }

  clear(): void {
    this.last.clear();
  }
}

/**
 * The firings of one inferred frame: every (alarm, detection) pair that matches, active at `at`, and out of
 * its cooldown (which this call updates).
 */
export function firingsOf(
  alarms: readonly DeviceAlarm[],
  camera: CameraRef,
  detections: readonly Detection[],
  at: number,
  cooldowns: Cooldowns,
): Firing[] {
  const out: Firing[] = [];
  for (const alarm of alarms) {
    const source = sourceOf(alarm, camera);
    if (!source || !alarmActiveAt(alarm, at)) continue;
    for (const d of detections) {
      if (!detectionMatches(alarm, d)) continue;
      const key = `${alarm.id}|${camera.cameraId}|${d.track_id}`;
      if (!cooldowns.fire(key, at, alarm.cooldown_seconds)) continue;
      out.push({ alarm, source, detection: d, key });
    }
  }
  return out;
}
