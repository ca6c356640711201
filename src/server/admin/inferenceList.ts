/**
 * Inference jobs of every user, read-only (§2 /admin-panel/engines/inferences; §3 Job; §4 job states): newest
 * first, keyset-paged on (created_at, id); search (job name, application name, owner email or device label
 * contains the text), state filter; totals counted up to ADMIN_SEARCH_COUNT_CAP + 1.
 */
import { and, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { ADMIN_SEARCH_COUNT_CAP, type AdminInference } from '../../protocol/admin';
import type { Db } from '../db';
import { likeContains } from '../db/scope';
import { devices, inferenceJobs, users } from '../db/schema';
import { cutPage, decodeCursor } from './cursor';

export interface InferencePageQuery {
  search?: string;
  state?: string;
  cursor?: string;
  perPage: number;
}

const KEY_TEXT = sql<string>`to_char(${inferenceJobs.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The error text a job's runtime reported (§3 inferenceEngineError, message), else null. */
function errorOf(runtime: unknown): string | null {
  const r = (runtime ?? {}) as { inferenceEngineError?: unknown; message?: unknown };
  if (typeof r.inferenceEngineError === 'string' && r.inferenceEngineError) return r.inferenceEngineError;
  return null;
}

export async function inferencePage(
  db: Db,
  q: InferencePageQuery,
): Promise<{
  jobs: AdminInference[];
  total: number;
  totalCapped: boolean;
  next: string | null;
  prev: string | null;
}> {
  const request = decodeCursor(q.cursor);
  const conditions: SQL[] = [];
  const search = q.search?.trim();
  if (search) {
    const p = likeContains(search);
    conditions.push(
      or(
        ilike(inferenceJobs.jobName, p),
        ilike(inferenceJobs.applicationName, p),
        ilike(users.email, p),
        ilike(devices.label, p),
      ) as SQL,
    );
  }
  if (q.state) conditions.push(eq(inferenceJobs.state, q.state));
  const filter = conditions.length ? and(...conditions) : undefined;
  const reversed = request.kind === 'last' || (request.kind === 'at' && request.side === 'before');
  const dir = sql.raw(reversed ? 'asc' : 'desc');
  const keyset =
    request.kind === 'at'
      ? sql`(${inferenceJobs.createdAt}, ${inferenceJobs.id}) ${sql.raw(reversed ? '>' : '<')} (${request.key}::timestamptz, ${request.id}::uuid)`
      : undefined;
  const [counted, rows] = await Promise.all([
    db.execute<{ n: string | number }>(sql`
      select count(*) as n from (
        select 1 from ${inferenceJobs}
        join ${users} on ${users.id} = ${inferenceJobs.ownerId}
        join ${devices} on ${devices.id} = ${inferenceJobs.deviceRowId}
        ${filter ? sql`where ${filter}` : sql``} limit ${ADMIN_SEARCH_COUNT_CAP + 1}) m`),
    db
      .select({
        id: inferenceJobs.id,
        keyText: KEY_TEXT,
        jobName: inferenceJobs.jobName,
        applicationName: inferenceJobs.applicationName,
        state: inferenceJobs.state,
        cameraLabel: inferenceJobs.cameraLabel,
        runtime: inferenceJobs.runtime,
        createdAt: inferenceJobs.createdAt,
        updatedAt: inferenceJobs.updatedAt,
        ownerEmail: users.email,
        deviceLabel: devices.label,
        deviceId: devices.deviceId,
      })
      .from(inferenceJobs)
      .innerJoin(users, eq(users.id, inferenceJobs.ownerId))
      .innerJoin(devices, eq(devices.id, inferenceJobs.deviceRowId))
      .where(and(filter, keyset))
      .orderBy(sql`${inferenceJobs.createdAt} ${dir}`, sql`${inferenceJobs.id} ${dir}`)
      .limit(q.perPage + 1),
  ]);
  const n = Number(counted.rows[0]?.n ?? 0);
  const page = cutPage(request, rows, q.perPage, (r) => ({ key: r.keyText, id: r.id }));
  return {
    jobs: page.rows.map((r) => ({
      id: r.id,
      job_name: r.jobName,
      application_name: r.applicationName,
      state: r.state,
      camera_label: r.cameraLabel,
      owner_email: r.ownerEmail,
      device_label: r.deviceLabel,
      device_id: r.deviceId,
      error: errorOf(r.runtime),
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    })),
    total: n,
    totalCapped: n > ADMIN_SEARCH_COUNT_CAP,
    next: page.next,
    prev: page.prev,
  };
}
