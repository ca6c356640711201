/**
 * One upload of one file (issue 9 "Uploads"; spec §3 Upload entity: file, fileId, modelId, progress, cancel
 * handle; §4 "Upload: progress, then success or failure"; §7 `upload-model`, here a tus upload).
 *
 * hashing (SHA-256 of the file, incrementally; skipped when known, e.g. resumed after a reload) → uploading
 * (tus: created, then PATCHes with progress; network drops and server restarts are retried by the transfer
 * itself, resuming from the server's offset) → done | failed | cancelled (final). Cancel stops the transfer and
 * removes the upload from the server (`terminateUpload`). Each final state forgets what was kept to resume it
 * (`forgetUpload`) and tells the parent (`upload.finished`). Pure: `hashFile`, `runUpload`, `terminateUpload` and
 * `forgetUpload` are provided by src/console/features/uploads/actors.ts.
 */
import { assign, fromCallback, fromPromise, sendParent, setup } from 'xstate';

export interface UploadInput {
  /** Local id (the uploads actor's key, the IndexedDB key). */
  id: string;
  /** The file; null for a record restored without its bytes (cannot go on). */
  file: Blob | null;
  fileName: string;
  /** Bytes. */
  size: number;
  /** The server purpose ('model', …): src/server/uploads/purposes.ts. */
  purpose: string;
  /** The purpose's metadata (e.g. `{ modelId }`). */
  meta: Record<string, string>;
  /** Known SHA-256 (hex) when resumed; null: computed first. */
  sha256?: string | null;
  /** The tus upload URL when resumed (§3 fileId is its last segment); null: created. */
  uploadUrl?: string | null;
}

/** What the hashing and transfer actors report. */
export type UploadReport =
  | { type: 'upload.hashProgress'; done: number }
  | { type: 'upload.hashed'; sha256: string }
  | { type: 'upload.created'; uploadUrl: string }
  | { type: 'upload.progress'; sent: number; total: number }
  | { type: 'upload.succeeded'; result: unknown }
  | { type: 'upload.failed'; error: string };

export type UploadEvent = UploadReport | { type: 'upload.cancel' };

/** What the parent is told when the upload ends (sendParent). */
export interface UploadFinished {
  type: 'upload.finished';
  id: string;
  outcome: 'done' | 'failed' | 'cancelled';
  fileName: string;
  purpose: string;
  meta: Record<string, string>;
  result: unknown;
  error: string | null;
}

export interface UploadContext {
  id: string;
  file: Blob | null;
  fileName: string;
  size: number;
  purpose: string;
  meta: Record<string, string>;
  sha256: string | null;
  uploadUrl: string | null;
  /** Bytes hashed so far. */
  hashed: number;
  /** Bytes the server has (or is receiving) so far. */
  sent: number;
  error: string | null;
  /** The purpose's result (done). */
  result: unknown;
}

/** What the transfer actor gets. */
export interface RunUploadInput {
  id: string;
  file: Blob;
  fileName: string;
  purpose: string;
  meta: Record<string, string>;
  sha256: string;
  uploadUrl: string | null;
}

const notProvided = (what: string) => `uploads: ${what} is not provided`;

