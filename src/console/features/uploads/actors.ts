/**
 * The uploads feature's actors (issue 9 "Uploads"): the uploads actor (systemId `uploads`) with its upload
 * actors' side effects — SHA-256 with hash-wasm (incrementally over the File's stream, so memory stays flat),
 * the tus transfer with tus-js-client (16 MiB PATCHes, retried with back-off across network drops and server
 * restarts, resuming from the server's offset; the session's access token on every request, refreshed once on
 * `Token_expired`), the server-side removal on cancel, and the IndexedDB records that resume uploads after a
 * reload (storedUploads.ts).
 */
import { createSHA256 } from 'hash-wasm';
import { DetailedError, Upload } from 'tus-js-client';
import { fromCallback, fromPromise, type ActorSystem, type AnyActorRef } from 'xstate';
import {
  uploadMachine,
  type RunUploadInput,
  type UploadContext,
  type UploadEvent,
} from '../../../../machines/uploads/upload.machine';
import { uploadsMachine } from '../../../../machines/uploads/uploads.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { API_ERROR_CODES } from '../../../protocol/errors';
import { TUS_PATH, UPLOAD_CHUNK_BYTES } from '../../../protocol/uploads';
import { createAuthBridge, type AuthActorLike } from '../accounts/authBridge';
import { SERVERS_UNAVAILABLE } from '../../platform/http';
import { forgetUpload, keepUpload, storedUploadsOf, updateUpload } from './storedUploads';

/** Bytes hashed between two progress reports. */
const HASH_SLICE_BYTES = 8 * 1024 * 1024;
/** Waits between retries of a failed request (ms); reset whenever bytes got through. About 4 minutes. */
export const RETRY_DELAYS_MS = [
  0, 1000, 2000, 3000, 5000, 5000, 10_000, 10_000, 15_000, 30_000, 60_000, 60_000,
];
/** Least time between two progress reports (ms). */
const PROGRESS_EVERY_MS = 100;

type AnySystem = ActorSystem<never>;

const authOf = (system: AnySystem) => system.get(SYSTEM_IDS.auth) as AuthActorLike | undefined;
const ownerOf = (system: AnySystem): string | null => authOf(system)?.getSnapshot().context.user?.id ?? null;
const bridgeOf = (system: AnySystem) =>
  createAuthBridge(() => {
    const auth = authOf(system);
    if (!auth) throw new Error('uploads: no auth actor');
    return auth;
  });

/** The `{ code, message }` of a tus error answer, if it carries one. */
export function errorBodyOf(err: unknown): { code: string; message: string } | null {
  if (!(err instanceof DetailedError) || !err.originalResponse) return null;
  try {
    const body = JSON.parse(err.originalResponse.getBody()) as { code?: unknown; message?: unknown };
    return typeof body.code === 'string' && typeof body.message === 'string'
      ? { code: body.code, message: body.message }
      : null;
  } catch {
    return null;
  }
}

/** A user text for a failed upload: the server's message, else "Servers are unavailable." (network). */
export function uploadErrorText(err: unknown): string {
  const body = errorBodyOf(err);
  if (body) return body.message;
  if (err instanceof DetailedError && (err.originalResponse?.getStatus() ?? 0) === 0)
    return SERVERS_UNAVAILABLE;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Whether a failed request is retried: network errors, 5xx, one `Token_expired`, and tus's 409 (offset
 * conflict) / 423 (locked) on an existing upload — a 409 at creation is the purpose's refusal (a taken name).
 */
export function shouldRetry(status: number, code: string | null, method = 'PATCH'): boolean {
  if (status === 401) return code === API_ERROR_CODES.tokenExpired;
  if (status === 409 || status === 423) return method !== 'POST';
  return status === 0 || status >= 500;
}

/**
 * SHA-256 of a Blob, streamed (`Blob.stream()`: small chunks read from disk, so the tab's memory stays flat);
 * reports progress at most every `HASH_SLICE_BYTES`.
 */
export const hashFileActor = fromCallback<UploadEvent, { id: string; file: Blob }>(({ input, sendBack }) => {
  let stopped = false;
  const reader = input.file.stream().getReader();
  void (async () => {
    try {
      const hasher = await createSHA256();
      hasher.init();
      let done = 0;
      let reported = 0;
      for (;;) {
        const { value, done: end } = await reader.read();
        if (stopped) return;
        if (end) break;
        hasher.update(value);
        done += value.byteLength;
        if (done - reported >= HASH_SLICE_BYTES) {
          reported = done;
          sendBack({ type: 'upload.hashProgress', done });
        }
      }
      const sha256 = hasher.digest('hex');
      await updateUpload(input.id, { sha256 });
      if (!stopped) sendBack({ type: 'upload.hashed', sha256 });
    } catch (err) {
      if (!stopped)
        sendBack({ type: 'upload.failed', error: err instanceof Error ? err.message : String(err) });
    }
  })();
  return () => {
    stopped = true;
    void reader.cancel().catch(() => undefined);
  };
});

