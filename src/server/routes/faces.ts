/**
 * Handlers of the faces feature's routes (src/protocol/faces.ts; issue 11 "Faces", `/blacklist-faces`,
 * `/face-alarms`):
 *   GET    faces                 → { faces } the caller's gallery, by label
 *   GET    faces/seen            → { events, identities } recent person events with an identity (one per
 *                                   person, newest first) and every identity seen in the caller's events
 *   POST   faces/from-event      → FaceView: the event's identity, its snapshot copied as the picture;
 *                                   400 no identity, 404 not the caller's event, 409 already enrolled
 *   POST   faces/upload?identity&label&blacklisted  (raw body image/jpeg|png ≤ FACE_PICTURE_MAX_BYTES, read
 *                                   by this file's content-type parser after the caller's credentials)
 *                                 → FaceView; 400 not a JPEG/PNG, 404 identity never seen, 409, 413
 *   PUT    faces/:id             → FaceView (label and / or blacklisted); 404
 *   DELETE faces/:id             → { ok } (its picture removed); 404
 *   GET    faces/alarm-events    → { events, next } events of the caller's face alarms with the gallery label
 *   GET    face-pictures/:id     → the picture's bytes while the signature holds; 404 otherwise
 * A change to the blacklist reaches the devices through `alarm-new`, sent again by the console (every face
 * alarm carries the blacklisted identities: src/server/alarms/store.ts deviceAlarmsFor); a device that is
 * not connected asks for its list when its agent starts.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { and, count, desc, eq, isNotNull, lt, max, or, sql, type SQL } from 'drizzle-orm';
import { API_ERROR_CODES } from '../../protocol';
import { Severity } from '../../protocol/alarms';
import {
  FACE_PICTURE_MAX_BYTES,
  FACE_TEXTS,
  FACES_SEEN_EVENTS_MAX,
  FACES_SEEN_IDENTITIES_MAX,
  FACE_PICTURE_TYPES,
  type faceRoutes,
} from '../../protocol/faces';
import type { FastifyRequest } from 'fastify';
import { authenticateUser, userOf } from '../auth/guard';
import type { ServerContext } from '../context';
import { isUniqueViolation, isUuid } from '../db/scope';
import { alarms, devices, events, faceIdentities } from '../db/schema';
import { HttpError } from '../errors';
import { signedMediaUrl, mediaPath } from '../events/media';
import {
  copySnapshot,
  faceRowsOf,
  ownFace,
  pictureContentType,
  pictureTypeOf,
  removePicture,
  toFaceView,
  verifyPictureSignature,
  writePicture,
} from '../faces/store';
import type { ZodApp } from './types';
import type { HandlersOf } from './register';

const notFound = () => new HttpError(404, API_ERROR_CODES.notFound, FACE_TEXTS.notFound);
const duplicate = () => new HttpError(409, 'Face_exists', FACE_TEXTS.duplicate);
const invalid = (message: string) => new HttpError(400, API_ERROR_CODES.validation, message);

/** Whether the user already has this identity in the gallery. */
async function enrolled(ctx: ServerContext, userId: string, identity: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: faceIdentities.id })
    .from(faceIdentities)
    .where(and(eq(faceIdentities.userId, userId), eq(faceIdentities.identity, identity)))
    .limit(1);
  return !!row;
}

/** Inserts a face whose picture file (if any) is already written; a lost race for the identity → 409. */
async function insertFace(
  ctx: ServerContext,
  values: typeof faceIdentities.$inferInsert & { id: string; userId: string },
) {
  try {
    const [row] = await ctx.db.insert(faceIdentities).values(values).returning();
    return toFaceView(ctx, row!);
  } catch (err) {
    await removePicture(ctx, values.userId, values.imageFile ?? null);
    if (isUniqueViolation(err)) throw duplicate();
    throw err;
  }
}

const UPLOAD_PATH = '/api/faces/upload';

