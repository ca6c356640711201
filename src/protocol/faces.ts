/**
 * The faces feature's contract (issue 11 "Faces: a gallery of enrolled faces (upload or pick from events);
 * face alarms for people on the blacklist"; spec §2 routes `/blacklist-faces` and `/face-alarms`).
 *
 * A face is a person the cameras have seen, by the identity the face engine gives (the `sim` scene's people
 * have stable identities, `person-<n>`), with a label, a picture and whether the person is on the blacklist.
 * Face alarms (src/protocol/alarms.ts kind 'face') fire on the blacklisted identities: every face alarm a
 * device is sent (`alarm-new`) carries them, so the console sends `alarm-new` again after every change here.
 *
 * Enrolling: from an event (its identity, its snapshot copied as the picture; 400 when it has none) or by
 * upload. No face engine runs on the server, so an uploaded photo is linked to an identity the cameras have
 * already seen (`faces.seen` lists them). The upload's body is the picture itself (Content-Type image/jpeg or
 * image/png, ≤ FACE_PICTURE_MAX_BYTES, checked by its first bytes, not by the header), the rest in the query.
 * Pictures are read through short-lived signed URLs (`picture_url`; an <img> sends no Authorization header).
 */
import { z } from 'zod';
import { Severity } from './alarms';
import { defineRoutes, Id } from './route';

const Uuid = z.uuid().meta({ examples: ['2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11'] });
const Instant = z.iso.datetime({ offset: true });

/** Largest uploaded picture, bytes (2 MiB). */
export const FACE_PICTURE_MAX_BYTES = 2 * 1024 * 1024;
/** Longest label; longest identity (an identifier). */
export const FACE_LABEL_MAX_CHARS = 120;
export const FACE_IDENTITY_MAX_CHARS = 200;
/** Most recent person events `faces.seen` lists; most identities it lists. */
export const FACES_SEEN_EVENTS_MAX = 48;
export const FACES_SEEN_IDENTITIES_MAX = 500;
/** Face alarm events per page (default and most). */
export const FACE_EVENTS_PAGE_DEFAULT = 50;
export const FACE_EVENTS_PAGE_MAX = 200;
/** The picture types an upload may have (checked by magic bytes, not by the header). */
export const FACE_PICTURE_TYPES = ['image/jpeg', 'image/png'] as const;

export const FaceLabel = z.string().trim().min(1, 'Label is required').max(FACE_LABEL_MAX_CHARS);
export const FaceIdentity = z.string().trim().min(1, 'Choose a person').max(FACE_IDENTITY_MAX_CHARS);

/** An enrolled face as the console reads it; picture_url is signed (null: no picture). */
export const FaceView = z.object({
  id: z.string(),
  identity: z.string(),
  label: z.string(),
  blacklisted: z.boolean(),
  picture_url: z.string().nullable(),
  source_event_id: z.string().nullable(),
  created_at: z.string(),
});
export type FaceView = z.infer<typeof FaceView>;

/** A recent event of a person with an identity (the "Enroll from events" picker). */
export const SeenEvent = z.object({
  id: z.string(),
  identity: z.string(),
  at: z.string(),
  camera_id: z.string(),
  device_label: z.string().nullable(),
  snapshot_url: z.string().nullable(),
});
export type SeenEvent = z.infer<typeof SeenEvent>;

/** An identity seen in the caller's events: how many events, the last one's time. */
export const SeenIdentity = z.object({ identity: z.string(), events: z.number().int(), last_at: z.string() });
export type SeenIdentity = z.infer<typeof SeenIdentity>;

/** An event of a face alarm, with the person's gallery label (null: not in the gallery any more). */
export const FaceAlarmEvent = z.object({
  id: z.string(),
  alarm_id: z.string().nullable(),
  alarm_name: z.string().nullable(),
  identity: z.string().nullable(),
  label: z.string().nullable(),
  camera_id: z.string(),
  device_label: z.string().nullable(),
  at: z.string(),
  severity: Severity,
  reviewed: z.boolean(),
  snapshot_url: z.string().nullable(),
});
export type FaceAlarmEvent = z.infer<typeof FaceAlarmEvent>;

export const FaceAlarmEventsQuery = z
  .object({
    identity: FaceIdentity.optional(),
    before_at: Instant.optional(),
    before_id: Uuid.optional(),
    limit: z.coerce.number().int().min(1).max(FACE_EVENTS_PAGE_MAX).default(FACE_EVENTS_PAGE_DEFAULT),
  })
  .strict();
export type FaceAlarmEventsQuery = z.infer<typeof FaceAlarmEventsQuery>;
export type FaceAlarmEventsQueryIn = z.input<typeof FaceAlarmEventsQuery>;

export const FaceAlarmEventsPage = z.object({
  events: z.array(FaceAlarmEvent),
  next: z.object({ before_at: z.string(), before_id: z.string() }).nullable(),
});
export type FaceAlarmEventsPage = z.infer<typeof FaceAlarmEventsPage>;

