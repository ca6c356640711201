/**
 * What an upload purpose is (issue 9 "Uploads"; src/protocol/uploads.ts): its metadata schema, size limit and
 * `accept` check (run at creation, before the first byte) and its `complete` step (takes the stored file). The
 * purposes themselves are listed in purposes.ts; a feature's purpose imports its shape from here.
 */
import type { z } from 'zod';
import { extensionOf, UPLOAD_ERROR_CODES } from '../../protocol/uploads';
import type { UserRow } from '../auth/guard';
import type { ServerContext } from '../context';
import { HttpError } from '../errors';

/** The file an upload produced, as a purpose's `complete` receives it. */
export interface StoredUpload {
  /** Absolute path of the stored bytes; `complete` may move (rename) or copy it. Gone after `complete`. */
  path: string;
  /** Size in bytes. */
  size: number;
  /** SHA-256 of the stored bytes, lowercase hex (already checked against the console's). */
  sha256: string;
  /** The browser's file name (no directory part). */
  fileName: string;
  /** The tus upload id (§3 `fileId`). */
  uploadId: string;
}

/** What a purpose's `accept` is told about the upload being created (no byte has arrived yet). */
export interface UploadAnnouncement {
  /** Upload-Length in bytes. */
  size: number;
  /** The browser's file name (no directory part). */
  fileName: string;
  /** The browser's MIME type ('' when it gave none). */
  fileType: string;
}

/**
 * One kind of upload. `M` is the shape of its own metadata keys (all strings in tus metadata).
 *
 * - `meta`: zod schema of the purpose's Upload-Metadata keys (unknown keys are ignored); a mismatch answers 400
 *   `Validation_error` at creation.
 * - `maxBytes`: a larger Upload-Length answers 413 `Payload_too_large` at creation.
 * - `accept`: throw an `HttpError` (src/server/errors.ts) to refuse at creation: type (415
 *   `Unsupported_media_type`, see `unsupportedType`), quota, permissions (404 for another user's model).
 * - `complete`: called once the bytes are stored and their SHA-256 matched; take the file (move or copy it
 *   away from `file.path`, which is removed afterwards) and record it. Its JSON-serialisable result is the last
 *   PATCH's answer, given to the console's uploads actor (`upload.done` { purpose, meta, result }). A throw
 *   fails the upload (an HttpError keeps its status and `{ code, message }`; anything else is a 500) and its
 *   bytes are removed.
 */
export interface UploadPurpose<M = unknown> {
  name: string;
  meta: z.ZodType<M>;
  maxBytes: number;
  accept(ctx: ServerContext, user: UserRow, meta: M, upload: UploadAnnouncement): Promise<void>;
  complete(ctx: ServerContext, user: UserRow, file: StoredUpload, meta: M): Promise<unknown>;
}

/** A purpose with its metadata type kept (use it to declare one: `definePurpose({ name: 'model', … })`). */
export function definePurpose<M>(purpose: UploadPurpose<M>): UploadPurpose<M> {
  return purpose;
}

/** Any purpose, as the registry holds them. */
export type AnyUploadPurpose = UploadPurpose<never> | UploadPurpose<unknown>;

/**
 * For a purpose's `accept`: refuses a file whose extension (lower case, with its dot) is not in `allowed`, with
 * 415 `Unsupported_media_type` "{file}: only .onnx, .pt … files are accepted.".
 */
export function requireExtension(fileName: string, allowed: readonly string[]): void {
  if (allowed.includes(extensionOf(fileName))) return;
  throw new HttpError(
    415,
    UPLOAD_ERROR_CODES.unsupportedType,
    `${fileName}: only ${allowed.join(', ')} files are accepted.`,
  );
}
