/**
 * The tus endpoint (issue 9 "Uploads"; src/protocol/uploads.ts): `@tus/server` mounted on the Fastify app at
 * `TUS_PATH`, its request bodies streamed to the store (no body parser in its scope, so nothing is buffered).
 *
 * Every request except OPTIONS is authenticated like a REST call (`Authorization: Token {access token}`, read
 * again on every request, so a refreshed token works; 401 `Token_expired` makes the console refresh and retry).
 * Each upload belongs to the user who created it (server-set metadata `userId`): another user's upload URL
 * answers 404. Creation is refused before any byte by metadata, purpose, size and the purpose's `accept` (type,
 * quota, permissions). At the end the stored bytes are hashed (SHA-256) and compared with the console's
 * `sha256` metadata (mismatch: 460 `Checksum_mismatch`, bytes removed); then the purpose's `complete` takes the
 * file and its JSON result is the last PATCH's 200 answer. Unfinished uploads idle for `expiryMs` are removed
 * (sweep at start and hourly).
 */
import type { IncomingMessage } from 'node:http';
import { Server } from '@tus/server';
import type { Upload } from '@tus/utils';
import type { FastifyRequest } from 'fastify';
import { API_ERROR_CODES } from '../../protocol/errors';
import {
  CHECKSUM_MISMATCH_STATUS,
  TUS_PATH,
  UPLOAD_ERROR_CODES,
  UPLOAD_EXPIRY_MS,
  UploadBaseMeta,
} from '../../protocol/uploads';
import { authenticateUser, type UserRow } from '../auth/guard';
import type { ServerContext } from '../context';
import { HttpError } from '../errors';
import type { ZodApp } from '../routes/types';
import { currentPurposes, purposeMap, type AnyUploadPurpose, type UploadPurpose } from './purposes';
import { uploadStoreFor, type UploadStore } from './store';

/** How often unfinished uploads are checked for expiry. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface UploadRoutesOptions {
  /** The purposes accepted (default `currentPurposes()`, read on every creation). */
  purposes?: readonly AnyUploadPurpose[];
  /** The store (default: `uploadStoreFor(ctx.config.dataDir)`). */
  store?: UploadStore;
  /** Idle time after which an unfinished upload is removed (default 24 h). */
  expiryMs?: number;
}

/** A tus hook's error: the status and a JSON `{ code, message }` body. */
interface TusError {
  status_code: number;
  body: string;
}

const tusError = (status: number, code: string, message: string): TusError => ({
  status_code: status,
  body: JSON.stringify({ code, message }),
});

const CODES_BY_STATUS: Record<number, string> = {
  400: API_ERROR_CODES.validation,
  401: API_ERROR_CODES.unauthorized,
  403: API_ERROR_CODES.forbidden,
  404: API_ERROR_CODES.notFound,
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition_failed',
  413: UPLOAD_ERROR_CODES.payloadTooLarge,
  415: UPLOAD_ERROR_CODES.unsupportedType,
  460: UPLOAD_ERROR_CODES.checksumMismatch,
};

/** Any error of a hook or of tus itself as `{ status_code, body }` with a JSON `{ code, message }` body. */
function asTusError(err: unknown, log: (err: unknown) => void): TusError {
  if (err instanceof HttpError) return tusError(err.statusCode, err.code, err.message);
  const e = err as Partial<TusError> | null;
  if (e && typeof e.status_code === 'number' && typeof e.body === 'string') {
    if (e.body.startsWith('{')) return e as TusError;
    const code = CODES_BY_STATUS[e.status_code] ?? (e.status_code >= 500 ? 'Internal_error' : 'Bad_request');
    return tusError(e.status_code, code, e.body.trim() || code);
  }
  log(err);
  return tusError(500, 'Internal_error', 'Something went wrong on our side.');
}

