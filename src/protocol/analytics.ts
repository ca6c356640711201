/**
 * The analytics feature's contract (issue 11 "Analytics": `/analytics/dashboard-collections-manager`,
 * `/analytics/dashboard-collection/{id}`, `/analytics/dashboard/{id}` of spec §2; and the use cases
 * `/use-cases/person-counter` (+ `/analytics`), `/use-cases/demographic`, `/use-cases/vehicle-plate-detection`).
 *
 * Use cases: a use case watches one running inference job's tracked detections on the device
 * (src/agent/useCases/): a person counter counts the people whose box centre crosses its line (in/out,
 * src/protocol/analyticsGeometry.ts); a demographic use case records each person seen (identity, age band,
 * gender); a plate use case each vehicle seen (plate, speed in px/s). The device posts these records
 * (`useCases.devicePost`, idempotent by key) and the server keeps them in its own table (use_case_records:
 * they are measurements, not alarm events, and need no review), aggregated by time bucket.
 *
 * Dashboards: collections of dashboards; a dashboard is a grid of charts (react-grid-layout layout saved with
 * it); each chart is an aggregate (count by time bucket or by a dimension) of one data source, computed in
 * PostgreSQL (date_bin). A dashboard's filters (chips set by clicking a chart) apply to all its charts.
 */
import { z } from 'zod';
import { defineRoutes, Id } from './route';

const Uuid = z.uuid().meta({ examples: ['2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11'] });
const Name = z.string().trim().min(1, 'Name is required').max(120);

/** Use-case kinds (the three §2 routes). */
export const USE_CASE_KINDS = ['person-counter', 'demographic', 'vehicle-plate'] as const;
export const UseCaseKind = z.enum(USE_CASE_KINDS);
export type UseCaseKind = z.infer<typeof UseCaseKind>;

/** Most use cases per user; most records per device post; largest bucket count an aggregate answers. */
export const USE_CASES_MAX = 200;
export const RECORDS_POST_MAX = 500;
export const BUCKETS_MAX = 2000;
/** Default counting interval of a use case, s. */
export const DEFAULT_INTERVAL_SECONDS = 60;

const Frac = z.number().min(0).max(1);
/** A counting line in fractions of the frame (see analyticsGeometry.ts for its in/out direction). */
export const CountingLine = z
  .object({ x1: Frac, y1: Frac, x2: Frac, y2: Frac })
  .strict()
  .refine((l) => Math.hypot(l.x2 - l.x1, l.y2 - l.y1) >= 0.02, { message: 'Draw a longer line' });
export type CountingLine = z.infer<typeof CountingLine>;

/** A use case's editable fields. job_id: the inference job (§3 Job.id) whose detections it reads. */
export const UseCaseInput = z
  .object({
    name: Name,
    kind: UseCaseKind,
    job_id: Uuid,
    /** Required for a person counter; ignored otherwise. */
    line: CountingLine.nullable().default(null),
    /** The interval counts are shown per, s (60 s … 1 day). */
    interval_seconds: z.number().int().min(60).max(86_400).default(DEFAULT_INTERVAL_SECONDS),
  })
  .strict()
  .refine((u) => u.kind !== 'person-counter' || u.line !== null, {
    message: 'Draw the counting line',
    path: ['line'],
  });
export type UseCaseInput = z.infer<typeof UseCaseInput>;

/** A use case as listed: its job's device (row id and device_id) and camera. */
export const UseCase = z.object({
  id: z.string(),
  name: z.string(),
  kind: UseCaseKind,
  job_id: z.string(),
  job_name: z.string(),
  device_id: z.string(),
  camera_id: z.string(),
  line: CountingLine.nullable(),
  interval_seconds: z.number().int(),
  created_at: z.string(),
});
export type UseCase = z.infer<typeof UseCase>;

/** What the device runs: the use cases of its jobs. job_id is the job's id (§3 Job.id = StartOptions.job_id). */
export const DeviceUseCase = z.object({
  id: z.string(),
  kind: UseCaseKind,
  job_id: z.string(),
  camera_id: z.string(),
  line: CountingLine.nullable(),
});
export type DeviceUseCase = z.infer<typeof DeviceUseCase>;

