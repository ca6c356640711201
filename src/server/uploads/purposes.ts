/**
 * The upload purpose registry (issue 9 "Uploads"; spec §7 `upload-model`): what an upload is for decides which
 * metadata it needs, how large it may be, which files are accepted (checked at creation, before the first byte)
 * and what happens to the stored file at the end.
 *
 * A feature adds ONE line to `UPLOAD_PURPOSES` with its purpose from its own folder (models:
 * `modelUploadPurpose` → tus metadata `purpose=model`, `modelId`; see src/protocol/uploads.ts).
 */
import type { z } from 'zod';
import { extensionOf, UPLOAD_ERROR_CODES } from '../../protocol/uploads';
import type { UserRow } from '../auth/guard';
import type { ServerContext } from '../context';
import { HttpError } from '../errors';
import { modelUploadPurpose } from '../models/uploadPurpose';

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
 * Every purpose the tus endpoint accepts. One line per purpose, in its owner's folder:
 *   import { modelUploadPurpose } from '../routes/models…';   →   modelUploadPurpose,
 */
export const UPLOAD_PURPOSES: readonly AnyUploadPurpose[] = [modelUploadPurpose];

const testPurposes: AnyUploadPurpose[] = [];

/**
 * Tests only: accepts `purpose` besides `UPLOAD_PURPOSES` in this process (servers started in-process by
 * tests/unit). Returns the function that removes it again.
 */
export function registerTestPurpose(purpose: AnyUploadPurpose): () => void {
  testPurposes.push(purpose);
  return () => {
    const i = testPurposes.indexOf(purpose);
    if (i >= 0) testPurposes.splice(i, 1);
  };
}

/** Every purpose accepted now: `UPLOAD_PURPOSES` and those registered by tests. */
export function currentPurposes(): readonly AnyUploadPurpose[] {
  return [...UPLOAD_PURPOSES, ...testPurposes];
}

/** The purposes by name. @throws Error when two purposes share a name (a programming error). */
export function purposeMap(purposes: readonly AnyUploadPurpose[]): ReadonlyMap<string, AnyUploadPurpose> {
  const map = new Map<string, AnyUploadPurpose>();
  for (const p of purposes) {
    if (map.has(p.name)) throw new Error(`upload purpose '${p.name}' is registered twice`);
    map.set(p.name, p);
  }
  return map;
}

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