/** A tus request's Node request (srvx keeps it at `runtime.node.req`). */
const nodeRequestOf = (req: unknown): IncomingMessage | undefined =>
  (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;

const firstIssue = (issues: readonly { path: PropertyKey[]; message: string }[]) => {
  const issue = issues[0];
  return issue ? `metadata.${issue.path.map(String).join('.')}: ${issue.message}` : 'metadata: invalid';
};

/** The upload's metadata with nulls (keys without a value) left out. */
const metadataOf = (upload: Upload): Record<string, string> =>
  Object.fromEntries(
    Object.entries(upload.metadata ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );

/**
 * `@tus/server` answers its own protocol checks (a missing Tus-Resumable: 412; a malformed Upload-Length,
 * Upload-Offset, Upload-Metadata or PATCH Content-Type: 400; an unknown method: 404) with a plain-text body,
 * outside the hooks. Every refusal of ours carries `{ code, message }`, so those bodies are rewritten here.
 */
class JsonErrorServer extends Server {
  override write(...[context, headers, status, body]: Parameters<Server['write']>) {
    if (status < 400 || body === undefined || body.startsWith('{'))
      return super.write(context, headers, status, body);
    const code = CODES_BY_STATUS[status] ?? (status >= 500 ? 'Internal_error' : 'Bad_request');
    headers.set('Content-Type', 'application/json');
    const message = body.trim() || code;
    return super.write(context, headers, status, JSON.stringify({ code, message }));
  }
}

/** The running tus endpoint: the store, and `sweep` (expiry) for tests. */
export interface UploadService {
  store: UploadStore;
  tus: Server;
  sweep(now?: number): Promise<number>;
}

/**
 * Mounts the tus endpoint on `app` (see the module comment). Call before `listen`; the expiry timer stops when
 * the app closes.
 */
export async function registerUploadRoutes(
  app: ZodApp,
  ctx: ServerContext,
  options: UploadRoutesOptions = {},
): Promise<UploadService> {
  const expiryMs = options.expiryMs ?? UPLOAD_EXPIRY_MS;
  const purposesNow = () => purposeMap(options.purposes ?? currentPurposes());
  purposesNow();
  const store = options.store ?? (await uploadStoreFor(ctx.config.dataDir, expiryMs));
  const users = new WeakMap<IncomingMessage, UserRow>();
  const logError = (err: unknown) => app.log.error({ err }, 'upload failed');

  const userOf = (req: unknown): UserRow => {
    const raw = nodeRequestOf(req);
    const user = raw && users.get(raw);
    if (!user) throw tusError(401, API_ERROR_CODES.unauthorized, 'Authorization is missing.');
    return user;
  };

  /** The upload's base metadata and purpose (with its parsed metadata); throws a 400 TusError. */
  const purposeOf = (
    upload: Upload,
  ): { base: UploadBaseMeta; purpose: UploadPurpose<unknown>; meta: unknown } => {
    const raw = metadataOf(upload);
    const base = UploadBaseMeta.safeParse(raw);
    if (!base.success) throw tusError(400, API_ERROR_CODES.validation, firstIssue(base.error.issues));
    const purpose = purposesNow().get(base.data.purpose) as UploadPurpose<unknown> | undefined;
    if (!purpose) {
      throw tusError(
        400,
        UPLOAD_ERROR_CODES.unknownPurpose,
        `Unknown upload purpose '${base.data.purpose}'.`,
      );
    }
    const meta = purpose.meta.safeParse(raw);
    if (!meta.success) throw tusError(400, API_ERROR_CODES.validation, firstIssue(meta.error.issues));
    return { base: base.data, purpose, meta: meta.data };
  };

  const tusOptions: ConstructorParameters<typeof Server>[0] = {
    path: TUS_PATH,
    datastore: store.datastore,
    relativeLocation: true,
    // The largest purpose's limit (each purpose's own is checked in onUploadCreate); with no purpose nothing
    // can be created anyway, and 1 byte keeps tus from allowing any size.
    maxSize: () => Math.max(1, ...[...purposesNow().values()].map((p) => p.maxBytes)),
    respectForwardedHeaders: false,
    // The console is served from this origin: no other origin gets CORS access (tus's default is '*').
    allowedOrigins: [],
    disableTerminationForFinishedUploads: true,
    async onIncomingRequest(req, id) {
      const user = userOf(req);
      if (req.method === 'POST') return;
      const upload = await store.datastore.getUpload(id).catch(() => null);
      if (!upload || upload.metadata?.userId !== user.id) {
        throw tusError(404, API_ERROR_CODES.notFound, 'Upload not found.');
      }
    },
    async onUploadCreate(req, upload) {
      try {
        const user = userOf(req);
        if (upload.size === undefined) {
          throw tusError(400, API_ERROR_CODES.validation, 'Upload-Length is required (no deferred length).');
        }
        const { base, purpose, meta } = purposeOf(upload);
        if (upload.size > purpose.maxBytes) {
          throw tusError(
            413,
            UPLOAD_ERROR_CODES.payloadTooLarge,
            `${base.filename} is too large: at most ${purpose.maxBytes} bytes.`,
          );
        }
        await purpose.accept(ctx, user, meta, {
          size: upload.size,
          fileName: base.filename,
          fileType: base.filetype ?? '',
        });
        return { metadata: { ...metadataOf(upload), userId: user.id } };
      } catch (err) {
        throw asTusError(err, logError);
      }
    },
    async onUploadFinish(req, upload) {
      try {
        const user = userOf(req);
        const { base, purpose, meta } = purposeOf(upload);
        const file = await store.materialize(upload.id);
        try {
          if (file.sha256 !== base.sha256 || file.size !== upload.size) {
            throw tusError(
              CHECKSUM_MISMATCH_STATUS,
              UPLOAD_ERROR_CODES.checksumMismatch,
              `${base.filename}: the stored file's SHA-256 does not match the one sent.`,
            );
          }
          const result = await purpose.complete(
            ctx,
            user,
            {
              path: file.path,
              size: file.size,
              sha256: file.sha256,
              fileName: base.filename,
              uploadId: upload.id,
            },
            meta,
          );
          return {
            status_code: 200,
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ result: result ?? null }),
          };
        } finally {
          await file.release();
        }
      } catch (err) {
        await store.discard(upload.id);
        throw asTusError(err, logError);
      }
    },
    onResponseError(_req, err) {
      return asTusError(err, logError);
    },
  };
  const tus = new JsonErrorServer(tusOptions);

  const authenticate = authenticateUser(ctx);
  const handle = async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
    if (request.user) users.set(request.raw, request.user);
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const hide = { schema: { hide: true } };
    scope.options(TUS_PATH, hide, handle);
    scope.options(`${TUS_PATH}/:id`, hide, handle);
    scope.post(TUS_PATH, { ...hide, preHandler: authenticate }, handle);
    for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) {
      scope.route({ method, url: `${TUS_PATH}/:id`, ...hide, preHandler: authenticate, handler: handle });
    }
  });

  const sweep = (now?: number) => store.sweep(expiryMs, now);
  const runSweep = () =>
    void sweep().then(
      (n) => n > 0 && app.log.info(`uploads: ${n} unfinished upload(s) expired and removed`),
      (err: unknown) => app.log.warn({ err }, 'uploads: expiry sweep failed'),
    );
  runSweep();
  const timer = setInterval(runSweep, SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
  return { store, tus, sweep };
}
