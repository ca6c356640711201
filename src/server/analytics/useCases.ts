/**
 * Use-case records (issue 11): what the devices measured, stored in use_case_records, and the three use cases'
 * reads — a person counter's in/out per bucket, people per bucket by age band and gender, vehicles by plate.
 * Buckets are date_bin from the window's start; a repeated record (same use case and key) is kept once, a
 * later sighting of the same key only fills its speed.
 */
import { sql } from 'drizzle-orm';
import type { CountsAnswer, PeopleAnswer, UseCaseRecordIn, VehiclesAnswer } from '../../protocol/analytics';
import type { Db } from '../db';
import { useCaseRecords } from '../db/schema';
import { bucketStarts, type Window } from './aggregate';

const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString();

/** Stores the records (idempotent by use case and key); how many were new or changed. */
export async function recordFromDevice(
  db: Db,
  records: readonly UseCaseRecordIn[],
  useCasesById: Map<string, { userId: string; cameras: string[] }>,
): Promise<number> {
  // one row per (use case, key): a sighting re-sent with its speed in the same batch merges into one
  const merged = new Map<string, UseCaseRecordIn>();
  for (const r of records) {
    const k = `${r.use_case_id} ${r.key}`;
    const prev = merged.get(k);
    merged.set(k, prev ? { ...prev, speed: r.speed ?? prev.speed } : r);
  }
  const values = [...merged.values()].map((r) => {
    const u = useCasesById.get(r.use_case_id)!;
    return {
      useCaseId: r.use_case_id,
      userId: u.userId,
      key: r.key,
      at: new Date(r.at),
      kind: r.kind,
      direction: r.direction,
      class: r.class,
      cameraId: u.cameras[0] ?? '',
      track: r.track,
      identity: r.identity,
      ageBand: r.age_band,
      gender: r.gender,
      plate: r.plate,
      speed: r.speed,
    };
  });
  const rows = await db
    .insert(useCaseRecords)
    .values(values)
    .onConflictDoUpdate({
      target: [useCaseRecords.useCaseId, useCaseRecords.key],
      set: { speed: sql`coalesce(excluded.speed, ${useCaseRecords.speed})` },
    })
    .returning({ id: useCaseRecords.id });
  return rows.length;
}

const bin = (w: Window) =>
  sql`date_bin(make_interval(secs => ${w.bucketSeconds}), at, ${w.from.toISOString()}::timestamptz)`;
const inWindow = (w: Window) =>
  sql`at >= ${w.from.toISOString()}::timestamptz and at < ${w.to.toISOString()}::timestamptz`;

/** In/out crossings per bucket (every bucket listed) and in total. */
export async function countsOf(db: Db, useCaseId: string, w: Window): Promise<CountsAnswer> {
  const r = await db.execute(sql`
    select ${bin(w)} as start, count(*) filter (where direction = 'in')::int as n_in,
      count(*) filter (where direction = 'out')::int as n_out
    from use_case_records where use_case_id = ${useCaseId} and kind = 'crossing' and ${inWindow(w)}
    group by 1`);
  const by = new Map(
    (r.rows as { start: unknown; n_in: number; n_out: number }[]).map((x) => [iso(x.start), x]),
  );
  const buckets = bucketStarts(w).map((start) => ({
    start,
    in: Number(by.get(start)?.n_in ?? 0),
    out: Number(by.get(start)?.n_out ?? 0),
  }));
  return {
    buckets,
    total: buckets.reduce((t, b) => ({ in: t.in + b.in, out: t.out + b.out }), { in: 0, out: 0 }),
  };
}

/** Distinct people per bucket, age band and gender; and each person once (first seen in the window). */
export async function peopleOf(db: Db, useCaseId: string, w: Window): Promise<PeopleAnswer> {
  const where = sql`use_case_id = ${useCaseId} and kind = 'sighting' and identity is not null and ${inWindow(w)}`;
  const [b, p] = await Promise.all([
    db.execute(sql`
      select ${bin(w)} as start, coalesce(age_band, '') as age_band, coalesce(gender, '') as gender,
        count(distinct identity)::int as people
      from use_case_records where ${where} group by 1, 2, 3 order by 1, 2, 3`),
    db.execute(sql`
      select identity, coalesce(min(age_band), '') as age_band, coalesce(min(gender), '') as gender, min(at) as first_seen
      from use_case_records where ${where} group by identity order by min(at), identity limit 1000`),
  ]);
  return {
    buckets: (b.rows as { start: unknown; age_band: string; gender: string; people: number }[]).map((x) => ({
      start: iso(x.start),
      age_band: x.age_band,
      gender: x.gender,
      people: Number(x.people),
    })),
    people: (p.rows as { identity: string; age_band: string; gender: string; first_seen: unknown }[]).map(
      (x) => ({
        identity: x.identity,
        age_band: x.age_band,
        gender: x.gender,
        first_seen: iso(x.first_seen),
      }),
    ),
  };
}

/** Plate text normalised for search: upper case, letters and digits only. */
export const normalisePlate = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Vehicles seen (one row per plate), newest first; q matches part of the plate ignoring case and dashes. */
export async function vehiclesOf(
  db: Db,
  useCaseId: string,
  q: string,
  limit: number,
): Promise<VehiclesAnswer> {
  const needle = normalisePlate(q);
  const r = await db.execute(sql`
    select plate, min(at) as first_seen, max(at) as last_seen, max(speed) as speed
    from use_case_records
    where use_case_id = ${useCaseId} and kind = 'sighting' and plate is not null
      ${needle ? sql`and regexp_replace(upper(plate), '[^A-Z0-9]', '', 'g') like ${`%${needle}%`}` : sql``}
    group by plate order by max(at) desc limit ${limit}`);
  return {
    vehicles: (r.rows as { plate: string; first_seen: unknown; last_seen: unknown; speed: unknown }[]).map(
      (x) => ({
        plate: x.plate,
        first_seen: iso(x.first_seen),
        last_seen: iso(x.last_seen),
        speed: x.speed === null ? null : Number(x.speed),
      }),
    ),
  };
}
