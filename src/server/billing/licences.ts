/**
 * Licences (spec §1 "licences"; issue 13): reading them, what they grant now, and creating or revoking them.
 *
 * What a licence grants while active (not revoked, starts_at ≤ now < expires_at):
 * - scope 'device': its device's concurrent stream quota becomes max(max_streams, the free/base quota);
 * - scope 'feature': its `features` for the whole account (priority-support flags contact messages).
 * An expired or revoked licence grants nothing: the device is back on the free tier (FREE_MAX_STREAMS or the
 * device's stream_limits row). A new licence of a plan the holder already has running for that device (or,
 * for a feature plan, the account) starts when the running one ends, so renewing early loses no day.
 */
import { and, desc, eq, gt, ilike, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  LAPSED_NOTICE_DAYS,
  licenceState,
  type AdminLicence,
  type Licence,
  type LicenceFeature,
  type Plan,
} from '../../protocol/billing';
import type { Db } from '../db';
import { likeContains } from '../db/scope';
import { devices, licences, users } from '../db/schema';
import { planName } from './plans';

type LicenceRow = typeof licences.$inferSelect;
/** The db or a transaction of it. */
export type BillingDb = Pick<Db, 'select' | 'insert' | 'update' | 'execute'>;

const DAY_MS = 86_400_000;

