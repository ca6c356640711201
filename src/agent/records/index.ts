/**
 * The device's records part (issue 16 §2 records; §2 /control-panel/records; §9 "Recorded video codec vp8"):
 * recordings (WebM) kept on the device as real files in `<stateDir>/records`. `host` and `sim` behave the
 * same here: a sim device's stateDir is just another directory, so its recordings are real files too.
 *
 * Uploads are written to `<dir>/.uploads/<id>.part` in order, then checked (size, SHA-256) and renamed into
 * place (atomic on one file system). Camera labels are kept in `<dir>/.meta.json`. Every refusal is a
 * CommandError with a RECORD_ERROR_CODES code; nothing here throws anything else to the handlers.
 */
import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  RECORD_CHUNK_BYTES,
  RECORD_ERROR_CODES as E,
  RECORD_MAX_BYTES,
  RECORD_MAX_UPLOADS,
  RECORD_UPLOAD_IDLE_MS,
  type RecordItem,
  type RecordsListReply,
  type RecordsReadReply,
} from '../../protocol/records';
import { CommandError } from '../commands/errors';
import type { AgentPartDeps } from '../parts';

const NAME_RE = /^[A-Za-z0-9_-][A-Za-z0-9 ._-]*\.webm$/;

export interface DeviceRecords {
  /** Recordings, newest first; page is 1-based. */
  list(page: number, pageSize: number): Promise<RecordsListReply>;
  /** Starts an upload: name, size (bytes), sha256 (hex), camera label or null. */
  begin(
    name: string,
    size: number,
    sha256: string,
    camera: string | null,
  ): Promise<{ upload_id: string; chunk_bytes: number }>;
  /** Appends base64 `data` at `offset` (must equal the bytes received so far). Returns bytes received. */
  chunk(uploadId: string, offset: number, data: string): Promise<{ received: number }>;
  /** Checks and publishes an upload. */
  finish(uploadId: string): Promise<RecordItem>;
  /** Drops an upload; false when there was none. */
  abort(uploadId: string): Promise<{ aborted: boolean }>;
  /** Reads up to `length` (≤ RECORD_CHUNK_BYTES) bytes at `offset`, base64. */
  read(name: string, offset: number, length: number): Promise<RecordsReadReply>;
  remove(name: string): Promise<{ removed: true }>;
  /** The directory the recordings live in. */
  readonly dir: string;
  /** Stops what the part runs (the expiry timer, open uploads); idempotent. */
  close(): Promise<void>;
}

interface Upload {
  id: string;
  name: string;
  size: number;
  sha256: string;
  camera: string | null;
  received: number;
  hash: ReturnType<typeof createHash>;
  file: string;
  touched: number;
  /** Serialises the upload's chunks. */
  busy: boolean;
}

export interface RecordsOptions {
  /** Idle time after which an upload is dropped, ms (tests shorten it). */
  idleMs?: number;
  /** Largest file, bytes (tests shorten it). */
  maxBytes?: number;
  now?: () => number;
}

function checkName(name: string): string {
  if (typeof name !== 'string' || !NAME_RE.test(name) || name.includes('..') || name.length > 125)
    throw new CommandError(
      E.badName,
      'Invalid recording name: use letters, digits, space, ".", "_", "-" and end in .webm',
    );
  return name;
}

const ioError = (e: unknown): CommandError =>
  e instanceof CommandError
    ? e
    : new CommandError(E.io, `Storage error: ${(e as Error).message ?? String(e)}`);