const Attr = z.string().max(64);
/**
 * One record from the device: a crossing of the counter's line (direction) or an object seen (sighting: one per
 * track and identity/plate, sent when first seen and again with its measured speed when it leaves). key: the
 * device's id for it (use case, track, pass), unique per use case, so a repeated post records it once.
 * at: ms since the epoch (the frame's wall time).
 */
export const UseCaseRecordIn = z
  .object({
    use_case_id: Uuid,
    key: z.string().min(1).max(200),
    at: z.number().int().min(0).max(8.64e15),
    kind: z.enum(['crossing', 'sighting']),
    direction: z.enum(['in', 'out']).nullable().default(null),
    class: Attr,
    track: Attr,
    identity: Attr.nullable().default(null),
    age_band: Attr.nullable().default(null),
    gender: Attr.nullable().default(null),
    plate: Attr.nullable().default(null),
    speed: z.number().min(0).max(1e6).nullable().default(null),
  })
  .strict();
export type UseCaseRecordIn = z.infer<typeof UseCaseRecordIn>;
export const DeviceRecordsPost = z
  .object({ records: z.array(UseCaseRecordIn).min(1).max(RECORDS_POST_MAX) })
  .strict();

const Instant = z.iso.datetime({ offset: true }).meta({ examples: ['2026-11-28T00:00:00Z'] });
/** A time window [from, to) with a bucket width in seconds. */
export const WindowQuery = z
  .object({
    from: Instant,
    to: Instant,
    bucket_seconds: z.coerce
      .number()
      .int()
      .min(1)
      .max(31 * 86_400)
      .default(60),
  })
  .strict()
  .refine((q) => Date.parse(q.to) > Date.parse(q.from), {
    message: 'The end must be after the start',
    path: ['to'],
  })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 1000 / q.bucket_seconds <= BUCKETS_MAX, {
    message: `At most ${BUCKETS_MAX} buckets: widen the bucket`,
    path: ['bucket_seconds'],
  });

/** Counts per bucket (bucket start ISO) and over the window. */
export const CountsAnswer = z.object({
  buckets: z.array(z.object({ start: z.string(), in: z.number().int(), out: z.number().int() })),
  total: z.object({ in: z.number().int(), out: z.number().int() }),
});
export type CountsAnswer = z.infer<typeof CountsAnswer>;

/** Distinct people per bucket by age band and gender. */
export const PeopleAnswer = z.object({
  buckets: z.array(
    z.object({ start: z.string(), age_band: z.string(), gender: z.string(), people: z.number().int() }),
  ),
  people: z.array(
    z.object({ identity: z.string(), age_band: z.string(), gender: z.string(), first_seen: z.string() }),
  ),
});
export type PeopleAnswer = z.infer<typeof PeopleAnswer>;

