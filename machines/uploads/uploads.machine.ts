/**
 * The uploads actor (systemId `uploads`; issue 9 "Uploads"; spec §2 "Upload notification", §3 Upload entity,
 * §4 "Upload: progress, then success or failure; entries are removed afterwards", §8 upload toasts).
 *
 * Holds one upload actor per file (upload.machine.ts), spawned by `uploads.add` and living as long as the
 * session, whatever the route. On sign-in it restores the uploads a reload or a closed tab interrupted
 * (`loadStored`: kept in IndexedDB with their File, resumed from the server's offset); on sign-out it stops them
 * (they are kept, and resume at the next sign-in of the same user). When an upload ends its entry is removed and,
 * unless cancelled, a success or failure line is added to `results` (§3 success list: success flag and msg), a
 * §8 toast is emitted (`notice`), and `upload.done` { purpose, meta, result, fileName } or `upload.failed`
 * { purpose, meta, fileName, error } is emitted for other actors (the models list refreshes on it).
 * `uploads.results.clear` (the dialog's Close) empties the lines.
 */
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { NoticeEmitted } from '../notifications/emitted';
import { uploadMachine, type UploadFinished, type UploadInput } from './upload.machine';

/** §8 toast texts (English; the console shows them in the user's language through `i18n`). */
export const UPLOAD_TEXTS = {
  uploadedTitle: 'Uploaded',
  uploaded: '{file} is successfully uploaded',
  failedTitle: 'Upload Failed',
  failed: '{file} failed to upload',
} as const;

/** One line of the dialog's success/failure list (§3 "success list (success flag and msg)"). */
export interface UploadResultLine {
  id: string;
  fileName: string;
  success: boolean;
  /** The §8 text; the failure's reason is in `error`. */
  msg: string;
  error: string | null;
}

/** An upload kept to resume after a reload (what `loadStored` resolves with). */
export type StoredUploadInput = UploadInput;

export interface UploadsInput {
  /** Prefix of this tab's upload ids (random), so they never collide with restored ones. */
  session: string;
}

export interface UploadsContext {
  session: string;
  seq: number;
  /** Running uploads, oldest first. */
  order: string[];
  uploads: Record<string, ActorRefFrom<typeof uploadMachine>>;
  results: UploadResultLine[];
}

export type UploadsEvent =
  /** Starts uploading `file` for `purpose` with the purpose's metadata (e.g. `{ modelId }`). */
  | { type: 'uploads.add'; file: File; purpose: string; meta: Record<string, string>; id?: string }
  /** Cancels one upload (the §2 dialog's cancel button). */
  | { type: 'uploads.cancel'; id: string }
  /** The dialog's Close: empties the success/failure lines. */
  | { type: 'uploads.results.clear' }
  | { type: 'uploads.signIn' }
  | { type: 'uploads.signOut' }
  | UploadFinished;

/** Emitted for other actors (besides `notice`). */
export type UploadsEmitted =
  | NoticeEmitted
  | { type: 'upload.done'; purpose: string; meta: Record<string, string>; fileName: string; result: unknown }
  | { type: 'upload.failed'; purpose: string; meta: Record<string, string>; fileName: string; error: string };

const fill = (text: string, file: string) => text.replace('{file}', file);