export function createDeviceRecords(deps: AgentPartDeps, opts: RecordsOptions = {}): DeviceRecords {
  const dir = path.join(deps.stateDir, 'records');
  const uploadsDir = path.join(dir, '.uploads');
  const metaFile = path.join(dir, '.meta.json');
  const idleMs = opts.idleMs ?? RECORD_UPLOAD_IDLE_MS;
  const maxBytes = opts.maxBytes ?? RECORD_MAX_BYTES;
  const now = opts.now ?? Date.now;
  const uploads = new Map<string, Upload>();
  let ready: Promise<void> | null = null;

  const ensure = (): Promise<void> =>
    (ready ??= (async () => {
      await fs.mkdir(uploadsDir, { recursive: true });
      // Leftovers of a previous run are abandoned uploads.
      for (const f of await fs.readdir(uploadsDir)) await fs.rm(path.join(uploadsDir, f), { force: true });
    })().catch((e) => {
      ready = null;
      throw ioError(e);
    }));

  async function readMeta(): Promise<Record<string, string>> {
    try {
      const v = JSON.parse(await fs.readFile(metaFile, 'utf8')) as unknown;
      return v && typeof v === 'object' ? (v as Record<string, string>) : {};
    } catch {
      return {};
    }
  }
  async function writeMeta(m: Record<string, string>): Promise<void> {
    const tmp = `${metaFile}.${randomUUID()}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(m));
    await fs.rename(tmp, metaFile);
  }

  async function drop(u: Upload): Promise<void> {
    uploads.delete(u.id);
    await fs.rm(u.file, { force: true }).catch(() => undefined);
  }

  async function expire(): Promise<void> {
    const t = now();
    for (const u of [...uploads.values()]) if (!u.busy && t - u.touched > idleMs) await drop(u);
  }
  const timer = setInterval(() => void expire(), Math.max(1000, Math.min(idleMs, 60_000)));
  timer.unref?.();

  function upload(id: string): Upload {
    const u = typeof id === 'string' ? uploads.get(id) : undefined;
    if (!u) throw new CommandError(E.noUpload, 'Unknown or expired upload; start again');
    return u;
  }

  async function stat(name: string): Promise<{ size: number; mtime: Date }> {
    try {
      const s = await fs.stat(path.join(dir, checkName(name)));
      if (!s.isFile()) throw new Error('not a file');
      return s;
    } catch (e) {
      if (e instanceof CommandError) throw e;
      throw new CommandError(E.notFound, `Recording "${name}" not found`);
    }
  }

  return {
    dir,
    async list(page, pageSize) {
      await ensure();
      await expire();
      try {
        const meta = await readMeta();
        const names = (await fs.readdir(dir)).filter((n) => NAME_RE.test(n));
        const items: RecordItem[] = [];
        for (const name of names) {
          const s = await fs.stat(path.join(dir, name)).catch(() => null);
          if (!s?.isFile()) continue;
          items.push({ name, size: s.size, created: s.mtime.toISOString(), camera: meta[name] ?? null });
        }
        items.sort((a, b) => b.created.localeCompare(a.created) || a.name.localeCompare(b.name));
        const start = (page - 1) * pageSize;
        return {
          items: items.slice(start, start + pageSize),
          total: items.length,
          page,
          page_size: pageSize,
        };
      } catch (e) {
        throw ioError(e);
      }
    },

    async begin(name, size, sha256, camera) {
      checkName(name);
      await ensure();
      await expire();
      if (size > maxBytes) throw new CommandError(E.tooLarge, `Recording is larger than ${maxBytes} bytes`);
      if (uploads.size >= RECORD_MAX_UPLOADS)
        throw new CommandError(E.busy, 'Too many uploads in progress; try later');
      if ([...uploads.values()].some((u) => u.name === name))
        throw new CommandError(E.exists, `"${name}" is being saved already`);
      if (
        await fs.stat(path.join(dir, name)).then(
          () => true,
          () => false,
        )
      )
        throw new CommandError(E.exists, `A recording named "${name}" exists already`);
      const id = randomUUID();
      const file = path.join(uploadsDir, `${id}.part`);
      try {
        await fs.writeFile(file, new Uint8Array(0));
      } catch (e) {
        throw ioError(e);
      }
      uploads.set(id, {
        id,
        name,
        size,
        sha256,
        camera,
        received: 0,
        hash: createHash('sha256'),
        file,
        touched: now(),
        busy: false,
      });
      deps.log.info(`records: saving ${name} (${size} bytes)`);
      return { upload_id: id, chunk_bytes: RECORD_CHUNK_BYTES };
    },

    async chunk(uploadId, offset, data) {
      const u = upload(uploadId);
      if (u.busy) throw new CommandError(E.busy, 'A chunk of this upload is still being written');
      if (offset !== u.received)
        throw new CommandError(E.badOffset, `Expected offset ${u.received}, got ${offset}`);
      const bytes = Buffer.from(data, 'base64');
      if (bytes.length > RECORD_CHUNK_BYTES)
        throw new CommandError(E.tooLarge, `A chunk is at most ${RECORD_CHUNK_BYTES} bytes`);
      if (u.received + bytes.length > u.size) throw new CommandError(E.tooLarge, 'More bytes than announced');
      u.busy = true;
      try {
        await fs.appendFile(u.file, bytes);
        u.hash.update(bytes);
        u.received += bytes.length;
        u.touched = now();
        return { received: u.received };
      } catch (e) {
        await drop(u);
        throw ioError(e);
      } finally {
        u.busy = false;
      }
    },

    async finish(uploadId) {
      const u = upload(uploadId);
      if (u.busy) throw new CommandError(E.busy, 'A chunk of this upload is still being written');
      const digest = u.hash.copy().digest('hex');
      if (u.received !== u.size || digest !== u.sha256) {
        await drop(u);
        throw new CommandError(
          E.mismatch,
          u.received !== u.size
            ? `Received ${u.received} of ${u.size} bytes; the upload was dropped`
            : 'SHA-256 differs from the announced one; the upload was dropped',
        );
      }
      const target = path.join(dir, u.name);
      try {
        if (
          await fs.stat(target).then(
            () => true,
            () => false,
          )
        ) {
          await drop(u);
          throw new CommandError(E.exists, `A recording named "${u.name}" exists already`);
        }
        await fs.rename(u.file, target);
        uploads.delete(u.id);
        if (u.camera) {
          const meta = await readMeta();
          meta[u.name] = u.camera;
          await writeMeta(meta);
        }
        const s = await fs.stat(target);
        deps.log.info(`records: saved ${u.name}`);
        return { name: u.name, size: s.size, created: s.mtime.toISOString(), camera: u.camera };
      } catch (e) {
        await drop(u);
        throw ioError(e);
      }
    },

    async abort(uploadId) {
      const u = typeof uploadId === 'string' ? uploads.get(uploadId) : undefined;
      if (!u) return { aborted: false };
      await drop(u);
      return { aborted: true };
    },

    async read(name, offset, length) {
      await ensure();
      const s = await stat(name);
      if (offset > s.size)
        throw new CommandError(E.badOffset, `Offset ${offset} is beyond the end (${s.size} bytes)`);
      const n = Math.max(0, Math.min(length, RECORD_CHUNK_BYTES, s.size - offset));
      let fh: fs.FileHandle | undefined;
      try {
        fh = await fs.open(path.join(dir, name), 'r');
        const buf = Buffer.alloc(n);
        const { bytesRead } = await fh.read(buf, 0, n, offset);
        return {
          data: buf.subarray(0, bytesRead).toString('base64'),
          offset,
          size: s.size,
          eof: offset + bytesRead >= s.size,
        };
      } catch (e) {
        throw ioError(e);
      } finally {
        await fh?.close().catch(() => undefined);
      }
    },

    async remove(name) {
      await ensure();
      await stat(name);
      try {
        await fs.rm(path.join(dir, name));
        const meta = await readMeta();
        if (name in meta) {
          delete meta[name];
          await writeMeta(meta);
        }
        deps.log.info(`records: removed ${name}`);
        return { removed: true };
      } catch (e) {
        throw ioError(e);
      }
    },

    async close() {
      clearInterval(timer);
      for (const u of [...uploads.values()]) await drop(u);
    },
  };
}
