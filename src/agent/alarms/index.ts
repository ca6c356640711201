/**
 * The device's alarms part (issue 11; spec §3 Alarm, §4 start step 1, §7 alarm-new): the device keeps the
 * alarm list it was sent (alarm-new replaces it; kept in its state directory across restarts, and asked from
 * the server with the device token when the agent starts), matches every inferred frame's detections
 * against it (match.ts: camera, class, score, zone, calendar, silence, blacklist, cooldown per alarm and
 * track) and, for each firing, posts an event to the server with a JPEG snapshot of the frame (box drawn)
 * and then a CLIP_MS clip (MP4) of the camera from that frame on (media.ts; post.ts).
 *
 * `onDetections` is called by the inference part for every inferred frame of a running job, on its frame
 * path: it matches synchronously, copies the frame only when an alarm fires or a clip is being recorded, and
 * does the encoding and posting asynchronously.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DeviceAlarm } from '../../protocol/alarms';
import type { DeviceEventPostIn } from '../../protocol/events';
import type { Detection, StartOptions } from '../../protocol/inference';
import type { I420Frame } from '../backends/types';
import { errorMessage } from '../log';
import type { AgentPartDeps } from '../parts';
import { Cooldowns, firingsOf, identityOf, type CameraRef, type Firing } from './match';
import { CLIP_MS, ClipRecorder, encodeJpeg, withBox } from './media';
import { httpEventServer, type EventServer } from './post';

export { firingsOf, Cooldowns } from './match';

/** The job whose frame was inferred: its id and camera. */
export type AlarmJob = Pick<StartOptions, 'job_id' | 'camera_id'>;

/** Called by the inference part for every inferred frame of a running job. */
export type DetectionsTap = (
  job: AlarmJob,
  frame: I420Frame,
  detections: readonly Detection[],
  wall: number,
) => void;

export interface DeviceAlarms {
  /** §7 alarm-new: replaces the alarm list (kept across restarts); returns how many. */
  set(alarms: DeviceAlarm[]): Promise<number>;
  list(): DeviceAlarm[];
  onDetections: DetectionsTap;
  /** Resolves once every event under way has been posted (tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface DeviceAlarmsOptions {
  /** Where events go (default: the server of deps.server; none: events are only logged). */
  server?: EventServer | null;
  /** Whether a camera id is one of the server's IP cameras (default: none is). */
  isIpCamera?: (cameraId: string) => boolean;
  /** Record clips (default true; tests without ffmpeg may turn it off). */
  clips?: boolean;
}

const Stored = z.object({ alarms: z.array(DeviceAlarm) });