export const uploadsMachine = setup({
  types: {
    input: {} as UploadsInput,
    context: {} as UploadsContext,
    events: {} as UploadsEvent,
    emitted: {} as UploadsEmitted,
  },
  actors: {
    upload: uploadMachine,
    loadStored: fromPromise<StoredUploadInput[]>(async () => []),
  },
  actions: {
    /** Spawns one upload actor per input (new or restored) and lists it. */
    spawnUploads: assign(({ context, spawn }, params: { inputs: UploadInput[] }) => {
      const fresh = params.inputs.filter((i) => !context.uploads[i.id]);
      const uploads = { ...context.uploads };
      for (const input of fresh) uploads[input.id] = spawn('upload', { id: input.id, input });
      return { uploads, order: [...context.order, ...fresh.map((i) => i.id)] };
    }),
    /** `uploads.add` → a new upload actor (id: the event's, else `{session}-{seq}`). */
    addUpload: assign(({ context, event, spawn }) => {
      if (event.type !== 'uploads.add') return {};
      const id = event.id ?? `${context.session}-${context.seq + 1}`;
      if (context.uploads[id]) return {};
      const input: UploadInput = {
        id,
        file: event.file,
        fileName: event.file.name,
        size: event.file.size,
        purpose: event.purpose,
        meta: event.meta,
        sha256: null,
        uploadUrl: null,
      };
      return {
        seq: context.seq + 1,
        uploads: { ...context.uploads, [id]: spawn('upload', { id, input }) },
        order: [...context.order, id],
      };
    }),
    removeUpload: enqueueActions(({ context, enqueue }, params: { id: string }) => {
      if (!context.uploads[params.id]) return;
      enqueue.stopChild(params.id);
      const uploads = { ...context.uploads };
      delete uploads[params.id];
      enqueue.assign({ uploads, order: context.order.filter((id) => id !== params.id) });
    }),
    stopAll: enqueueActions(({ context, enqueue }) => {
      for (const id of context.order) enqueue.stopChild(id);
      enqueue.assign({ uploads: {}, order: [], results: [] });
    }),
    /** The success/failure line, the §8 toast and the event for other actors. */
    reportFinished: enqueueActions(({ enqueue, context }, params: { event: UploadFinished }) => {
      const e = params.event;
      if (e.outcome === 'cancelled') return;
      const success = e.outcome === 'done';
      const msg = fill(success ? UPLOAD_TEXTS.uploaded : UPLOAD_TEXTS.failed, e.fileName);
      enqueue.assign({
        results: [...context.results, { id: e.id, fileName: e.fileName, success, msg, error: e.error }],
      });
      enqueue.emit({
        type: 'notice',
        title: success ? UPLOAD_TEXTS.uploadedTitle : UPLOAD_TEXTS.failedTitle,
        message: msg,
        variant: success ? 'success' : 'danger',
        i18n: {
          title: { key: success ? 'uploads.toast.uploadedTitle' : 'uploads.toast.failedTitle' },
          message: {
            key: success ? 'uploads.toast.uploaded' : 'uploads.toast.failed',
            values: { file: e.fileName },
          },
        },
      });
      enqueue.emit(
        success
          ? { type: 'upload.done', purpose: e.purpose, meta: e.meta, fileName: e.fileName, result: e.result }
          : {
              type: 'upload.failed',
              purpose: e.purpose,
              meta: e.meta,
              fileName: e.fileName,
              error: e.error ?? '',
            },
      );
    }),
    forwardCancel: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'uploads.cancel') return;
      const ref = context.uploads[event.id];
      if (ref) enqueue.sendTo(ref, { type: 'upload.cancel' });
    }),
    clearResults: assign({ results: [] }),
  },
}).createMachine({
  id: 'uploads',
  context: ({ input }) => ({ session: input.session, seq: 0, order: [], uploads: {}, results: [] }),
  initial: 'signedOut',
  on: {
    'uploads.signOut': { target: '.signedOut', actions: 'stopAll' },
    'uploads.results.clear': { actions: 'clearResults' },
    'uploads.cancel': { actions: 'forwardCancel' },
    'upload.finished': {
      actions: [
        { type: 'removeUpload', params: ({ event }) => ({ id: event.id }) },
        { type: 'reportFinished', params: ({ event }) => ({ event }) },
      ],
    },
  },
  states: {
    signedOut: {
      on: { 'uploads.signIn': 'restoring' },
    },
    restoring: {
      tags: ['signedIn'],
      on: { 'uploads.add': { actions: 'addUpload' } },
      invoke: {
        id: 'loadStored',
        src: 'loadStored',
        onDone: {
          target: 'ready',
          actions: { type: 'spawnUploads', params: ({ event }) => ({ inputs: event.output }) },
        },
        onError: 'ready',
      },
    },
    ready: { tags: ['signedIn'], on: { 'uploads.add': { actions: 'addUpload' } } },
  },
});
