/**
 * Where uploaded bytes go (issue 9 "Uploads": streamed to storage, never whole in memory): the data directory by
 * default (`@tus/file-store` under `DATA_DIR/uploads`), or an S3-compatible bucket (`@tus/s3-store`) when
 * `UPLOADS_S3_BUCKET` is set. Environment of the S3 store:
 *   UPLOADS_S3_BUCKET (required to choose S3), UPLOADS_S3_REGION (default 'us-east-1'), UPLOADS_S3_ENDPOINT (a
 *   MinIO / Ceph / R2 address; default AWS), UPLOADS_S3_ACCESS_KEY_ID + UPLOADS_S3_SECRET_ACCESS_KEY (default:
 *   the AWS SDK's own chain), UPLOADS_S3_FORCE_PATH_STYLE=1 (path-style URLs, MinIO).
 *
 * Besides the tus `DataStore`, each store knows how to hand a finished upload to a purpose as a local file while
 * hashing it (`materialize`), how to drop everything of an upload (`discard`), and how to expire unfinished
 * uploads (`sweep`: the file store removes uploads idle — no byte written — for `idleMs`; S3 removes those
 * created more than `idleMs` ago, the store's own expiration).
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { DataStore } from '@tus/utils';

/** A finished upload as a local file, with the SHA-256 of its bytes. `release` removes a temporary copy. */
export interface MaterializedUpload {
  path: string;
  sha256: string;
  size: number;
  release(): Promise<void>;
}

export interface UploadStore {
  /** 'file' or 's3'. */
  kind: 'file' | 's3';
  datastore: DataStore;
  /** Reads a finished upload once: the SHA-256 of its bytes and a local path for the purpose. */
  materialize(id: string): Promise<MaterializedUpload>;
  /** Removes an upload's bytes and info, whatever of them remains; never throws for a missing one. */
  discard(id: string): Promise<void>;
  /** Removes unfinished uploads idle (file) or created (s3) more than `idleMs` ago; resolves with how many. */
  sweep(idleMs: number, now?: number): Promise<number>;
}

/** SHA-256 (hex) and size of a file, streamed. */
export async function sha256OfFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

const isUploadId = (name: string) => /^[A-Za-z0-9_-]{1,128}$/.test(name);

/**
 * A FileStore that hashes (SHA-256) each upload's bytes as they are written, so the check at the end needs no
 * second read of the file. The running hash continues only while every PATCH starts where the previous one
 * ended in this process; a failed or partial write, or an upload resumed after a server restart, drops it and
 * the end falls back to reading the stored file (`sha256OfFile`).
 */
class HashingFileStore extends FileStore {
  private readonly running = new Map<string, { hash: Hash; offset: number }>();

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    let state = this.running.get(id);
    if (offset === 0) {
      state = { hash: createHash('sha256'), offset: 0 };
      this.running.set(id, state);
    } else if (!state || state.offset !== offset) {
      this.running.delete(id);
      return super.write(readable, id, offset);
    }
    const s = state;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        s.hash.update(chunk);
        s.offset += chunk.length;
        done(null, chunk);
      },
    });
    // An error or a premature end of the request destroys the tap, which fails the write below.
    pipeline(readable, tap).catch(() => undefined);
    try {
      const next = await super.write(tap, id, offset);
      if (next !== s.offset) this.running.delete(id);
      return next;
    } catch (err) {
      this.running.delete(id);
      throw err;
    }
  }

  override async remove(id: string): Promise<void> {
    this.running.delete(id);
    return super.remove(id);
  }

  /** The SHA-256 of all `size` bytes of an upload when every one was hashed on its way in, else null. */
  takeDigest(id: string, size: number): string | null {
    const s = this.running.get(id);
    this.running.delete(id);
    return s && s.offset === size ? s.hash.digest('hex') : null;
  }

  forget(id: string): void {
    this.running.delete(id);
  }
}

