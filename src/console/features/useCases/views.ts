/**
 * Pure views of the use-case screens (issue 11 "use cases"; spec §2 /use-cases/person-counter (+ /analytics),
 * /use-cases/demographic, /use-cases/vehicle-plate-detection; answers of src/protocol/analytics.ts):
 * the windows the screens ask for, the counts / people / vehicles answers as chart series and table rows, the
 * analytics CSV, the analytics page's URL query (so a chosen period survives a reload and can be shared),
 * and the device → camera → job choice built from the inference jobs list.
 */
import {
  BUCKETS_MAX,
  type CountingLine,
  type CountsAnswer,
  type PeopleAnswer,
  type UseCase,
  type VehiclesAnswer,
} from '../../../protocol/analytics';

/** Interval choices of the analytics page, s (1 min … 1 day). */
export const INTERVALS = [60, 300, 900, 3600, 86_400] as const;
/** Period choices of the analytics page, s back from now. */
export const PERIODS = [900, 3600, 6 * 3600, 86_400, 7 * 86_400] as const;

/** A window [from, to) with its bucket, as the counts/people routes take it (ISO instants, s). */
export interface WindowQuery {
  from: string;
  to: string;
  bucket_seconds: number;
}

/** The smallest bucket ≥ `preferred` s that keeps [from, to) within BUCKETS_MAX buckets. */
export function bucketFor(fromMs: number, toMs: number, preferred: number): number {
  const span = Math.max(1, (toMs - fromMs) / 1000);
  return Math.max(preferred, Math.ceil(span / BUCKETS_MAX));
}

/**
 * The live window of a use case: from its start (created_at) to `now` (rounded up to the next second so the
 * last record is inside), bucketed by its interval (widened when the span needs it).
 */
export function liveWindow(u: Pick<UseCase, 'created_at' | 'interval_seconds'>, now: number): WindowQuery {
  const from = Date.parse(u.created_at);
  const to = Math.max(from + 1000, Math.ceil(now / 1000) * 1000 + 1000);
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    bucket_seconds: bucketFor(from, to, u.interval_seconds),
  };
}

/** The analytics page's query: which person counter, the period [from, to) and the interval. */
export interface AnalyticsQuery {
  useCaseId: string | null;
  from: number;
  to: number;
  bucket: number;
}

const parseInstant = (v: string | null): number | null => {
  if (!v) return null;
  const n = Date.parse(v);
  return Number.isFinite(n) ? n : null;
};

/**
 * Reads ?use_case=&from=&to=&bucket= (ISO instants, s). Missing or bad values: the last hour to now, 60 s
 * buckets; a bucket too small for the period is widened (BUCKETS_MAX).
 */
export function analyticsQueryOf(search: string, now: number): AnalyticsQuery {
  const p = new URLSearchParams(search);
  let to = parseInstant(p.get('to')) ?? now;
  let from = parseInstant(p.get('from')) ?? to - 3600_000;
  if (from >= to) {
    from = to - 3600_000;
    to = from + 3600_000;
  }
  const asked = Number(p.get('bucket'));
  const bucket = Number.isInteger(asked) && asked >= 1 && asked <= 31 * 86_400 ? asked : 60;
  return { useCaseId: p.get('use_case') || null, from, to, bucket: bucketFor(from, to, bucket) };
}

/** The URL query of an analytics query (inverse of analyticsQueryOf). */
export function analyticsSearchOf(q: AnalyticsQuery): string {
  const p = new URLSearchParams();
  if (q.useCaseId) p.set('use_case', q.useCaseId);
  p.set('from', new Date(q.from).toISOString());
  p.set('to', new Date(q.to).toISOString());
  p.set('bucket', String(q.bucket));
  return `?${p.toString()}`;
}

/** The window of an analytics query. */
export const windowOfQuery = (q: AnalyticsQuery): WindowQuery => ({
  from: new Date(q.from).toISOString(),
  to: new Date(q.to).toISOString(),
  bucket_seconds: q.bucket,
});

/** Counts as a chart ([x in s, in, out]) and a table; net = in − out. */
export interface CountsView {
  chart: [number[], number[], number[]];
  rows: { start: string; in: number; out: number }[];
  total: { in: number; out: number; net: number };
}

export function countsView(a: CountsAnswer): CountsView {
  return {
    chart: [
      a.buckets.map((b) => Date.parse(b.start) / 1000),
      a.buckets.map((b) => b.in),
      a.buckets.map((b) => b.out),
    ],
    rows: a.buckets.map((b) => ({ start: b.start, in: b.in, out: b.out })),
    total: { in: a.total.in, out: a.total.out, net: a.total.in - a.total.out },
  };
}