/** The upload's parsed body: the picture's bytes (a Buffer); read only after the caller's credentials. */
function registerPictureParser(app: ZodApp, ctx: ServerContext): void {
  app.addContentTypeParser(
    [...FACE_PICTURE_TYPES],
    async (request: FastifyRequest, payload: AsyncIterable<Buffer>) => {
      if (request.routeOptions.url !== UPLOAD_PATH || request.method !== 'POST')
        throw new HttpError(415, 'Unsupported_media_type', 'This route takes JSON.');
      await authenticateUser(ctx).call(app, request, undefined as never);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of payload) {
        size += chunk.length;
        if (size > FACE_PICTURE_MAX_BYTES) throw new HttpError(413, 'Payload_too_large', FACE_TEXTS.tooLarge);
        chunks.push(chunk);
      }
      return Buffer.concat(chunks);
    },
  );
}

export const faceHandlers: HandlersOf<typeof faceRoutes> = (ctx, app) => {
  registerPictureParser(app, ctx);
  return {
    'faces.list': async (_input, request) => {
      const rows = await faceRowsOf(ctx.db, userOf(request).id);
      const now = Date.now();
      return { faces: await Promise.all(rows.map((r) => toFaceView(ctx, r, now))) };
    },

    'faces.seen': async (_input, request) => {
      const userId = userOf(request).id;
      const mine = and(eq(events.userId, userId), isNotNull(events.identity));
      // The newest event of each person (with a snapshot first), then the newest people first.
      const latest = await ctx.db
        .selectDistinctOn([events.identity], {
          id: events.id,
          identity: events.identity,
          at: events.at,
          cameraId: events.cameraId,
          deviceLabel: devices.label,
          snapshotFile: events.snapshotFile,
        })
        .from(events)
        .leftJoin(devices, eq(devices.id, events.deviceId))
        .where(mine)
        .orderBy(events.identity, sql`${events.snapshotFile} is null`, desc(events.at));
      latest.sort((a, b) => b.at.getTime() - a.at.getTime());
      const identities = await ctx.db
        .select({ identity: events.identity, n: count(), lastAt: max(events.at) })
        .from(events)
        .where(mine)
        .groupBy(events.identity)
        .orderBy(desc(max(events.at)))
        .limit(FACES_SEEN_IDENTITIES_MAX);
      const now = Date.now();
      return {
        events: await Promise.all(
          latest.slice(0, FACES_SEEN_EVENTS_MAX).map(async (e) => ({
            id: e.id,
            identity: e.identity ?? '',
            at: e.at.toISOString(),
            camera_id: e.cameraId,
            device_label: e.deviceLabel,
            snapshot_url: e.snapshotFile ? await signedMediaUrl(ctx, e.id, 'snapshot', now) : null,
          })),
        ),
        identities: identities.map((i) => ({
          identity: i.identity ?? '',
          events: i.n,
          last_at: (i.lastAt ?? new Date(0)).toISOString(),
        })),
      };
    },

    'faces.enrollFromEvent': async ({ body }, request) => {
      const userId = userOf(request).id;
      const [event] = await ctx.db
        .select({ id: events.id, identity: events.identity, snapshotFile: events.snapshotFile })
        .from(events)
        .where(and(eq(events.id, body.event_id), eq(events.userId, userId)))
        .limit(1);
      if (!event) throw new HttpError(404, API_ERROR_CODES.notFound, FACE_TEXTS.eventNotFound);
      const identity = event.identity?.trim();
      if (!identity) throw invalid(FACE_TEXTS.noIdentity);
      if (await enrolled(ctx, userId, identity)) throw duplicate();
      const id = randomUUID();
      // The snapshot follows its event by the time the device uploads it: without one, no picture yet.
      const imageFile = event.snapshotFile
        ? await copySnapshot(ctx, userId, id, event.snapshotFile).catch(() => null)
        : null;
      return insertFace(ctx, {
        id,
        userId,
        identity,
        label: body.label ?? identity,
        imageFile,
        sourceEventId: event.id,
        blacklisted: body.blacklisted,
      });
    },

    'faces.upload': async ({ query }, request) => {
      const userId = userOf(request).id;
      const body: unknown = request.body;
      const type = Buffer.isBuffer(body) ? pictureTypeOf(body) : null;
      if (!type || !Buffer.isBuffer(body)) throw invalid(FACE_TEXTS.badPicture);
      const { identity, label } = query;
      const [seen] = await ctx.db
        .select({ id: events.id })
        .from(events)
        .where(and(eq(events.userId, userId), eq(events.identity, identity)))
        .limit(1);
      if (!seen) throw new HttpError(404, API_ERROR_CODES.notFound, FACE_TEXTS.identityUnknown);
      if (await enrolled(ctx, userId, identity)) throw duplicate();
      const id = randomUUID();
      const imageFile = await writePicture(ctx, userId, id, type, body);
      return insertFace(ctx, {
        id,
        userId,
        identity,
        label,
        imageFile,
        blacklisted: query.blacklisted === 'true',
      });
    },

    'faces.update': async ({ params, body }, request) => {
      const userId = userOf(request).id;
      if (!(await ownFace(ctx.db, userId, params.id))) throw notFound();
      const [row] = await ctx.db
        .update(faceIdentities)
        .set({
          ...(body.label !== undefined ? { label: body.label } : {}),
          ...(body.blacklisted !== undefined ? { blacklisted: body.blacklisted } : {}),
        })
        .where(and(eq(faceIdentities.id, params.id), eq(faceIdentities.userId, userId)))
        .returning();
      if (!row) throw notFound();
      return toFaceView(ctx, row);
    },

    'faces.remove': async ({ params }, request) => {
      const userId = userOf(request).id;
      const row = await ownFace(ctx.db, userId, params.id);
      if (!row) throw notFound();
      await ctx.db
        .delete(faceIdentities)
        .where(and(eq(faceIdentities.id, row.id), eq(faceIdentities.userId, userId)));
      await removePicture(ctx, userId, row.imageFile);
      return { ok: true as const };
    },

    'faces.alarmEvents': async ({ query }, request) => {
      const userId = userOf(request).id;
      const where: SQL[] = [eq(events.userId, userId), eq(alarms.kind, 'face')];
      if (query.identity) where.push(eq(events.identity, query.identity));
      if (query.before_at) {
        const at = new Date(query.before_at);
        where.push(
          query.before_id
            ? (or(lt(events.at, at), and(eq(events.at, at), lt(events.id, query.before_id))) as SQL)
            : lt(events.at, at),
        );
      }
      const rows = await ctx.db
        .select({
          e: events,
          alarmName: alarms.name,
          deviceLabel: devices.label,
          label: faceIdentities.label,
        })
        .from(events)
        .innerJoin(alarms, eq(alarms.id, events.alarmId))
        .leftJoin(devices, eq(devices.id, events.deviceId))
        .leftJoin(
          faceIdentities,
          and(eq(faceIdentities.userId, events.userId), eq(faceIdentities.identity, events.identity)),
        )
        .where(and(...where))
        .orderBy(desc(events.at), desc(events.id))
        .limit(query.limit + 1);
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      const now = Date.now();
      return {
        events: await Promise.all(
          page.map(async ({ e, alarmName, deviceLabel, label }) => ({
            id: e.id,
            alarm_id: e.alarmId,
            alarm_name: alarmName,
            identity: e.identity,
            label,
            camera_id: e.cameraId,
            device_label: deviceLabel,
            at: e.at.toISOString(),
            severity: Severity.catch('warning').parse(e.severity),
            reviewed: e.reviewed,
            snapshot_url: e.snapshotFile ? await signedMediaUrl(ctx, e.id, 'snapshot', now) : null,
          })),
        ),
        next:
          rows.length > query.limit && last
            ? { before_at: last.e.at.toISOString(), before_id: last.e.id }
            : null,
      };
    },

    'faces.picture': async ({ params, query }, _request, reply) => {
      if (!isUuid(params.id)) throw notFound();
      if (!(await verifyPictureSignature(ctx, params.id, query.exp, query.sig))) throw notFound();
      const [row] = await ctx.db
        .select()
        .from(faceIdentities)
        .where(eq(faceIdentities.id, params.id))
        .limit(1);
      if (!row?.imageFile) throw notFound();
      const file = mediaPath(ctx, row.userId, row.imageFile);
      const info = await stat(file).catch(() => null);
      if (!info) throw notFound();
      void reply
        .header('content-type', pictureContentType(row.imageFile))
        .header('content-length', String(info.size))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=3600');
      return reply.send(createReadStream(file));
    },
  };
};
