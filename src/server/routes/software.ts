/**
 * Handlers of the software feature's routes (src/protocol/software.ts; issue 16 §1 "Software": agent releases
 * the server publishes for the client update, §4):
 *   GET  agent-releases                  → { releases } newest version first (≤ 100)
 *   GET  agent-releases/latest           → { release | null }
 *   GET  agent-releases/:version/bundle  → the bundle bytes (application/gzip), X-Content-SHA256; 404
 *   POST agent-releases?version&notes    (admin; raw body, Content-Type application/octet-stream)
 *        → the release; 400 bad version / empty or non-gzip body / not an octet-stream, 409 version exists,
 *        413 larger than RELEASE_MAX_BYTES
 * Bundles are files `<dataDir>/agent-releases/<version>.tar.gz`; the upload is streamed to a temporary file in
 * that folder while its sha256 is computed (the admin check runs before a byte is read), then renamed.
 * Also `publishRelease` (used by the demo seed: `ensureDemoRelease`).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import * as tar from 'tar';
import { API_ERROR_CODES } from '../../protocol';
import {
  compareVersions,
  RELEASE_MAX_BYTES,
  SEMVER_PATTERN,
  type AgentRelease,
  type softwareRoutes,
} from '../../protocol/software';
import { authenticateUser, requireAdmin } from '../auth/guard';
import type { ServerContext } from '../context';
import { agentReleases } from '../db/schema';
import { badRequest, HttpError, notFound } from '../errors';
import type { HandlersOf } from './register';

type Row = typeof agentReleases.$inferSelect;

const PUBLISH_PATH = '/api/agent-releases';
/** Content types the publish route reads as the raw bundle. */
const RAW_TYPES = ['application/octet-stream', 'application/gzip', 'application/x-gzip'];

const toRelease = (r: Row): AgentRelease => ({
  id: r.id,
  version: r.version,
  file_name: r.fileName,
  size: r.size,
  sha256: r.sha256,
  notes: r.notes,
  created_at: r.createdAt.toISOString(),
});

/** The folder of the bundles. */
export const releasesDir = (ctx: ServerContext) => path.join(ctx.config.dataDir, 'agent-releases');
const bundlePath = (ctx: ServerContext, version: string) => path.join(releasesDir(ctx), `${version}.tar.gz`);

/** An uploaded bundle, streamed to a temporary file (the publish route's parsed body). */
export class UploadedBundle {
  constructor(
    readonly file: string,
    readonly size: number,
    readonly sha256: string,
    readonly gzip: boolean,
  ) {}
}

const tooLarge = () =>
  new HttpError(413, 'Payload_too_large', `The bundle is larger than ${RELEASE_MAX_BYTES / 1024 ** 2} MiB.`);

/** Streams `input` to `file`, hashing it; 413 (and the file removed) beyond `max` bytes. */
async function receive(input: Readable, file: string, max: number): Promise<UploadedBundle> {
  const hash = createHash('sha256');
  let size = 0;
  let head: Buffer | null = null;
  try {
    await pipeline(
      input,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          if (size > max) throw tooLarge();
          head ??= chunk.subarray(0, 2);
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(file, { mode: 0o600 }),
    );
  } catch (err) {
    await rm(file, { force: true });
    throw err;
  }
  const h = head as Buffer | null;
  return new UploadedBundle(file, size, hash.digest('hex'), !!h && h[0] === 0x1f && h[1] === 0x8b);
}

/** True for PostgreSQL's unique violation (23505), as drizzle wraps it. */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

const versionTaken = (version: string) =>
  new HttpError(409, 'Release_exists', `Release ${version} is already published.`);

/**
 * Publishes an uploaded bundle as release `version`: checks it (gzip, not empty), moves it into the releases
 * folder and records it. 400 / 409 as the route; the temporary file is removed in every case.
 */
export async function publishUploaded(
  ctx: ServerContext,
  upload: UploadedBundle,
  input: { version: string; notes: string; fileName?: string },
): Promise<AgentRelease> {
  try {
    if (!SEMVER_PATTERN.test(input.version))
      throw badRequest('version must be a semantic version such as 1.4.0');
    if (upload.size === 0) throw badRequest('The bundle is empty: send it as the request body.');
    if (!upload.gzip) throw badRequest('The bundle must be a gzip-compressed tar archive (.tar.gz).');
    const [existing] = await ctx.db
      .select({ id: agentReleases.id })
      .from(agentReleases)
      .where(eq(agentReleases.version, input.version))
      .limit(1);
    if (existing) throw versionTaken(input.version);
    const target = bundlePath(ctx, input.version);
    await rename(upload.file, target);
    try {
      const [row] = await ctx.db
        .insert(agentReleases)
        .values({
          version: input.version,
          fileName: input.fileName ?? `edge-agent-${input.version}.tar.gz`,
          size: upload.size,
          sha256: upload.sha256,
          notes: input.notes,
        })
        .returning();
      return toRelease(row!);
    } catch (err) {
      await rm(target, { force: true });
      if (isUniqueViolation(err)) throw versionTaken(input.version);
      throw err;
    }
  } finally {
    await rm(upload.file, { force: true });
  }
}