/** RFC 4180 cell; text starting with = + - @ gets a leading ' (no formula runs when a sheet opens it). */
const csvCell = (v: string | number) => {
  const s = typeof v === 'string' && /^[=+\-@]/.test(v) ? `'${v}` : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** CSV of a counter's buckets: header, one row per bucket (start ISO, end ISO, in, out), then the total. */
export function countsCsv(a: CountsAnswer, bucketSeconds: number, name: string): string {
  const lines = [['use_case', 'bucket_start', 'bucket_end', 'in', 'out'].join(',')];
  for (const b of a.buckets) {
    const end = new Date(Date.parse(b.start) + bucketSeconds * 1000).toISOString();
    lines.push([name, b.start, end, b.in, b.out].map(csvCell).join(','));
  }
  lines.push([name, 'total', '', a.total.in, a.total.out].map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** People per age band and gender over the window: a table (every age band seen, each gender) and totals. */
export interface PeopleView {
  ageBands: string[];
  genders: string[];
  /** cells[band][gender]: distinct people first seen in the window. */
  cells: Record<string, Record<string, number>>;
  byGender: Record<string, number>;
  total: number;
  /** Chart: x = age band index, one series per gender. */
  chart: number[][];
}

/** Known orders (the sim engine's bands, src/agent/backends/sim/scene.ts); unknown values sort after. */
const BAND_ORDER = ['0-17', '18-24', '25-34', '35-44', '45-54', '55-64', '65+'];
const GENDER_ORDER = ['female', 'male'];
const ordered = (values: Iterable<string>, order: string[]) =>
  [...new Set(values)].sort((a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib) || a.localeCompare(b);
  });

export function peopleView(a: PeopleAnswer): PeopleView {
  const ageBands = ordered([...BAND_ORDER, ...a.people.map((p) => p.age_band || '?')], BAND_ORDER);
  const genders = ordered([...GENDER_ORDER, ...a.people.map((p) => p.gender || '?')], GENDER_ORDER);
  const cells: Record<string, Record<string, number>> = {};
  for (const b of ageBands) cells[b] = Object.fromEntries(genders.map((g) => [g, 0]));
  const byGender: Record<string, number> = Object.fromEntries(genders.map((g) => [g, 0]));
  for (const p of a.people) {
    const band = p.age_band || '?';
    const g = p.gender || '?';
    cells[band]![g]! += 1;
    byGender[g]! += 1;
  }
  return {
    ageBands,
    genders,
    cells,
    byGender,
    total: a.people.length,
    chart: [ageBands.map((_, i) => i), ...genders.map((g) => ageBands.map((b) => cells[b]![g]!))],
  };
}

/** One vehicle row: plate, first and last seen (ISO), speed px/s (null: not measured), camera. */
export interface VehicleRow {
  plate: string;
  firstSeen: string;
  lastSeen: string;
  speed: number | null;
  camera: string;
}

export const vehiclesView = (a: VehiclesAnswer, camera: string): VehicleRow[] =>
  a.vehicles.map((v) => ({
    plate: v.plate,
    firstSeen: v.first_seen,
    lastSeen: v.last_seen,
    speed: v.speed,
    camera,
  }));

/** A job as the inference jobs list gives it (src/console/features/inference/selectors.ts JobRow). */
export interface PickJob {
  id: string;
  name: string;
  device: string;
  deviceId: string;
  camera: string;
  cameraId: string;
  state: string;
}

/** The device → camera → job choice of the start form. */
export interface JobChoice {
  deviceId: string;
  cameraId: string;
  jobId: string;
}

export interface PickerView {
  devices: { value: string; label: string }[];
  cameras: { value: string; label: string }[];
  jobs: { value: string; label: string }[];
  /** The choice made whole: the only (or first) camera and job filled in, a stale one dropped. */
  choice: JobChoice;
}

/**
 * The start form's choices from the inference jobs list: devices with a started job, that device's cameras
 * with a started job, that camera's started jobs (a use case reads a running job's detections).
 */
export function pickerOf(jobs: readonly PickJob[], choice: JobChoice): PickerView {
  const started = jobs.filter((j) => j.state === 'started');
  const uniq = (rows: { value: string; label: string }[]) =>
    rows.filter((r, i) => rows.findIndex((x) => x.value === r.value) === i);
  const devices = uniq(started.map((j) => ({ value: j.deviceId, label: j.device || j.deviceId })));
  const deviceId = devices.some((d) => d.value === choice.deviceId)
    ? choice.deviceId
    : (devices[0]?.value ?? '');
  const onDevice = started.filter((j) => j.deviceId === deviceId);
  const cameras = uniq(onDevice.map((j) => ({ value: j.cameraId, label: j.camera || j.cameraId })));
  const cameraId = cameras.some((c) => c.value === choice.cameraId)
    ? choice.cameraId
    : (cameras[0]?.value ?? '');
  const onCamera = onDevice.filter((j) => j.cameraId === cameraId);
  const jobsOut = onCamera.map((j) => ({ value: j.id, label: j.name }));
  const jobId = jobsOut.some((j) => j.value === choice.jobId) ? choice.jobId : (jobsOut[0]?.value ?? '');
  return { devices, cameras, jobs: jobsOut, choice: { deviceId, cameraId, jobId } };
}

/** A line rounded to 3 decimals (what the inputs show and the contract keeps). */
export const roundLine = (l: CountingLine): CountingLine => ({
  x1: Math.round(l.x1 * 1000) / 1000,
  y1: Math.round(l.y1 * 1000) / 1000,
  x2: Math.round(l.x2 * 1000) / 1000,
  y2: Math.round(l.y2 * 1000) / 1000,
});

/** The default line: top to bottom through the middle (counts left → right as in). */
export const DEFAULT_LINE: CountingLine = { x1: 0.5, y1: 0.1, x2: 0.5, y2: 0.9 };

/** An instant as a datetime-local input's value (the browser's time zone, to the second). */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** A datetime-local input's value as ms since the epoch (null when empty or bad). */
export function fromLocalInput(v: string): number | null {
  if (!v) return null;
  const n = new Date(v).getTime();
  return Number.isFinite(n) ? n : null;
}

/** The BCP 47 locale of an interface language (one definition, in i18n/language.ts). */
export { localeOf } from '../../i18n/language';