export const VehiclesQuery = z
  .object({
    q: z.string().trim().max(32).default(''),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();
/** Vehicles seen, newest first; q matches the plate ignoring case, spaces and dashes. */
export const VehiclesAnswer = z.object({
  vehicles: z.array(
    z.object({
      plate: z.string(),
      first_seen: z.string(),
      last_seen: z.string(),
      speed: z.number().nullable(),
    }),
  ),
});
export type VehiclesAnswer = z.infer<typeof VehiclesAnswer>;

// ---- dashboards ----

/** Data sources a chart aggregates: alarm events, the counters' crossings, the use cases' sightings. */
export const CHART_SOURCES = ['events', 'crossings', 'sightings'] as const;
export const ChartSource = z.enum(CHART_SOURCES);
/** Dimensions a chart groups by (besides time) and a filter may fix; which exist depends on the source. */
export const DIMENSIONS = ['class', 'camera', 'severity', 'direction', 'age_band', 'gender'] as const;
export const Dimension = z.enum(DIMENSIONS);
export type Dimension = z.infer<typeof Dimension>;
export const SOURCE_DIMENSIONS: Record<z.infer<typeof ChartSource>, readonly Dimension[]> = {
  events: ['class', 'camera', 'severity'],
  crossings: ['class', 'camera', 'direction'],
  sightings: ['class', 'camera', 'age_band', 'gender'],
};
export const CHART_TYPES = ['line', 'bar', 'pie'] as const;

/** A chart: count of a source's rows by time bucket (group_by 'time') or by a dimension. */
export const Chart = z
  .object({
    id: z.string().min(1).max(40),
    title: z.string().trim().max(120).default(''),
    source: ChartSource,
    group_by: z.union([z.literal('time'), Dimension]),
    type: z.enum(CHART_TYPES).default('bar'),
  })
  .strict()
  .refine((c) => c.group_by === 'time' || SOURCE_DIMENSIONS[c.source].includes(c.group_by), {
    message: 'This source has no such dimension',
    path: ['group_by'],
  });
export type Chart = z.infer<typeof Chart>;

/** react-grid-layout item (grid units). */
export const LayoutItem = z
  .object({
    i: z.string().min(1).max(40),
    x: z.number().int().min(0).max(48),
    y: z.number().int().min(0).max(1000),
    w: z.number().int().min(1).max(48),
    h: z.number().int().min(1).max(100),
  })
  .strip();
export type LayoutItem = z.infer<typeof LayoutItem>;

export const CHARTS_MAX = 24;
export const DashboardInput = z
  .object({
    name: Name,
    collection_id: Uuid,
    charts: z.array(Chart).max(CHARTS_MAX).default([]),
    layout: z.array(LayoutItem).max(CHARTS_MAX).default([]),
  })
  .strict();
export const DashboardPatch = z
  .object({
    name: Name.optional(),
    charts: z.array(Chart).max(CHARTS_MAX).optional(),
    layout: z.array(LayoutItem).max(CHARTS_MAX).optional(),
  })
  .strict();
export const Dashboard = z.object({
  id: z.string(),
  name: z.string(),
  collection_id: z.string(),
  charts: z.array(Chart),
  layout: z.array(LayoutItem),
  updated_at: z.string(),
});
export type Dashboard = z.infer<typeof Dashboard>;

export const CollectionInput = z
  .object({ name: Name, description: z.string().trim().max(500).default('') })
  .strict();
export const Collection = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  dashboards: z.number().int(),
  created_at: z.string(),
});
export type Collection = z.infer<typeof Collection>;

/** A dashboard's filters: a value per dimension (chips), plus the window and bucket. */
export const Filters = z.partialRecord(Dimension, z.string().min(1).max(64));
export type Filters = z.infer<typeof Filters>;
export const DashboardDataBody = z
  .object({
    from: Instant,
    to: Instant,
    bucket_seconds: z
      .number()
      .int()
      .min(1)
      .max(31 * 86_400)
      .default(3600),
    filters: Filters.default({}),
  })
  .strict()
  .refine((q) => Date.parse(q.to) > Date.parse(q.from), {
    message: 'The end must be after the start',
    path: ['to'],
  })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 1000 / q.bucket_seconds <= BUCKETS_MAX, {
    message: `At most ${BUCKETS_MAX} buckets: widen the bucket`,
    path: ['bucket_seconds'],
  });
export type DashboardDataBody = z.infer<typeof DashboardDataBody>;
/** One chart's rows: key is the bucket start (ISO) for time charts, else the dimension's value. */
export const ChartData = z.object({
  id: z.string(),
  rows: z.array(z.object({ key: z.string(), value: z.number() })),
});
export type ChartData = z.infer<typeof ChartData>;
export const DashboardData = z.object({ charts: z.array(ChartData), server_ms: z.number() });
export type DashboardData = z.infer<typeof DashboardData>;

const IdParam = z.object({ id: Id }).strict();

