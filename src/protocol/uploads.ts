/**
 * Contracts of the uploads feature (issue 9 "Uploads"; spec §2 "Upload notification", §3 Upload entity,
 * §4 "Upload: progress, then success or failure; entries are removed afterwards", §7 `upload-model`, §8
 * upload toasts): resumable uploads over the tus 1.0 protocol (https://tus.io), `@tus/server` on the server and
 * `tus-js-client` in the console.
 *
 * The tus endpoint is `TUS_PATH` (creation: POST `/api/uploads`; an upload: HEAD/PATCH/DELETE
 * `/api/uploads/{id}`), authenticated like every REST call with `Authorization: Token {access token}`. It replaces
 * §7's multipart `upload-model`: that call is a tus upload with metadata `purpose=model`, the tus upload id is
 * §3's `fileId` and `modelId` travels in the metadata.
 *
 * Upload-Metadata (tus: comma-separated `key base64(value)` pairs) always carries `UploadBaseMeta`; a purpose
 * (src/server/uploads/purposes.ts) adds its own keys. The server refuses a creation (before any byte) with a
 * JSON `{ code, message }` body: 400 `Validation_error` (metadata), 413 `Payload_too_large` (size over the
 * purpose's limit), 415 `Unsupported_media_type` (type refused by the purpose), or the purpose's own error. The
 * last PATCH's answer (status 200) is the purpose's JSON result; a checksum mismatch answers 460
 * `Checksum_mismatch` and the stored bytes are removed.
 */
import { z } from 'zod';

/** The tus endpoint (creation URL); an upload's URL is `${TUS_PATH}/{id}`. */
export const TUS_PATH = '/api/uploads';

/** Unfinished uploads are expired and their bytes removed this long after their creation (24 h). */
export const UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** Bytes per PATCH request the console sends (16 MiB): after an interruption at most this much is sent again. */
export const UPLOAD_CHUNK_BYTES = 16 * 1024 * 1024;

/** Longest file name (characters) an upload may carry. */
export const UPLOAD_FILENAME_MAX = 255;

/** Status of a refused checksum at the end (tus checksum extension's 460 "Checksum Mismatch"). */
export const CHECKSUM_MISMATCH_STATUS = 460;

/** Error codes of the tus endpoint beyond the API's usual ones. */
export const UPLOAD_ERROR_CODES = {
  payloadTooLarge: 'Payload_too_large',
  unsupportedType: 'Unsupported_media_type',
  checksumMismatch: 'Checksum_mismatch',
  unknownPurpose: 'Unknown_purpose',
} as const;

/** A lowercase hex SHA-256 digest (64 characters). */
export const Sha256Hex = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'a SHA-256 digest in lowercase hex (64 characters)')
  .describe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');

/** A file name without a directory part: no `/`, `\`, NUL or control characters, not `.` or `..`. */
export const UploadFileName = z
  .string()
  .min(1)
  .max(UPLOAD_FILENAME_MAX)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^/\\\u0000-\u001f\u007f]+$/, 'a file name without a directory part')
  .refine((s) => s !== '.' && s !== '..', 'a file name without a directory part')
  .describe('yolov8n.onnx');

/** Metadata every upload carries (tus Upload-Metadata keys), besides its purpose's own keys. */
export const UploadBaseMeta = z.object({
  /** The purpose's name ('model', …): which registry entry checks and takes the file. */
  purpose: z.string().min(1).max(64),
  /** The browser's file name (tus-js-client convention: `filename`). */
  filename: UploadFileName,
  /** The browser's MIME type, may be empty (tus-js-client convention: `filetype`). */
  filetype: z.string().max(255).optional(),
  /** SHA-256 of the whole file computed by the console; the server checks the stored bytes against it. */
  sha256: Sha256Hex,
});
export type UploadBaseMeta = z.infer<typeof UploadBaseMeta>;

/** Metadata keys the server sets itself (a client's values are ignored). */
export const SERVER_META_KEYS = ['userId'] as const;

/** An error answer of the tus endpoint (same shape as every REST error). */
export const UploadError = z.object({ code: z.string(), message: z.string() });
export type UploadError = z.infer<typeof UploadError>;

/** The lower-case extension of a file name with its dot ('.onnx'), or '' when it has none. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot).toLowerCase() : '';
}