/** A licence row (with its device's label when the device still exists) as users read it. */
export function toLicence(row: LicenceRow, deviceLabel: string | null, now = Date.now()): Licence {
  const base = {
    starts_at: row.startsAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
  return {
    id: row.id,
    plan_id: row.planId,
    plan_name: planName(row.planId),
    scope: row.scope as Licence['scope'],
    device_id: row.deviceId,
    device_label: row.deviceRowId ? deviceLabel : null,
    max_streams: row.maxStreams,
    features: row.features as LicenceFeature[],
    ...base,
    source: row.source as Licence['source'],
    state: licenceState(base, now),
  };
}

const activeAt = (now: Date): SQL =>
  and(isNull(licences.revokedAt), lte(licences.startsAt, now), gt(licences.expiresAt, now)) as SQL;

/** The user's licences, newest first, and those that lapsed recently without a successor. */
export async function licencesOf(db: BillingDb, userId: string, now = new Date()) {
  const rows = await db
    .select({ licence: licences, label: devices.label })
    .from(licences)
    .leftJoin(devices, eq(devices.id, licences.deviceRowId))
    .where(eq(licences.userId, userId))
    .orderBy(desc(licences.createdAt), desc(licences.id))
    .limit(500);
  const all = rows.map((r) => toLicence(r.licence, r.label, now.getTime()));
  return { licences: all, lapsed: lapsedOf(all, now.getTime()) };
}

/**
 * Licences that ended (expired, not revoked) within LAPSED_NOTICE_DAYS of `now` and have no running or
 * scheduled licence of the same plan and device after them. Pure.
 */
export function lapsedOf(all: readonly Licence[], now: number): Licence[] {
  const key = (l: Licence) => `${l.plan_id}|${l.device_id ?? ''}`;
  const covered = new Set(all.filter((l) => ['active', 'expiring', 'scheduled'].includes(l.state)).map(key));
  const seen = new Set<string>();
  return all.filter((l) => {
    if (l.state !== 'expired' || covered.has(key(l)) || seen.has(key(l))) return false;
    if (now - Date.parse(l.expires_at) > LAPSED_NOTICE_DAYS * DAY_MS) return false;
    seen.add(key(l));
    return true;
  });
}

/**
 * The stream quota each of these devices' active licences grants now, and when its licences end (the latest
 * end of its running and scheduled licences, which follow each other): device row id → { maxStreams, until }.
 * Devices without an active licence are absent.
 */
export async function licensedStreams(
  db: BillingDb,
  deviceRowIds: readonly string[],
  now = new Date(),
): Promise<Map<string, { maxStreams: number; until: Date }>> {
  const out = new Map<string, { maxStreams: number; until: Date }>();
  if (deviceRowIds.length === 0) return out;
  const active = and(inArray(licences.deviceRowId, [...deviceRowIds]), activeAt(now));
  const rows = await db
    .select({
      device: licences.deviceRowId,
      max: sql<number>`max(${licences.maxStreams}) filter (where ${active})`.mapWith(Number),
      until: sql<string>`max(${licences.expiresAt})`,
    })
    .from(licences)
    .where(
      and(
        inArray(licences.deviceRowId, [...deviceRowIds]),
        isNull(licences.revokedAt),
        gt(licences.expiresAt, now),
      ),
    )
    .groupBy(licences.deviceRowId);
  for (const r of rows) {
    if (r.device && r.max > 0) out.set(r.device, { maxStreams: r.max, until: new Date(r.until) });
  }
  return out;
}

/**
 * A device's concurrent stream quota now: its base quota (the stream_limits row, else the free tier) raised to
 * what an active device licence grants.
 */
export async function effectiveMaxStreams(
  db: BillingDb,
  deviceRowId: string,
  base: number,
  now = new Date(),
): Promise<number> {
  const licensed = (await licensedStreams(db, [deviceRowId], now)).get(deviceRowId);
  return licensed ? Math.max(base, licensed.maxStreams) : base;
}

/** Whether the user holds an active licence granting `feature` now. */
export async function hasFeature(
  db: BillingDb,
  userId: string,
  feature: LicenceFeature,
  now = new Date(),
): Promise<boolean> {
  const [row] = await db
    .select({ id: licences.id })
    .from(licences)
    .where(and(eq(licences.userId, userId), activeAt(now), sql`${feature} = any(${licences.features})`))
    .limit(1);
  return row !== undefined;
}

/** What a new licence is for. */
export interface NewLicence {
  userId: string;
  plan: Plan;
  /** The device (row id and device id) for a per-device plan. */
  device: { id: string; deviceId: string } | null;
  /** Length in days (default: the plan's period). */
  days?: number;
  source: 'purchase' | 'admin';
  orderId?: string | null;
  grantedBy?: string | null;
}

/**
 * Creates a licence. It starts now, or when the holder's running licence of the same plan (and device) ends.
 * @throws Error for the free plan (never a licence).
 */
export async function createLicence(db: BillingDb, input: NewLicence, now = new Date()): Promise<LicenceRow> {
  const { plan } = input;
  if (plan.scope === 'free') throw new Error('The free tier is not a licence.');
  const days = input.days ?? plan.period_days;
  const [running] = await db
    .select({ end: sql<Date | null>`max(${licences.expiresAt})`.mapWith((v) => (v ? new Date(v) : null)) })
    .from(licences)
    .where(
      and(
        eq(licences.userId, input.userId),
        eq(licences.planId, plan.id),
        input.device ? eq(licences.deviceRowId, input.device.id) : isNull(licences.deviceRowId),
        isNull(licences.revokedAt),
        gt(licences.expiresAt, now),
      ),
    );
  const start = running?.end && running.end > now ? running.end : now;
  const [row] = await db
    .insert(licences)
    .values({
      userId: input.userId,
      planId: plan.id,
      scope: plan.scope,
      deviceRowId: input.device?.id ?? null,
      deviceId: input.device?.deviceId ?? null,
      maxStreams: plan.max_streams,
      features: [...plan.features],
      startsAt: start,
      expiresAt: new Date(start.getTime() + days * DAY_MS),
      source: input.source,
      orderId: input.orderId ?? null,
      grantedBy: input.grantedBy ?? null,
    })
    .returning();
  if (!row) throw new Error('licence insert returned nothing');
  return row;
}

/** Revokes a licence now. Answers the row, 'revoked' when it already was, null when unknown. */
export async function revokeLicence(
  db: BillingDb,
  id: string,
  by: string,
  now = new Date(),
): Promise<LicenceRow | 'revoked' | null> {
  const [row] = await db
    .update(licences)
    .set({ revokedAt: now, revokedBy: by })
    .where(and(eq(licences.id, id), isNull(licences.revokedAt)))
    .returning();
  if (row) return row;
  const [existing] = await db.select({ id: licences.id }).from(licences).where(eq(licences.id, id));
  return existing ? 'revoked' : null;
}

/** One licence with its holder, as admins read it. */
export async function adminLicence(
  db: BillingDb,
  id: string,
  now = new Date(),
): Promise<AdminLicence | null> {
  const [r] = await db
    .select({ licence: licences, label: devices.label, email: users.email })
    .from(licences)
    .innerJoin(users, eq(users.id, licences.userId))
    .leftJoin(devices, eq(devices.id, licences.deviceRowId))
    .where(eq(licences.id, id));
  return r
    ? { ...toLicence(r.licence, r.label, now.getTime()), user_id: r.licence.userId, user_email: r.email }
    : null;
}

/** Every licence, newest first, filtered by holder e-mail, plan id or device id (contains, case-insensitive). */
export async function adminLicences(
  db: BillingDb,
  q: { search: string; page: number; per_page: number },
  now = new Date(),
): Promise<{ licences: AdminLicence[]; total: number }> {
  const search = q.search.trim();
  const where = search
    ? or(
        ilike(users.email, likeContains(search)),
        ilike(licences.planId, likeContains(search)),
        ilike(licences.deviceId, likeContains(search)),
      )
    : undefined;
  const [rows, [count]] = await Promise.all([
    db
      .select({ licence: licences, label: devices.label, email: users.email })
      .from(licences)
      .innerJoin(users, eq(users.id, licences.userId))
      .leftJoin(devices, eq(devices.id, licences.deviceRowId))
      .where(where)
      .orderBy(desc(licences.createdAt), desc(licences.id))
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(licences)
      .innerJoin(users, eq(users.id, licences.userId))
      .where(where),
  ]);
  return {
    licences: rows.map((r) => ({
      ...toLicence(r.licence, r.label, now.getTime()),
      user_id: r.licence.userId,
      user_email: r.email,
    })),
    total: count?.n ?? 0,
  };
}