export const analyticsRoutes = defineRoutes({
  'analytics.collections': {
    method: 'GET',
    path: '/api/analytics/collections',
    auth: 'user',
    summary: "The caller's dashboard collections with their dashboard counts",
    answer: z.object({ collections: z.array(Collection) }),
  },
  'analytics.createCollection': {
    method: 'POST',
    path: '/api/analytics/collections',
    auth: 'user',
    summary: 'Creates a dashboard collection. 409 name taken.',
    body: CollectionInput,
    answer: Collection,
    errors: [409],
  },
  'analytics.updateCollection': {
    method: 'PUT',
    path: '/api/analytics/collections/:id',
    auth: 'user',
    summary: 'Renames a collection. 404, 409 name taken.',
    params: IdParam,
    body: CollectionInput,
    answer: Collection,
    errors: [404, 409],
  },
  'analytics.deleteCollection': {
    method: 'DELETE',
    path: '/api/analytics/collections/:id',
    auth: 'user',
    summary: 'Deletes a collection and its dashboards. 404.',
    params: IdParam,
    answer: z.object({ ok: z.literal(true) }),
    errors: [404],
  },
  'analytics.dashboards': {
    method: 'GET',
    path: '/api/analytics/collections/:id/dashboards',
    auth: 'user',
    summary: 'The dashboards of a collection. 404.',
    params: IdParam,
    answer: z.object({ collection: Collection, dashboards: z.array(Dashboard) }),
    errors: [404],
  },
  'analytics.createDashboard': {
    method: 'POST',
    path: '/api/analytics/dashboards',
    auth: 'user',
    summary: 'Creates a dashboard in a collection. 404 collection.',
    body: DashboardInput,
    answer: Dashboard,
    errors: [404],
  },
  'analytics.dashboard': {
    method: 'GET',
    path: '/api/analytics/dashboards/:id',
    auth: 'user',
    summary: 'A dashboard. 404.',
    params: IdParam,
    answer: Dashboard,
    errors: [404],
  },
  'analytics.updateDashboard': {
    method: 'PUT',
    path: '/api/analytics/dashboards/:id',
    auth: 'user',
    summary: 'Renames a dashboard, replaces its charts or saves its layout. 404.',
    params: IdParam,
    body: DashboardPatch,
    answer: Dashboard,
    errors: [404],
  },
  'analytics.deleteDashboard': {
    method: 'DELETE',
    path: '/api/analytics/dashboards/:id',
    auth: 'user',
    summary: 'Deletes a dashboard. 404.',
    params: IdParam,
    answer: z.object({ ok: z.literal(true) }),
    errors: [404],
  },
  'analytics.dashboardData': {
    method: 'POST',
    path: '/api/analytics/dashboards/:id/data',
    auth: 'user',
    summary: "Every chart's aggregate over the window with the dashboard's filters. 404.",
    params: IdParam,
    body: DashboardDataBody,
    answer: DashboardData,
    errors: [404],
  },
  'useCases.list': {
    method: 'GET',
    path: '/api/use-cases',
    auth: 'user',
    summary: "The caller's use cases",
    answer: z.object({ use_cases: z.array(UseCase) }),
  },
  'useCases.create': {
    method: 'POST',
    path: '/api/use-cases',
    auth: 'user',
    summary: "Creates a use case on one of the caller's inference jobs. 404 job.",
    body: UseCaseInput,
    answer: UseCase,
    errors: [404],
  },
  'useCases.update': {
    method: 'PUT',
    path: '/api/use-cases/:id',
    auth: 'user',
    summary: 'Changes a use case (its line, interval, name). 404.',
    params: IdParam,
    body: UseCaseInput,
    answer: UseCase,
    errors: [404],
  },
  'useCases.remove': {
    method: 'DELETE',
    path: '/api/use-cases/:id',
    auth: 'user',
    summary: 'Deletes a use case and its records. 404.',
    params: IdParam,
    answer: z.object({ ok: z.literal(true) }),
    errors: [404],
  },
  'useCases.counts': {
    method: 'GET',
    path: '/api/use-cases/:id/counts',
    auth: 'user',
    summary: "A person counter's in/out counts per bucket. 404.",
    params: IdParam,
    query: WindowQuery,
    answer: CountsAnswer,
    errors: [404],
  },
  'useCases.people': {
    method: 'GET',
    path: '/api/use-cases/:id/people',
    auth: 'user',
    summary: 'People seen per bucket by age band and gender. 404.',
    params: IdParam,
    query: WindowQuery,
    answer: PeopleAnswer,
    errors: [404],
  },
  'useCases.vehicles': {
    method: 'GET',
    path: '/api/use-cases/:id/vehicles',
    auth: 'user',
    summary: 'Vehicles seen with their plates, searchable. 404.',
    params: IdParam,
    query: VehiclesQuery,
    answer: VehiclesAnswer,
    errors: [404],
  },
  'useCases.deviceList': {
    method: 'GET',
    path: '/api/device/use-cases',
    auth: 'device',
    summary: 'The use cases this device runs on its jobs',
    answer: z.object({ use_cases: z.array(DeviceUseCase) }),
  },
  'useCases.devicePost': {
    method: 'POST',
    path: '/api/device/use-cases/records',
    auth: 'device',
    summary:
      'This device records crossings and sightings (idempotent by key). 404 a use case not on its jobs.',
    body: DeviceRecordsPost,
    answer: z.object({ recorded: z.number().int() }),
    errors: [404],
  },
});
