/**
 * The server's enrolled faces (issue 11 "Faces"; `/blacklist-faces`, `/face-alarms`): rows ↔ FaceView, the
 * pictures and the identities seen in events.
 *
 * Pictures live with the event snapshots (src/server/events/media.ts): `DATA_DIR/events/<user id>/` as
 * `face-<face id>.{jpg,png}`, and are read through URLs signed with the same key over (face id, 'snapshot',
 * exp), served by `faces.picture`. Enrolling from an event copies its snapshot, so deleting the event's file
 * later leaves the face's picture.
 */
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import type { FaceView } from '../../protocol/faces';
import type { ServerContext } from '../context';
import type { Db } from '../db';
import { isUuid } from '../db/scope';
import { faceIdentities } from '../db/schema';
import { mediaPath, signedMediaUrl, verifyMediaSignature } from '../events/media';

export type FaceRow = typeof faceIdentities.$inferSelect;
export type PictureType = 'jpeg' | 'png';

/** The kind of a picture by its first bytes (JPEG FF D8 FF, PNG 89 50 4E 47 0D 0A 1A 0A), or null. */
export function pictureTypeOf(bytes: Buffer): PictureType | null {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length > png.length && png.every((b, i) => bytes[i] === b)) return 'png';
  return null;
}

/** The stored picture's name for a face (`face-<id>.jpg|png`). */
export const pictureName = (faceId: string, type: PictureType) =>
  `face-${faceId}.${type === 'png' ? 'png' : 'jpg'}`;

/** The content type of a stored picture name. */
export const pictureContentType = (name: string) => (name.endsWith('.png') ? 'image/png' : 'image/jpeg');

/** A signed URL of a face's picture (valid as long as an event snapshot's). */
export async function signedPictureUrl(ctx: ServerContext, faceId: string, now = Date.now()) {
  const url = new URL(await signedMediaUrl(ctx, faceId, 'snapshot', now), 'http://x');
  return `/api/face-pictures/${faceId}${url.search}`;
}

/** Whether (exp, sig) sign this face's picture and have not expired. */
export const verifyPictureSignature = (ctx: ServerContext, faceId: string, exp: number, sig: string) =>
  verifyMediaSignature(ctx, faceId, 'snapshot', exp, sig);

export async function toFaceView(ctx: ServerContext, r: FaceRow, now = Date.now()): Promise<FaceView> {
  return {
    id: r.id,
    identity: r.identity,
    label: r.label,
    blacklisted: r.blacklisted,
    picture_url: r.imageFile ? await signedPictureUrl(ctx, r.id, now) : null,
    source_event_id: r.sourceEventId,
    created_at: r.createdAt.toISOString(),
  };
}

/** The user's faces, by label. */
export function faceRowsOf(db: Db, userId: string): Promise<FaceRow[]> {
  return db
    .select()
    .from(faceIdentities)
    .where(eq(faceIdentities.userId, userId))
    .orderBy(asc(faceIdentities.label), asc(faceIdentities.identity));
}

/** One of the user's faces, or null. */
export async function ownFace(db: Db, userId: string, id: string): Promise<FaceRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select()
    .from(faceIdentities)
    .where(and(eq(faceIdentities.id, id), eq(faceIdentities.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** Writes a picture's bytes for a face (atomically); returns the stored name. */
export async function writePicture(
  ctx: ServerContext,
  userId: string,
  faceId: string,
  type: PictureType,
  bytes: Buffer,
): Promise<string> {
  const name = pictureName(faceId, type);
  const file = mediaPath(ctx, userId, name);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, bytes, { mode: 0o600 });
  await rename(tmp, file);
  return name;
}

/** Copies an event's snapshot (a JPEG) as a face's picture; returns the stored name. */
export async function copySnapshot(
  ctx: ServerContext,
  userId: string,
  faceId: string,
  snapshotFile: string,
): Promise<string> {
  const name = pictureName(faceId, 'jpeg');
  const file = mediaPath(ctx, userId, name);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await copyFile(mediaPath(ctx, userId, snapshotFile), file);
  return name;
}

/** Removes a face's picture file (missing is fine). */
export async function removePicture(ctx: ServerContext, userId: string, name: string | null) {
  if (name) await rm(mediaPath(ctx, userId, name), { force: true });
}
