/**
 * The 'model' upload purpose (issue 9 "Models"; spec §7 upload-model, §3 Upload "fileId, modelId"): a tus
 * upload whose metadata (ModelUploadTusMeta) makes a new model or a new version of one of the user's models.
 * Refused at creation, before any byte: a file whose extension is not one of the declared format's (or, for a
 * new version, the model's format) — 415; a model that is not the user's — 404; a taken name — 409; more than
 * MODEL_MAX_BYTES — 413 (the registry's check). complete() moves the file into model storage and records the
 * version; its result is ModelUploadResult { model, version }.
 */
import { MODEL_MAX_BYTES, ModelUploadTusMeta } from '../../protocol/models';
import type { UploadPurpose } from '../uploads/purpose';
import { addModelVersion, checkModelUpload, type ModelMeta } from './store';

// The purpose shape comes from uploads/purpose.ts; the list in uploads/purposes.ts imports this module.
export const modelUploadPurpose: UploadPurpose<ModelMeta> = {
  name: 'model',
  meta: ModelUploadTusMeta,
  maxBytes: MODEL_MAX_BYTES,
  async accept(ctx, user, meta, upload) {
    await checkModelUpload(ctx, user, meta, upload.fileName);
  },
  async complete(ctx, user, file, meta) {
    return addModelVersion(ctx, user, file, meta);
  },
};