export function createDeviceAlarms(deps: AgentPartDeps, options: DeviceAlarmsOptions = {}): DeviceAlarms {
  const log = deps.log;
  const file = join(deps.stateDir, 'alarms.json');
  const server =
    options.server === undefined ? (deps.server ? httpEventServer(deps.server) : null) : options.server;
  const clipsOn = options.clips ?? true;
  const cooldowns = new Cooldowns();
  const clips = new Map<string, { rec: ClipRecorder; eventIds: Promise<string | null>[] }>();
  const pending = new Set<Promise<unknown>>();
  let alarms: DeviceAlarm[] = [];
  let setByCommand = false;
  let closed = false;

  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    void p.finally(() => pending.delete(p)).catch(() => undefined);
    return p;
  };

  async function save(list: DeviceAlarm[]): Promise<void> {
    await mkdir(deps.stateDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify({ alarms: list }), { mode: 0o600 });
    await rename(tmp, file);
  }

  // The list kept from the last run, then the server's (unless alarm-new came first).
  const loaded = (async () => {
    try {
      const stored = Stored.safeParse(JSON.parse(await readFile(file, 'utf8')));
      if (stored.success && !setByCommand) alarms = stored.data.alarms;
    } catch {
      // no list kept yet
    }
    if (!server) return;
    try {
      const fresh = await server.alarms();
      if (fresh && !setByCommand && !closed) {
        alarms = fresh;
        await save(fresh);
      }
    } catch (err) {
      log.warn(`alarms: the server's list could not be read (the kept one is used): ${errorMessage(err)}`);
    }
  })();
  void track(loaded);

  async function post(firing: Firing, job: AlarmJob, camera: CameraRef, snapshot: I420Frame, at: number) {
    const d = firing.detection;
    const body: DeviceEventPostIn = {
      idempotency_key: `${deps.deviceId}:${randomUUID()}`,
      alarm_id: firing.alarm.id,
      camera_id: firing.source.value,
      camera_kind: camera.kind,
      job_id: job.job_id,
      track_id: d.track_id ? String(d.track_id) : null,
      at: new Date(at).toISOString(),
      class: d.class_name,
      score: Math.max(0, Math.min(1, d.score)),
      box: {
        x: clamp01(d.box[0]),
        y: clamp01(d.box[1]),
        w: clamp01(d.box[2]),
        h: clamp01(d.box[3]),
      },
      identity: identityOf(d),
      attributes: attributesOf(d),
    };
    if (!server) {
      log.info(`alarm ${firing.alarm.name}: ${d.class_name} on ${camera.cameraId} (no server to post to)`);
      return null;
    }
    const id = await server.postEvent(body);
    log.info(
      `alarm ${firing.alarm.name}: event ${id} (${d.class_name} ${d.score.toFixed(2)} on ${camera.cameraId})`,
    );
    const jpeg = await encodeJpeg(withBox(snapshot, d.box));
    await server.putMedia(id, 'snapshot', jpeg);
    return id;
  }

  /** Ends the job's clip (only `which` when given) and stores it with every event that fired during it. */
  function finishClip(jobId: string, which?: ClipRecorder): void {
    const c = clips.get(jobId);
    if (!c || (which && c.rec !== which)) return;
    clips.delete(jobId);
    void track(
      (async () => {
        const bytes = await c.rec.encode();
        const ids = (await Promise.all(c.eventIds.map((p) => p.catch(() => null)))).filter(
          (x): x is string => !!x,
        );
        if (!server) return;
        for (const id of ids) await server.putMedia(id, 'clip', bytes);
      })().catch((err) => log.warn(`alarms: a clip could not be stored: ${errorMessage(err)}`)),
    );
  }

  const onDetections: DetectionsTap = (job, frame, detections, wall) => {
    if (closed) return;
    const rec = clips.get(job.job_id);
    if (rec && !rec.rec.add(frame, wall)) finishClip(job.job_id);
    if (alarms.length === 0 || detections.length === 0) return;
    const camera: CameraRef = {
      deviceId: deps.deviceId,
      cameraId: job.camera_id,
      kind: options.isIpCamera?.(job.camera_id) ? 'IP' : 'PHYSICAL',
    };
    const firings = firingsOf(alarms, camera, detections, wall, cooldowns);
    if (firings.length === 0) return;
    const snapshot: I420Frame = { width: frame.width, height: frame.height, data: frame.data.slice() };
    let clip = clips.get(job.job_id);
    if (!clip && clipsOn) {
      const rec = new ClipRecorder(snapshot, wall);
      clip = { rec, eventIds: [] };
      clips.set(job.job_id, clip);
      // A job that stops (or stalls) mid-clip still gets its clip stored.
      setTimeout(() => finishClip(job.job_id, rec), CLIP_MS + 1_000).unref();
    }
    for (const f of firings) {
      const p = track(post(f, job, camera, snapshot, wall));
      p.catch((err) =>
        log.warn(`alarm ${f.alarm.name}: the event could not be posted: ${errorMessage(err)}`),
      );
      clip?.eventIds.push(p);
    }
  };

  return {
    async set(list) {
      setByCommand = true;
      alarms = list.map((a) => DeviceAlarm.parse(a));
      cooldowns.retain(new Set(alarms.map((a) => a.id)));
      await save(alarms);
      log.info(`alarms: ${alarms.length} alarm(s) kept`);
      return alarms.length;
    },
    list: () => [...alarms],
    onDetections,
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async close() {
      closed = true;
      for (const id of [...clips.keys()]) finishClip(id);
      await Promise.race([Promise.allSettled([...pending]), new Promise((r) => setTimeout(r, 5_000))]);
    },
  };
}

const clamp01 = (v: number) => Math.max(0, Math.min(1, v));

/** A detection's extra attributes (age band, gender, plate…) as flat JSON values. */
function attributesOf(d: Detection): Record<string, string | number | boolean | null> {
  const raw = (d as Detection & { attributes?: Record<string, unknown> }).attributes;
  const out: Record<string, string | number | boolean | null> = {};
  if (!raw || typeof raw !== 'object') return out;
  for (const [k, v] of Object.entries(raw).slice(0, 32)) {
    if (k.length > 100) continue;
    if (typeof v === 'string') out[k] = v.slice(0, 200);
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null) out[k] = v;
  }
  return out;
}
