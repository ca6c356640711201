/**
 * Usage reports of the profile (issue 13 "storage-data-usage", "network-data-usage"), computed from real rows:
 * - storage: the bytes of the caller's model version files (`model_versions.size` of models they own; the
 *   files live in DATA_DIR/models) and of their avatar (`user_avatars.size`). `history` gives, for each of the
 *   last 30 UTC days, the bytes of the files stored now that had been added by that day's end (files deleted
 *   since are not in it: the server keeps no deletion log). Agent releases are the server's, not a user's;
 *   unfinished uploads are not counted (they expire after 24 h).
 * - network: `tunnel_traffic` rows (src/server/profile/traffic.ts) of the caller's devices within the last
 *   `days` UTC days.
 */
import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { NetworkUsage, StorageUsage } from '../../protocol/profile';
import type { Db } from '../db';
import { devices, models, modelVersions, tunnelTraffic, userAvatars } from '../db/schema';
import { utcDay } from './traffic';

const DAY_MS = 86_400_000;
/** Days of storage history. */
export const STORAGE_HISTORY_DAYS = 30;

/** UTC days from `days - 1` days before `now` to `now`, oldest first. */
export function lastDays(days: number, now = new Date()): string[] {
  const today = Date.parse(utcDay(now));
  return Array.from({ length: days }, (_, i) => utcDay(new Date(today - (days - 1 - i) * DAY_MS)));
}

/**
 * Cumulative bytes at the end of each day of `days`, from additions per day (`added`: day → bytes added that
 * day). Additions before the first day count from the start.
 */
export function cumulative(
  days: readonly string[],
  added: ReadonlyMap<string, number>,
): { day: string; bytes: number }[] {
  const first = days[0] ?? '';
  let total = 0;
  for (const [day, bytes] of added) if (day < first) total += bytes;
  return days.map((day) => {
    total += added.get(day) ?? 0;
    return { day, bytes: total };
  });
}

export async function storageUsage(db: Db, userId: string, now = new Date()): Promise<StorageUsage> {
  const modelDays = await db
    .select({
      day: sql<string>`to_char(${modelVersions.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`,
      bytes: sql<string>`sum(${modelVersions.size})`,
      files: sql<string>`count(*)`,
    })
    .from(modelVersions)
    .innerJoin(models, eq(models.id, modelVersions.modelId))
    .where(eq(models.ownerId, userId))
    .groupBy(sql`1`);
  const [avatar] = await db
    .select({ size: userAvatars.size, updatedAt: userAvatars.updatedAt })
    .from(userAvatars)
    .where(eq(userAvatars.userId, userId));
  const added = new Map<string, number>();
  let modelBytes = 0;
  let modelFiles = 0;
  for (const r of modelDays) {
    const bytes = Number(r.bytes);
    modelBytes += bytes;
    modelFiles += Number(r.files);
    added.set(r.day, (added.get(r.day) ?? 0) + bytes);
  }
  if (avatar) {
    const day = utcDay(avatar.updatedAt);
    added.set(day, (added.get(day) ?? 0) + avatar.size);
  }
  const avatarBytes = avatar?.size ?? 0;
  return {
    total_bytes: modelBytes + avatarBytes,
    categories: [
      { category: 'models', bytes: modelBytes, files: modelFiles },
      { category: 'avatar', bytes: avatarBytes, files: avatar ? 1 : 0 },
    ],
    history: cumulative(lastDays(STORAGE_HISTORY_DAYS, now), added),
  };
}

export async function networkUsage(
  db: Db,
  userId: string,
  days: number,
  now = new Date(),
): Promise<NetworkUsage> {
  const range = lastDays(days, now);
  const from = range[0] ?? utcDay(now);
  const to = range[range.length - 1] ?? utcDay(now);
  const own = await db
    .select({ deviceId: devices.deviceId, label: devices.label })
    .from(devices)
    .where(eq(devices.ownerId, userId))
    .orderBy(asc(devices.label), asc(devices.deviceId));
  const rows = await db
    .select({
      day: sql<string>`${tunnelTraffic.day}::text`,
      deviceId: devices.deviceId,
      fromDevice: tunnelTraffic.bytesFromDevice,
      toDevice: tunnelTraffic.bytesToDevice,
    })
    .from(tunnelTraffic)
    .innerJoin(devices, eq(devices.id, tunnelTraffic.deviceRowId))
    .where(and(eq(devices.ownerId, userId), gte(tunnelTraffic.day, from)))
    .orderBy(asc(tunnelTraffic.day), asc(devices.deviceId));
  return {
    days,
    from,
    to,
    devices: own.map((d) => ({ device_id: d.deviceId, label: d.label })),
    rows: rows.map((r) => ({
      day: r.day,
      device_id: r.deviceId,
      bytes_from_device: Number(r.fromDevice),
      bytes_to_device: Number(r.toDevice),
    })),
    turn_counted: false,
  };
}
