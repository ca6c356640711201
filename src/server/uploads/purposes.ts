/**
 * The upload purpose registry (issue 9 "Uploads"; spec §7 `upload-model`): what an upload is for decides which
 * metadata it needs, how large it may be, which files are accepted (checked at creation, before the first byte)
 * and what happens to the stored file at the end.
 *
 * A feature adds ONE line to `UPLOAD_PURPOSES` with its purpose from its own folder (models:
 * `modelUploadPurpose` → tus metadata `purpose=model`, `modelId`; see src/protocol/uploads.ts).
 */
import { modelUploadPurpose } from '../models/uploadPurpose';
import { avatarUploadPurpose } from '../profile/avatar';
import type { AnyUploadPurpose } from './purpose';

export {
  definePurpose,
  requireExtension,
  type AnyUploadPurpose,
  type StoredUpload,
  type UploadAnnouncement,
  type UploadPurpose,
} from './purpose';

/**
 * Every purpose the tus endpoint accepts. One line per purpose, in its owner's folder:
 *   import { modelUploadPurpose } from '../routes/models…';   →   modelUploadPurpose,
 */
export const UPLOAD_PURPOSES: readonly AnyUploadPurpose[] = [modelUploadPurpose, avatarUploadPurpose];

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
