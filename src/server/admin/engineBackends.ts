/**
 * Engine backends (schema.ts `engine_backends`; /admin-panel/engines/engine-backends) and §7
 * `POST /inference-url` "jetpack_version, driver_version (one null) → data: engine image name or false".
 * - A JetPack version matches the 'jetpack' rows whose version is a prefix of it at a dot boundary ('5.1'
 *   matches 5.1 and 5.1.2, not 5.10); the longest matching prefix wins.
 * - A driver version ('535.183.01') matches the 'driver' rows whose version is not above it, compared number by
 *   number ('535' ≤ 535.183.01); the highest one wins. Nothing matching → false.
 * Changes are audited (engine_backend.create / update / delete).
 */
import { asc, eq } from 'drizzle-orm';
import { ADMIN_ERROR_CODES, type EngineBackend, type EnginePlatform } from '../../protocol/admin';
import { writeAudit } from '../audit';
import type { Db } from '../db';
import { isUniqueViolation } from '../db/scope';
import { engineBackends } from '../db/schema';
import { HttpError, notFound } from '../errors';

type Row = typeof engineBackends.$inferSelect;
export interface BackendInput {
  platform: EnginePlatform;
  version: string;
  image: string;
  note: string;
}

const TAKEN_TEXT = 'An engine backend for this platform and version exists already.';

export function toEngineBackend(row: Row): EngineBackend {
  return {
    id: row.id,
    platform: row.platform as EnginePlatform,
    version: row.version,
    image: row.image,
    note: row.note,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Numbers of a dotted version ('5.1.2' → [5, 1, 2]); null when it is not digits and dots. */
export function versionParts(text: string): number[] | null {
  const trimmed = text.trim();
  if (!/^\d{1,9}(\.\d{1,9})*$/.test(trimmed)) return null;
  return trimmed.split('.').map(Number);
}

/** a < b → negative, a = b → 0, a > b → positive; missing parts count as 0. */
export function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The image for a device (pure: the table's rows given). Exactly one of the versions is non-null; a version
 * that is not digits and dots matches nothing.
 */
export function resolveEngineImage(
  rows: Pick<Row, 'platform' | 'version' | 'image'>[],
  jetpackVersion: string | null,
  driverVersion: string | null,
): string | false {
  if (jetpackVersion !== null) {
    const wanted = versionParts(jetpackVersion);
    if (!wanted) return false;
    let best: { len: number; image: string } | null = null;
    for (const row of rows) {
      const parts = row.platform === 'jetpack' ? versionParts(row.version) : null;
      if (!parts || parts.length > wanted.length) continue;
      if (parts.every((p, i) => p === wanted[i]) && (!best || parts.length > best.len)) {
        best = { len: parts.length, image: row.image };
      }
    }
    return best?.image ?? false;
  }
  const wanted = versionParts(driverVersion ?? '');
  if (!wanted) return false;
  let best: { parts: number[]; image: string } | null = null;
  for (const row of rows) {
    const parts = row.platform === 'driver' ? versionParts(row.version) : null;
    if (!parts || compareVersions(parts, wanted) > 0) continue;
    if (!best || compareVersions(parts, best.parts) > 0) best = { parts, image: row.image };
  }
  return best?.image ?? false;
}

export async function listBackends(db: Db): Promise<EngineBackend[]> {
  const rows = await db
    .select()
    .from(engineBackends)
    .orderBy(asc(engineBackends.platform), asc(engineBackends.version));
  return rows.map(toEngineBackend);
}

/** §7 inference-url's answer from the current table. */
export async function inferenceImage(
  db: Db,
  jetpackVersion: string | null,
  driverVersion: string | null,
): Promise<string | false> {
  const rows = await db
    .select({
      platform: engineBackends.platform,
      version: engineBackends.version,
      image: engineBackends.image,
    })
    .from(engineBackends);
  return resolveEngineImage(rows, jetpackVersion, driverVersion);
}

function normalised(input: BackendInput): BackendInput {
  // '5.1.0' and '5.1' would match alike: keep the text as given but without surrounding blanks.
  return { ...input, version: input.version.trim(), image: input.image.trim(), note: input.note.trim() };
}

/** @throws 409 Engine_backend_exists when platform and version are taken. */
export async function createBackend(db: Db, actorId: string, input: BackendInput): Promise<EngineBackend> {
  const values = normalised(input);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(engineBackends).values(values).returning();
      await writeAudit(tx, {
        actorId,
        action: 'engine_backend.create',
        targetType: 'engine_backend',
        targetId: row!.id,
        details: { platform: values.platform, version: values.version, image: values.image },
      });
      return toEngineBackend(row!);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(409, ADMIN_ERROR_CODES.backendExists, TAKEN_TEXT);
    throw err;
  }
}

/** @throws 404 when missing, 409 Engine_backend_exists when the new platform and version are taken. */
export async function updateBackend(
  db: Db,
  actorId: string,
  id: string,
  input: BackendInput,
): Promise<EngineBackend> {
  const values = normalised(input);
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx.select().from(engineBackends).where(eq(engineBackends.id, id)).for('update');
      if (!before) throw notFound('Engine backend');
      const [row] = await tx
        .update(engineBackends)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(engineBackends.id, id))
        .returning();
      await writeAudit(tx, {
        actorId,
        action: 'engine_backend.update',
        targetType: 'engine_backend',
        targetId: id,
        details: {
          from: { platform: before.platform, version: before.version, image: before.image },
          to: { platform: values.platform, version: values.version, image: values.image },
        },
      });
      return toEngineBackend(row!);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(409, ADMIN_ERROR_CODES.backendExists, TAKEN_TEXT);
    throw err;
  }
}

/** @throws 404 when missing. */
export async function deleteBackend(db: Db, actorId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(engineBackends).where(eq(engineBackends.id, id)).returning();
    if (!row) throw notFound('Engine backend');
    await writeAudit(tx, {
      actorId,
      action: 'engine_backend.delete',
      targetType: 'engine_backend',
      targetId: id,
      details: { platform: row.platform, version: row.version, image: row.image },
    });
  });
}