/** Options of a tus request with the session's token, refreshed once when it expired. */
function authOptions(system: AnySystem) {
  const bridge = bridgeOf(system);
  let expired: string | null = null;
  return {
    async onBeforeRequest(req: { setHeader(name: string, value: string): void }) {
      if (expired) {
        const stale = expired;
        expired = null;
        await bridge.refreshToken(stale);
      }
      const token = bridge.getToken();
      if (token) req.setHeader('Authorization', `Token ${token}`);
    },
    onShouldRetry(err: DetailedError) {
      const status = err.originalResponse?.getStatus() ?? 0;
      const code = errorBodyOf(err)?.code ?? null;
      if (status === 401 && code === API_ERROR_CODES.tokenExpired) {
        expired = bridge.getToken();
      }
      return shouldRetry(status, code, err.originalRequest?.getMethod());
    },
  };
}

/** The tus transfer of one upload (see the module comment); stopping it aborts the requests. */
export const runUploadActor = fromCallback<UploadEvent, RunUploadInput>(({ input, sendBack, system }) => {
  let stopped = false;
  let lastReport = 0;
  const send = (e: UploadEvent) => {
    if (!stopped) sendBack(e);
  };
  const upload: Upload = new Upload(input.file, {
    endpoint: TUS_PATH,
    uploadUrl: input.uploadUrl,
    chunkSize: UPLOAD_CHUNK_BYTES,
    retryDelays: RETRY_DELAYS_MS,
    storeFingerprintForResuming: false,
    removeFingerprintOnSuccess: false,
    metadata: {
      ...input.meta,
      purpose: input.purpose,
      filename: input.fileName,
      filetype: input.file.type,
      sha256: input.sha256,
    },
    ...authOptions(system as AnySystem),
    onUploadUrlAvailable() {
      if (!upload.url) return;
      void updateUpload(input.id, { uploadUrl: upload.url });
      send({ type: 'upload.created', uploadUrl: upload.url });
    },
    onProgress(sent, total) {
      const now = Date.now();
      if (sent < total && now - lastReport < PROGRESS_EVERY_MS) return;
      lastReport = now;
      send({ type: 'upload.progress', sent, total });
    },
    onSuccess({ lastResponse }) {
      let result: unknown = null;
      try {
        result = (JSON.parse(lastResponse.getBody()) as { result?: unknown }).result ?? null;
      } catch {
        // An answer without a body (the upload had finished before): no result.
      }
      send({ type: 'upload.succeeded', result });
    },
    onError(err) {
      send({ type: 'upload.failed', error: uploadErrorText(err) });
    },
  });
  upload.start();
  return () => {
    stopped = true;
    void upload.abort(false);
  };
});

/** Removes a cancelled upload on the server (tus DELETE); nothing when it was not created yet. */
export const terminateUploadActor = fromPromise<void, { id: string; uploadUrl: string | null }>(
  async ({ input, system }) => {
    if (!input.uploadUrl) return;
    await Upload.terminate(input.uploadUrl, { retryDelays: [0, 1000], ...authOptions(system as AnySystem) });
  },
);

/** The upload machine with its real side effects. */
export const uploadLogic = uploadMachine.provide({
  actors: { hashFile: hashFileActor, runUpload: runUploadActor, terminateUpload: terminateUploadActor },
  actions: {
    forgetUpload: (_, params) => void forgetUpload(params.id),
    keepUpload: ({ context, system }) => void keepFor(context, system as AnySystem),
  },
});

/** Keeps a new upload (with its File) for a reload, under the signed-in user. */
async function keepFor(context: UploadContext, system: AnySystem): Promise<void> {
  const owner = ownerOf(system);
  if (!owner || !context.file) return;
  await keepUpload({
    id: context.id,
    owner,
    file: context.file,
    fileName: context.fileName,
    size: context.size,
    purpose: context.purpose,
    meta: context.meta,
    sha256: context.sha256,
    uploadUrl: context.uploadUrl,
  });
}

/** A random id prefix for this tab's uploads. */
const sessionId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID().slice(0, 8)
    : Math.random().toString(36).slice(2, 10);

/** The uploads actor with its real side effects. */
export const uploadsLogic = uploadsMachine.provide({
  actors: {
    upload: uploadLogic,
    loadStored: fromPromise(async ({ system }) => {
      const owner = ownerOf(system as AnySystem);
      return owner ? storedUploadsOf(owner) : [];
    }),
  },
});

export function uploadsActors(): FeatureActor[] {
  return [
    featureActor({
      systemId: SYSTEM_IDS.uploads,
      logic: uploadsLogic,
      input: () => ({ session: sessionId() }),
      onSignIn: [{ type: 'uploads.signIn' }],
      onSignOut: [{ type: 'uploads.signOut' }],
    }),
  ];
}

/** The uploads actor of a system (undefined before the feature's chunk arrived). */
export const uploadsRefOf = (system: AnySystem) => system.get(SYSTEM_IDS.uploads) as AnyActorRef | undefined;