export const uploadMachine = setup({
  types: {
    input: {} as UploadInput,
    context: {} as UploadContext,
    events: {} as UploadEvent,
  },
  actors: {
    hashFile: fromCallback<UploadEvent, { id: string; file: Blob }>(({ sendBack }) => {
      sendBack({ type: 'upload.failed', error: notProvided('hashFile') });
    }),
    runUpload: fromCallback<UploadEvent, RunUploadInput>(({ sendBack }) => {
      sendBack({ type: 'upload.failed', error: notProvided('runUpload') });
    }),
    terminateUpload: fromPromise<void, { id: string; uploadUrl: string | null }>(async () => {
      throw new Error(notProvided('terminateUpload'));
    }),
  },
  actions: {
    tellParent: sendParent(({ context }, params: { outcome: UploadFinished['outcome'] }): UploadFinished => ({
      type: 'upload.finished',
      id: context.id,
      outcome: params.outcome,
      fileName: context.fileName,
      purpose: context.purpose,
      meta: context.meta,
      result: context.result,
      error: context.error,
    })),
    /** Keeps a new upload to resume it after a reload (IndexedDB); provided, a no-op here. */
    keepUpload: () => undefined,
    /** Drops what is kept to resume it after a reload (IndexedDB); provided, a no-op here. */
    forgetUpload: (_, _params: { id: string }) => undefined,
    setError: assign({
      error: ({ event }) => (event.type === 'upload.failed' ? event.error : null),
    }),
  },
  guards: {
    hasHash: ({ context }) => context.sha256 !== null,
  },
}).createMachine({
  id: 'upload',
  context: ({ input }) => ({
    id: input.id,
    file: input.file,
    fileName: input.fileName,
    size: input.size,
    purpose: input.purpose,
    meta: input.meta,
    sha256: input.sha256 ?? null,
    uploadUrl: input.uploadUrl ?? null,
    hashed: input.sha256 ? input.size : 0,
    sent: 0,
    error: null,
    result: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      entry: { type: 'keepUpload' },
      always: [
        {
          guard: ({ context }) => context.file === null,
          target: 'failed',
          actions: assign({ error: 'The file is no longer available.' }),
        },
        { guard: 'hasHash', target: 'uploading' },
        { target: 'hashing' },
      ],
    },
    hashing: {
      tags: ['running'],
      invoke: {
        id: 'hashFile',
        src: 'hashFile',
        input: ({ context }) => ({ id: context.id, file: context.file! }),
      },
      on: {
        'upload.hashProgress': { actions: assign({ hashed: ({ event }) => event.done }) },
        'upload.hashed': {
          target: 'uploading',
          actions: assign({ sha256: ({ event }) => event.sha256, hashed: ({ context }) => context.size }),
        },
        'upload.failed': { target: 'failed', actions: 'setError' },
        'upload.cancel': 'cancelling',
      },
    },
    uploading: {
      tags: ['running'],
      invoke: {
        id: 'runUpload',
        src: 'runUpload',
        input: ({ context }) => ({
          id: context.id,
          file: context.file!,
          fileName: context.fileName,
          purpose: context.purpose,
          meta: context.meta,
          sha256: context.sha256!,
          uploadUrl: context.uploadUrl,
        }),
      },
      on: {
        'upload.created': { actions: assign({ uploadUrl: ({ event }) => event.uploadUrl }) },
        'upload.progress': { actions: assign({ sent: ({ event }) => event.sent }) },
        'upload.succeeded': {
          target: 'done',
          actions: assign({ result: ({ event }) => event.result, sent: ({ context }) => context.size }),
        },
        'upload.failed': { target: 'failed', actions: 'setError' },
        'upload.cancel': 'cancelling',
      },
    },
    cancelling: {
      tags: ['running'],
      invoke: {
        id: 'terminateUpload',
        src: 'terminateUpload',
        input: ({ context }) => ({ id: context.id, uploadUrl: context.uploadUrl }),
        // Removing it on the server is best effort: an unfinished upload expires there anyway (24 h).
        onDone: 'cancelled',
        onError: 'cancelled',
      },
    },
    done: {
      type: 'final',
      entry: [
        { type: 'forgetUpload', params: ({ context }) => ({ id: context.id }) },
        { type: 'tellParent', params: { outcome: 'done' } },
      ],
    },
    failed: {
      type: 'final',
      entry: [
        { type: 'forgetUpload', params: ({ context }) => ({ id: context.id }) },
        { type: 'tellParent', params: { outcome: 'failed' } },
      ],
    },
    cancelled: {
      type: 'final',
      entry: [
        { type: 'forgetUpload', params: ({ context }) => ({ id: context.id }) },
        { type: 'tellParent', params: { outcome: 'cancelled' } },
      ],
    },
  },
});
