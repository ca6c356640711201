/**
 * The records feature's contract (issue 16 §2 records; §2 /control-panel/records; §8 "Records: device does not
 * exist or not connected for removal"; §9 "Recorded video codec vp8"): recordings (WebM, VP8) kept on devices.
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 *
 * One link message is at most ~16 KB, so files move in chunks of at most RECORD_CHUNK_BYTES decoded bytes,
 * base64 in `data`. Saving: records-save-begin (name, size, sha256) → records-save-chunk × n (in order, each
 * at the offset the device has received so far) → records-save-finish (size and sha256 checked, then the file
 * appears atomically under its name). An upload not touched for RECORD_UPLOAD_IDLE_MS is dropped.
 * Refusals are CommandErrors with the codes of RECORD_ERROR_CODES.
 */
import { z } from 'zod';
import { defineCommands } from './command';

/**
 * Most decoded bytes of one chunk (save or read): 11 KB, whose base64 (15,020 characters) and the message
 * envelope fit one link message (PeerJS refuses JSON messages from ~16,300 bytes).
 */
export const RECORD_CHUNK_BYTES = 11 * 1024;
/** Largest recording a device keeps: 200 MB. */
export const RECORD_MAX_BYTES = 200 * 1024 * 1024;
/** An upload with no chunk for this long is dropped (ms). */
export const RECORD_UPLOAD_IDLE_MS = 5 * 60_000;
/** Uploads in progress at once on one device. */
export const RECORD_MAX_UPLOADS = 4;
/** §9 "Recorded video codec vp8": the container and MIME type of recordings. */
export const RECORD_MIME = 'video/webm';

/** Codes of the records commands' CommandErrors. */
export const RECORD_ERROR_CODES = {
  /** Name not `[A-Za-z0-9 ._-]+.webm` or tries to leave the records directory. */
  badName: 'invalid_name',
  notFound: 'not_found',
  /** A recording of that name exists already (save-begin). */
  exists: 'exists',
  /** Size above RECORD_MAX_BYTES. */
  tooLarge: 'too_large',
  /** Chunk offset is not what the device received so far, or beyond the file (read). */
  badOffset: 'bad_offset',
  /** Upload id unknown or expired. */
  noUpload: 'unknown_upload',
  /** Received size or sha256 differs from the announced ones (finish); the upload is dropped. */
  mismatch: 'checksum_mismatch',
  busy: 'busy',
  io: 'io_error',
} as const;

/** A recording's file name: 1–120 of [A-Za-z0-9 ._-] ending in '.webm', not starting with '.' (no traversal). */
export const RecordName = z
  .string()
  .min(6)
  .max(125)
  .regex(
    /^[A-Za-z0-9_-][A-Za-z0-9 ._-]*\.webm$/,
    'Use letters, digits, space, ".", "_", "-" and end in .webm',
  )
  .refine((s) => !s.includes('..'), 'No ".." in names')
  .meta({ examples: ['clip-2026-01-01.webm', 'Camera 0 2026-11-24T07-00-00.webm'] });

/** Base64 of at most RECORD_CHUNK_BYTES bytes. */
export const RecordChunkData = z
  .string()
  .max(Math.ceil(RECORD_CHUNK_BYTES / 3) * 4)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Not base64')
  .meta({ examples: ['GkXfow==', ''] });

/** One recording kept on the device. */
export const RecordItem = z.object({
  name: RecordName,
  /** Bytes. */
  size: z.number().int().min(0),
  /** When it was saved, ISO 8601 UTC. */
  created: z.string(),
  /** Label of the camera it was recorded from, when the saver said; else null. */
  camera: z.string().nullable(),
});
export type RecordItem = z.infer<typeof RecordItem>;

export const RecordsListRequest = z
  .object({
    /** 1-based page. */
    page: z.number().int().min(1).max(100_000).default(1),
    page_size: z.number().int().min(1).max(100).default(50),
  })
  .strict();
/** Newest first. `total`: recordings on the device. */
export const RecordsListReply = z.object({
  items: z.array(RecordItem),
  total: z.number().int().min(0),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type RecordsListReply = z.infer<typeof RecordsListReply>;

export const RecordsSaveBegin = z
  .object({
    name: RecordName,
    /** Bytes, 1–RECORD_MAX_BYTES. */
    size: z
      .number()
      .int()
      .min(1)
      .max(RECORD_MAX_BYTES * 100),
    /** SHA-256 of the whole file, lower-case hex. */
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'Not a SHA-256 hex digest')
      .meta({ examples: ['e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'] }),
    camera: z.string().trim().max(100).nullable().default(null),
  })
  .strict();
export const RecordsSaveBeginReply = z.object({ upload_id: z.string(), chunk_bytes: z.number().int() });

export const RecordsSaveChunk = z
  .object({
    upload_id: z.string().min(1).max(64),
    /** Bytes; must equal what the device has received so far. */
    offset: z.number().int().min(0),
    data: RecordChunkData,
  })
  .strict();
/** `received`: bytes received so far. */
export const RecordsSaveChunkReply = z.object({ received: z.number().int() });

export const UploadRef = z.object({ upload_id: z.string().min(1).max(64) }).strict();

export const RecordsRead = z
  .object({
    name: RecordName,
    /** Bytes from the start; ≤ size. */
    offset: z.number().int().min(0),
    /** Bytes, 1–RECORD_CHUNK_BYTES (fewer come back at the end). */
    length: z.number().int().min(1).max(RECORD_CHUNK_BYTES),
  })
  .strict();
export const RecordsReadReply = z.object({
  data: z.string(),
  offset: z.number().int(),
  /** The file's whole size, bytes. */
  size: z.number().int(),
  eof: z.boolean(),
});
export type RecordsReadReply = z.infer<typeof RecordsReadReply>;

export const RecordRef = z.object({ name: RecordName }).strict();

export const recordCommands = defineCommands({
  /** Recordings on the device, newest first, paged. */
  'records-list': { request: RecordsListRequest, reply: RecordsListReply },
  /** Starts saving a recording; errors invalid_name, exists, too_large, busy. */
  'records-save-begin': { request: RecordsSaveBegin, reply: RecordsSaveBeginReply },
  /** Appends one chunk; errors unknown_upload, bad_offset, too_large. */
  'records-save-chunk': { request: RecordsSaveChunk, reply: RecordsSaveChunkReply },
  /** Checks size + sha256 and makes the file appear; errors unknown_upload, checksum_mismatch, exists. */
  'records-save-finish': { request: UploadRef, reply: RecordItem },
  /** Drops an upload in progress (idempotent). */
  'records-save-abort': { request: UploadRef, reply: z.object({ aborted: z.boolean() }) },
  /** Reads a chunk of a recording (play, download); errors not_found, bad_offset. */
  'records-read': { request: RecordsRead, reply: RecordsReadReply },
  /** Removes a recording; error not_found. */
  'records-remove': { request: RecordRef, reply: z.object({ removed: z.literal(true) }) },
});