/** Publishes `bundle` (bytes) as release `version` (the demo seed, tests). */
export async function publishRelease(
  ctx: ServerContext,
  input: { version: string; notes: string; bundle: Buffer; fileName?: string },
): Promise<AgentRelease> {
  await mkdir(releasesDir(ctx), { recursive: true });
  const file = path.join(releasesDir(ctx), `.upload-${randomUUID()}`);
  await writeFile(file, input.bundle, { mode: 0o600 });
  const upload = new UploadedBundle(
    file,
    input.bundle.length,
    createHash('sha256').update(input.bundle).digest('hex'),
    input.bundle[0] === 0x1f && input.bundle[1] === 0x8b,
  );
  return publishUploaded(ctx, upload, input);
}

/** A release bundle built from `files` (relative path → text), gzip tar bytes. */
export async function buildBundle(files: Record<string, string>): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'agent-bundle-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await writeFile(path.join(dir, name), text);
    }
    const chunks: Buffer[] = [];
    const stream = tar.create({ gzip: true, cwd: dir, portable: true }, Object.keys(files));
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The release the demo publishes on `npm start`, so that every sim device shows an update. */
export const DEMO_RELEASE = {
  version: '0.2.0',
  notes:
    'Faster stream start after a reconnect; smaller log files; the Software tab shows download progress.',
} as const;

/** Publishes DEMO_RELEASE unless a release of that version exists (idempotent). */
export async function ensureDemoRelease(ctx: ServerContext): Promise<void> {
  const [existing] = await ctx.db
    .select({ id: agentReleases.id })
    .from(agentReleases)
    .where(eq(agentReleases.version, DEMO_RELEASE.version))
    .limit(1);
  if (existing) return;
  const bundle = await buildBundle({
    'release.json': `${JSON.stringify({ version: DEMO_RELEASE.version }, null, 2)}\n`,
    'NOTES.txt': `${DEMO_RELEASE.notes}\n`,
  });
  await publishRelease(ctx, { ...DEMO_RELEASE, bundle }).catch((err: unknown) => {
    if (!(err instanceof HttpError && err.statusCode === 409)) throw err;
  });
}

async function allReleases(ctx: ServerContext): Promise<AgentRelease[]> {
  const rows = await ctx.db.select().from(agentReleases);
  return rows
    .map(toRelease)
    .sort((a, b) => compareVersions(b.version, a.version))
    .slice(0, 100);
}

export const softwareHandlers: HandlersOf<typeof softwareRoutes> = (ctx, app) => {
  // The publish route's body: streamed to a temporary file after the admin check (nothing is read for
  // anyone else); any other route refuses these content types.
  app.addContentTypeParser(RAW_TYPES, async (request: FastifyRequest, payload: Readable) => {
    if (request.routeOptions.url !== PUBLISH_PATH || request.method !== 'POST') {
      throw new HttpError(415, 'Unsupported_media_type', 'This route takes JSON.');
    }
    await authenticateUser(ctx).call(app, request, undefined as never);
    await requireAdmin.call(app, request, undefined as never);
    await mkdir(releasesDir(ctx), { recursive: true });
    return receive(payload, path.join(releasesDir(ctx), `.upload-${randomUUID()}`), RELEASE_MAX_BYTES);
  });

  // A refused publish (bad query, auth) never reaches the handler: its temporary file goes here.
  app.addHook('onResponse', async (request) => {
    if (request.body instanceof UploadedBundle) await rm(request.body.file, { force: true });
  });

  return {
    'software.releases': async () => ({ releases: await allReleases(ctx) }),

    'software.latest': async () => ({ release: (await allReleases(ctx))[0] ?? null }),

    'software.bundle': async ({ params }, _request, reply) => {
      const [row] = await ctx.db
        .select()
        .from(agentReleases)
        .where(eq(agentReleases.version, params.version))
        .limit(1);
      if (!row) throw notFound(`Release ${params.version}`);
      const file = bundlePath(ctx, row.version);
      const info = await stat(file).catch(() => null);
      if (!info) throw notFound(`The bundle of release ${row.version}`);
      void reply
        .header('content-type', 'application/gzip')
        .header('content-length', String(info.size))
        .header('x-content-sha256', row.sha256)
        .header('content-disposition', `attachment; filename="${row.fileName}"`);
      return reply.send(createReadStream(file)) as never;
    },

    'software.publish': async ({ query }, request) => {
      const body: unknown = request.body;
      if (!(body instanceof UploadedBundle)) {
        throw new HttpError(
          400,
          API_ERROR_CODES.validation,
          'Send the bundle as the raw request body with Content-Type application/octet-stream.',
        );
      }
      return publishUploaded(ctx, body, {
        version: query.version,
        notes: query.notes,
        fileName: query.file_name,
      });
    },
  };
};
