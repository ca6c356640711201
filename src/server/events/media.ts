/**
 * An event's snapshot (image/jpeg) and clip (video/mp4) on the server (issue 11): files under
 * `DATA_DIR/events/<user id>/<event id>.{jpg,mp4}`, written by the device with raw bodies and read by the
 * console through short-lived signed URLs (an <img> or <video> sends no Authorization header):
 *
 *   PUT /api/device/events/:id/snapshot   image/jpeg ≤ EVENT_SNAPSHOT_MAX_BYTES, device token, the event must
 *                                          be the device's → { ok }; 400 not a JPEG, 404 not its event
 *   PUT /api/device/events/:id/clip       video/mp4 ≤ EVENT_CLIP_MAX_BYTES, likewise (an MP4 'ftyp' box)
 *   GET /api/event-media/:id/:kind?exp&sig (route table: events.media) the bytes while the signature holds
 *
 * The signature is HMAC-SHA256 over "<id>:<kind>:<exp>" with a key kept in `DATA_DIR/events/.media-key`
 * (made once, 0600), so a URL works across restarts until `exp` (s since the epoch).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { API_ERROR_CODES } from '../../protocol';
import {
  EVENT_CLIP_MAX_BYTES,
  EVENT_MEDIA_URL_TTL_S,
  EVENT_SNAPSHOT_MAX_BYTES,
  EVENT_TEXTS,
} from '../../protocol/events';
import { authenticateDevice, deviceOf } from '../auth/guard';
import type { ServerContext } from '../context';
import { isUuid } from '../db/scope';
import { events } from '../db/schema';
import { HttpError } from '../errors';
import type { ZodApp } from '../routes/types';

export type MediaKind = 'snapshot' | 'clip';
const EXT: Record<MediaKind, string> = { snapshot: 'jpg', clip: 'mp4' };
export const MEDIA_TYPE: Record<MediaKind, string> = { snapshot: 'image/jpeg', clip: 'video/mp4' };

const dirOf = (ctx: ServerContext) => join(ctx.config.dataDir, 'events');

/** The stored file's name (events.snapshot_file / clip_file) and its path. */
export const mediaName = (eventId: string, kind: MediaKind) => `${eventId}.${EXT[kind]}`;
export const mediaPath = (ctx: ServerContext, userId: string, name: string) => join(dirOf(ctx), userId, name);

const keys = new WeakMap<ServerContext, Promise<Buffer>>();

/** The signing key of this data directory (made on first use). */
function mediaKey(ctx: ServerContext): Promise<Buffer> {
  let k = keys.get(ctx);
  if (!k) {
    k = (async () => {
      const file = join(dirOf(ctx), '.media-key');
      try {
        const key = await readFile(file);
        if (key.length >= 32) return key;
      } catch {
        // made below
      }
      await mkdir(dirOf(ctx), { recursive: true, mode: 0o700 });
      const key = randomBytes(32);
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, key, { mode: 0o600 });
      await rename(tmp, file);
      return key;
    })();
    keys.set(ctx, k);
  }
  return k;
}

const sign = (key: Buffer, id: string, kind: MediaKind, exp: number) =>
  createHmac('sha256', key).update(`${id}:${kind}:${exp}`).digest('base64url');

/** A signed URL of the event's media valid for EVENT_MEDIA_URL_TTL_S (rounded to the minute so lists cache). */
export async function signedMediaUrl(
  ctx: ServerContext,
  id: string,
  kind: MediaKind,
  now = Date.now(),
): Promise<string> {
  const exp = Math.ceil((now / 1000 + EVENT_MEDIA_URL_TTL_S) / 60) * 60;
  const sig = sign(await mediaKey(ctx), id, kind, exp);
  return `/api/event-media/${id}/${kind}?exp=${exp}&sig=${sig}`;
}

/** Whether `sig` is the signature of (id, kind, exp) and exp has not passed. */
export async function verifyMediaSignature(
  ctx: ServerContext,
  id: string,
  kind: MediaKind,
  exp: number,
  sig: string,
  now = Date.now(),
): Promise<boolean> {
  if (exp * 1000 < now) return false;
  const want = Buffer.from(sign(await mediaKey(ctx), id, kind, exp));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** JPEG starts FF D8 FF; an MP4 has an 'ftyp' box first. */
export function looksLike(kind: MediaKind, bytes: Buffer): boolean {
  if (kind === 'snapshot')
    return bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  return bytes.length > 12 && bytes.toString('latin1', 4, 8) === 'ftyp';
}

/** Registers the device's raw PUT routes (called once, by the events handlers). */
export function registerEventMediaRoutes(app: ZodApp, ctx: ServerContext): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      ['image/jpeg', 'video/mp4'],
      { parseAs: 'buffer', bodyLimit: EVENT_CLIP_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    for (const kind of ['snapshot', 'clip'] as const) {
      scope.put<{ Params: { id: string } }>(
        `/api/device/events/:id/${kind}`,
        {
          schema: { hide: true },
          preHandler: authenticateDevice(ctx),
          bodyLimit: kind === 'snapshot' ? EVENT_SNAPSHOT_MAX_BYTES : EVENT_CLIP_MAX_BYTES,
        },
        async (request) => {
          const device = deviceOf(request);
          const id = request.params.id;
          const body = request.body;
          if (!Buffer.isBuffer(body) || !looksLike(kind, body)) {
            throw new HttpError(
              400,
              API_ERROR_CODES.validation,
              kind === 'snapshot'
                ? 'The snapshot must be a JPEG (image/jpeg).'
                : 'The clip must be an MP4 (video/mp4).',
            );
          }
          if (!isUuid(id)) throw new HttpError(404, API_ERROR_CODES.notFound, EVENT_TEXTS.notFound);
          const [row] = await ctx.db
            .select({ id: events.id, userId: events.userId })
            .from(events)
            .where(and(eq(events.id, id), eq(events.deviceId, device.id), eq(events.userId, device.ownerId)))
            .limit(1);
          if (!row) throw new HttpError(404, API_ERROR_CODES.notFound, EVENT_TEXTS.notFound);
          const name = mediaName(row.id, kind);
          const file = mediaPath(ctx, row.userId, name);
          await mkdir(join(dirOf(ctx), row.userId), { recursive: true, mode: 0o700 });
          const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
          await writeFile(tmp, body, { mode: 0o600 });
          await rename(tmp, file);
          await ctx.db
            .update(events)
            .set(kind === 'snapshot' ? { snapshotFile: name } : { clipFile: name })
            .where(eq(events.id, row.id));
          return { ok: true };
        },
      );
    }
  });
}