/** The data-directory store: bytes in `<directory>/<id>`, tus info in `<directory>/<id>.json`. */
export async function fileUploadStore(directory: string): Promise<UploadStore> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  // Expiration is ours (sweep, by idle time): the store's own counts from creation and would refuse a slow
  // upload's PATCH after 24 h even while bytes keep arriving.
  const datastore = new HashingFileStore({ directory });
  const bytesOf = (id: string) => path.join(directory, id);
  const discard = async (id: string) => {
    datastore.forget(id);
    if (!isUploadId(id)) return;
    await rm(bytesOf(id), { force: true });
    await rm(`${bytesOf(id)}.json`, { force: true });
  };
  return {
    kind: 'file',
    datastore,
    async materialize(id) {
      const { size } = await stat(bytesOf(id));
      const sha256 = datastore.takeDigest(id, size) ?? (await sha256OfFile(bytesOf(id))).sha256;
      return { path: bytesOf(id), sha256, size, release: () => discard(id) };
    },
    discard,
    async sweep(idleMs, now = Date.now()) {
      let removed = 0;
      for (const name of await readdir(directory).catch(() => [] as string[])) {
        if (!name.endsWith('.json')) continue;
        const id = name.slice(0, -'.json'.length);
        if (!isUploadId(id)) continue;
        try {
          const info = JSON.parse(await readFile(path.join(directory, name), 'utf8')) as {
            size?: number;
            offset?: number;
          };
          const bytes = await stat(bytesOf(id)).catch(() => null);
          const last = bytes?.mtimeMs ?? (await stat(path.join(directory, name))).mtimeMs;
          if (info.offset !== info.size && now - last > idleMs) {
            await discard(id);
            removed += 1;
          }
        } catch {
          // A half-written info file: left for the next sweep.
        }
      }
      return removed;
    },
  };
}

/** The S3 settings of the environment, or null when `UPLOADS_S3_BUCKET` is not set. */
export function s3SettingsFromEnv(env: NodeJS.ProcessEnv = process.env) {
  const bucket = env.UPLOADS_S3_BUCKET?.trim();
  if (!bucket) return null;
  const accessKeyId = env.UPLOADS_S3_ACCESS_KEY_ID;
  const secretAccessKey = env.UPLOADS_S3_SECRET_ACCESS_KEY;
  return {
    bucket,
    region: env.UPLOADS_S3_REGION?.trim() || 'us-east-1',
    endpoint: env.UPLOADS_S3_ENDPOINT?.trim() || undefined,
    forcePathStyle: env.UPLOADS_S3_FORCE_PATH_STYLE === '1' || env.UPLOADS_S3_FORCE_PATH_STYLE === 'true',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  };
}

/**
 * The S3 store. A finished upload is read back once (streamed) into `<tempDir>/<id>` while hashed, so the
 * purpose gets a local file as with the file store; the copy is removed after the purpose took it.
 */
export async function s3UploadStore(
  settings: NonNullable<ReturnType<typeof s3SettingsFromEnv>>,
  tempDir: string,
  expiryMs: number,
): Promise<UploadStore> {
  await mkdir(tempDir, { recursive: true, mode: 0o700 });
  const datastore = new S3Store({
    partSize: 16 * 1024 * 1024,
    expirationPeriodInMilliseconds: expiryMs,
    s3ClientConfig: settings,
  });
  const discard = async (id: string) => {
    await datastore.remove(id).catch(() => undefined);
  };
  return {
    kind: 's3',
    datastore,
    async materialize(id) {
      if (!isUploadId(id)) throw new Error('bad upload id');
      const local = path.join(tempDir, id);
      const hash = createHash('sha256');
      let size = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      await pipeline(await datastore.read(id), tap, createWriteStream(local, { mode: 0o600 }));
      return {
        path: local,
        sha256: hash.digest('hex'),
        size,
        release: async () => {
          await rm(local, { force: true });
          await discard(id);
        },
      };
    },
    discard,
    sweep: () => datastore.deleteExpired(),
  };
}

/** The store the environment asks for: S3 when `UPLOADS_S3_BUCKET` is set, else `DATA_DIR/uploads`. */
export function uploadStoreFor(dataDir: string, expiryMs: number, env = process.env): Promise<UploadStore> {
  const s3 = s3SettingsFromEnv(env);
  const directory = path.join(path.resolve(dataDir), 'uploads');
  return s3 ? s3UploadStore(s3, path.join(directory, 'tmp'), expiryMs) : fileUploadStore(directory);
}