/** Enroll from an event: its identity and snapshot; the label defaults to the identity. */
export const EnrollFromEventBody = z
  .object({
    event_id: Uuid,
    label: FaceLabel.optional(),
    blacklisted: z.boolean().default(true),
  })
  .strict();
export type EnrollFromEventBody = z.infer<typeof EnrollFromEventBody>;
export type EnrollFromEventBodyIn = z.input<typeof EnrollFromEventBody>;

/** The upload's query (the body is the picture). */
export const FaceUploadQuery = z
  .object({
    identity: FaceIdentity,
    label: FaceLabel,
    blacklisted: z.enum(['true', 'false']).default('true'),
  })
  .strict();
export type FaceUploadQuery = z.infer<typeof FaceUploadQuery>;

/** Rename and / or put on or take off the blacklist. */
export const FaceUpdateBody = z
  .object({ label: FaceLabel.optional(), blacklisted: z.boolean().optional() })
  .strict()
  .refine((b) => b.label !== undefined || b.blacklisted !== undefined, {
    message: 'Nothing to change',
  });
export type FaceUpdateBody = z.infer<typeof FaceUpdateBody>;

/** Texts the server answers with (en); the console shows them translated by these keys. */
export const FACE_TEXTS = {
  notFound: 'Face not found.',
  eventNotFound: 'Event not found.',
  noIdentity: 'This event has no identity: only a person recognised by the cameras can be enrolled.',
  noSnapshot: 'This event has no snapshot yet; try again in a moment.',
  duplicate: 'This person is already in your gallery.',
  identityUnknown: 'No event of yours shows this person: choose one of the people the cameras have seen.',
  badPicture: 'The picture must be a JPEG or PNG image.',
  tooLarge: 'The picture is too large (at most 2 MB).',
} as const;

const FaceParams = z.object({ id: Id });

export const faceRoutes = defineRoutes({
  'faces.list': {
    method: 'GET',
    path: '/api/faces',
    auth: 'user',
    summary: 'The caller’s enrolled faces (gallery), by label',
    answer: z.object({ faces: z.array(FaceView) }),
  },
  'faces.seen': {
    method: 'GET',
    path: '/api/faces/seen',
    auth: 'user',
    summary: 'Recent person events with an identity, and every identity seen in the caller’s events',
    answer: z.object({ events: z.array(SeenEvent), identities: z.array(SeenIdentity) }),
  },
  'faces.enrollFromEvent': {
    method: 'POST',
    path: '/api/faces/from-event',
    auth: 'user',
    summary:
      'Enrolls the person of an event (identity and snapshot). 400 no identity or snapshot, 404 unknown event, 409 already enrolled.',
    body: EnrollFromEventBody,
    answer: FaceView,
    errors: [404, 409],
  },
  'faces.upload': {
    method: 'POST',
    path: '/api/faces/upload',
    auth: 'user',
    summary:
      'Enrolls a person seen in the caller’s events with an uploaded picture: the raw body (image/jpeg or image/png, ≤ 2 MiB); identity, label, blacklisted in the query. 400 not a JPEG/PNG, 404 identity never seen, 409 already enrolled, 413 too large.',
    query: FaceUploadQuery,
    // No body schema: the body is the raw picture, read by the route's content-type parser.
    answer: FaceView,
    errors: [404, 409, 413],
  },
  'faces.update': {
    method: 'PUT',
    path: '/api/faces/:id',
    auth: 'user',
    summary: 'Renames a face and / or puts it on or takes it off the blacklist. 404 when not the caller’s.',
    params: FaceParams,
    body: FaceUpdateBody,
    answer: FaceView,
    errors: [404],
  },
  'faces.remove': {
    method: 'DELETE',
    path: '/api/faces/:id',
    auth: 'user',
    summary: 'Deletes an enrolled face and its picture. 404 when not the caller’s.',
    params: FaceParams,
    answer: z.object({ ok: z.literal(true) }),
    errors: [404],
  },
  'faces.alarmEvents': {
    method: 'GET',
    path: '/api/faces/alarm-events',
    auth: 'user',
    summary: 'Events of the caller’s face alarms, newest first, with the person’s label; keyset-paged',
    query: FaceAlarmEventsQuery,
    answer: FaceAlarmEventsPage,
  },
  /** A signed URL's bytes (no Authorization: an <img> sends none). 404 bad or expired signature. */
  'faces.picture': {
    method: 'GET',
    path: '/api/face-pictures/:id',
    auth: 'none',
    summary: 'An enrolled face’s picture (image/jpeg or image/png) by signed URL; 404 otherwise.',
    params: FaceParams,
    query: z
      .object({ exp: z.coerce.number().int().min(0).max(1e13), sig: z.string().min(1).max(128) })
      .strict(),
    answer: z.unknown(),
    errors: [404],
  },
});
