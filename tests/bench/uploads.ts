/**
 * Issue 9's upload measures (resumable tus uploads), printed as JSON by `npx tsx tests/bench/uploads.ts` and as
 * the `uploads` section of `npm run bench` (`BENCH_ONLY=uploads` runs only it).
 *
 * The server runs as a child process (`--role server`, embedded PostgreSQL, file store under DATA_DIR/uploads)
 * with a bench purpose ('bench': `.bin` files up to 2 GiB; `complete` checks nothing more and drops the file),
 * so its memory is its own and it can be killed. The client is tus-js-client in this process (Node), reading a
 * 1 GiB file from disk in 16 MiB PATCHes (the console's chunk size), with the SHA-256 computed beforehand.
 *
 *   upload_1gb        1 GiB over loopback: MB/s from creation to the last answer (which includes the server's
 *                     SHA-256 of the stored file), and the server's RSS before and at its highest during the
 *                     upload (sampled every 50 ms in the server); rss_growth_mb = highest − before
 *   sigkill_resume    the same file again; at ≥ 40 % the server is killed with SIGKILL and started again on the
 *                     same port and data directory; the client's retries resume it. resumed_from = the server's
 *                     offset on resume, bytes_sent_twice = highest byte count sent before the kill − resumed_from
 *                     (≤ one 16 MiB chunk is the target), checksum_ok = the server accepted the SHA-256 at the end
 *   browser           Chromium on the built console served by the same server: the bench user signs in, a
 *                     1 GiB file is picked in a file input and given to the uploads actor (`uploads.add`, as
 *                     useStartUpload does); the page's JS heap (CDP) and the renderer's RSS are sampled every
 *                     250 ms through hashing and upload; flat = peak − start ≤ 64 MB for both
 *
 * Targets: ≥ 200 MB/s (1 MB = 10^6 bytes), server RSS growth ≤ 64 MB, resume completes with ≤ one chunk sent
 * twice and a matching checksum, browser memory flat. Nothing asserts: `met` reports.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Upload } from 'tus-js-client';
import { TUS_PATH, UPLOAD_CHUNK_BYTES } from '../../src/protocol/uploads';
import { removeDataDir } from '../../src/server/db/embedded';
import { benchUploadsInBrowser } from './uploadsBrowser';

const FILE_BYTES = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);
const USER = { email: 'upload-bench@edge.local', password: 'upload-bench-2026' };
const mb = (bytes: number) => Math.round((bytes / 1e6) * 10) / 10;

type ChildMessage =
  | { type: 'server-ready'; url: string; port: number }
  | { type: 'peak'; rss: number; before: number }
  | { type: 'error'; message: string };

// ---------------------------------------------------------------------------------------------------------
// Child: `--role server <dataDir> <port>`.

async function runServerRole(): Promise<void> {
  const [dataDir, portArg] = process.argv.slice(process.argv.indexOf('--role') + 2);
  const { z } = await import('zod');
  const { rm } = await import('node:fs/promises');
  const { startServer } = await import('../../src/server/index');
  const { definePurpose, registerTestPurpose, requireExtension } =
    await import('../../src/server/uploads/purposes');
  registerTestPurpose(
    definePurpose({
      name: 'bench',
      meta: z.object({}),
      maxBytes: 2 * 1024 ** 3,
      async accept(_ctx, _user, _meta, upload) {
        requireExtension(upload.fileName, ['.bin']);
      },
      async complete(_ctx, _user, file) {
        await rm(file.path, { force: true });
        return { size: file.size, sha256: file.sha256 };
      },
    }),
  );
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  // After a SIGKILL the previous PostgreSQL may still be stopping: try again for a while.
  for (let attempt = 0; !server; attempt++) {
    try {
      server = await startServer({
        port: Number(portArg),
        host: '127.0.0.1',
        dataDir,
        staticDir: process.env.BENCH_STATIC_DIR ?? null,
        logLevel: 'error',
        embeddedPgNoSync: true,
      });
    } catch (err) {
      if (attempt > 40) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  await server.seed.ensureUser(USER);
  const before = process.memoryUsage().rss;
  let peak = before;
  setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50).unref();
  process.on('message', (m: { type: string }) => {
    if (m.type === 'peak') {
      process.send!({ type: 'peak', rss: peak, before });
    }
    if (m.type === 'stop') void server.close().then(() => process.exit(0));
  });
  process.on('disconnect', () => void server.close().then(() => process.exit(0)));
  process.send!({ type: 'server-ready', url: server.url, port: server.port });
}

// ---------------------------------------------------------------------------------------------------------
// Driver.

function spawnServer(dataDir: string, port: number, env: NodeJS.ProcessEnv = {}): ChildProcess {
  return fork(fileURLToPath(import.meta.url), ['--role', 'server', dataDir, String(port)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
}

function nextMessage<T extends ChildMessage['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: ChildMessage) => {
      if (m.type === 'error') return reject(new Error(m.message));
      if (m.type !== type) return;
      child.off('message', onMessage);
      resolve(m as Extract<ChildMessage, { type: T }>);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before '${type}'`)));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send({ type: 'stop' });
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** Writes `bytes` of pseudo-random data to `file`; resolves with its SHA-256. */
async function makeFile(file: string, bytes: number): Promise<string> {
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < block.length; i++) block[i] = (i * 2654435761) >>> 24;
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  for (let done = 0; done < bytes; done += block.length) {
    block.writeUInt32LE(done / block.length, 0);
    const part = block.subarray(0, Math.min(block.length, bytes - done));
    hash.update(part);
    if (!out.write(part)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  return hash.digest('hex');
}

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(USER),
  });
  return ((await res.json()) as { token: string }).token;
}

interface RunOptions {
  url: string;
  token: string;
  file: string;
  sha256: string;
  onProgress?: (sent: number) => void;
  onHeadOffset?: (offset: number) => void;
}

/** One tus-js-client upload of `file`; resolves with the last answer's body. */
function upload(o: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const u = new Upload(createReadStream(o.file), {
      endpoint: `${o.url}${TUS_PATH}`,
      uploadSize: FILE_BYTES,
      chunkSize: UPLOAD_CHUNK_BYTES,
      metadata: { purpose: 'bench', filename: 'bench.bin', filetype: '', sha256: o.sha256 },
      headers: { Authorization: `Token ${o.token}` },
      storeFingerprintForResuming: false,
      retryDelays: Array.from({ length: 60 }, () => 500),
      onProgress: (sent) => o.onProgress?.(sent),
      onAfterResponse: (req, res) => {
        if (req.getMethod() === 'HEAD') o.onHeadOffset?.(Number(res.getHeader('Upload-Offset')));
      },
      onSuccess: ({ lastResponse }) => resolve(lastResponse.getBody()),
      onError: reject,
    });
    u.start();
  });
}

export async function benchUploads(): Promise<Record<string, unknown>> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'uploads-bench-'));
  const dataDir = path.join(work, 'data');
  const file = path.join(work, 'bench.bin');
  const hashStart = performance.now();
  const sha256 = await makeFile(file, FILE_BYTES);
  const makeMs = performance.now() - hashStart;
  const staticDir = path.resolve('dist');
  let server = spawnServer(dataDir, 0, { BENCH_STATIC_DIR: staticDir });
  try {
    const ready = await nextMessage(server, 'server-ready');
    const url = ready.url;
    const tok = await token(url);

    // 1 GiB over loopback, server memory.
    const t0 = performance.now();
    const body1 = JSON.parse(await upload({ url, token: tok, file, sha256 })) as {
      result: { sha256: string };
    };
    const seconds = (performance.now() - t0) / 1000;
    server.send({ type: 'peak' });
    const peak = await nextMessage(server, 'peak');
    const upload1 = {
      bytes: FILE_BYTES,
      seconds: Math.round(seconds * 100) / 100,
      mb_per_s: mb(FILE_BYTES / seconds),
      checksum_ok: body1.result.sha256 === sha256,
      server_rss_before_mb: mb(peak.before),
      server_rss_peak_mb: mb(peak.rss),
      rss_growth_mb: mb(peak.rss - peak.before),
      file_written_and_hashed_mb_per_s: mb(FILE_BYTES / (makeMs / 1000)),
    };

    // SIGKILL mid-upload, restart, resume.
    let maxSent = 0;
    let resumedFrom = -1;
    let killed = false;
    let restarted: Promise<void> | null = null;
    const t1 = performance.now();
    const body2 = await upload({
      url,
      token: tok,
      file,
      sha256,
      onProgress: (sent) => {
        if (!killed) maxSent = Math.max(maxSent, sent);
        if (!killed && sent >= FILE_BYTES * 0.4) {
          killed = true;
          server.kill('SIGKILL');
          restarted = (async () => {
            await new Promise((r) => server.once('exit', r));
            server = spawnServer(dataDir, ready.port, { BENCH_STATIC_DIR: staticDir });
            await nextMessage(server, 'server-ready');
          })();
        }
      },
      onHeadOffset: (offset) => {
        if (killed && resumedFrom < 0) resumedFrom = offset;
      },
    }).then(
      (b) => JSON.parse(b) as { result: { sha256: string } },
      (err: unknown) => ({ error: String(err) }),
    );
    await restarted;
    const sigkill = {
      killed_at_bytes: maxSent,
      resumed_from: resumedFrom,
      bytes_sent_twice: resumedFrom >= 0 ? maxSent - resumedFrom : null,
      chunk_bytes: UPLOAD_CHUNK_BYTES,
      completed: 'result' in body2,
      checksum_ok: 'result' in body2 && body2.result.sha256 === sha256,
      seconds_with_restart: Math.round((performance.now() - t1) / 10) / 100,
      ...('error' in body2 ? { error: body2.error } : {}),
    };

    process.stderr.write(`uploads bench: ${JSON.stringify({ upload1, sigkill })}\n`);
    const browser = await benchUploadsInBrowser(url, USER, file).catch((err: unknown) => ({
      error: err instanceof Error ? err.message : String(err),
    }));

    return {
      upload_1gb: upload1,
      sigkill_resume: sigkill,
      browser,
      met: {
        throughput_200mb_s: upload1.mb_per_s >= 200,
        server_rss_growth_64mb: upload1.rss_growth_mb <= 64,
        resume_completes: sigkill.completed && sigkill.checksum_ok,
        resend_at_most_one_chunk:
          sigkill.bytes_sent_twice !== null && sigkill.bytes_sent_twice <= UPLOAD_CHUNK_BYTES,
        browser_memory_flat: 'flat' in browser ? browser.flat : false,
      },
    };
  } finally {
    await stopChild(server);
    rmSync(file, { force: true });
    removeDataDir(dataDir);
    rmSync(work, { recursive: true, force: true });
  }
}

const roleAt = process.argv.indexOf('--role');
if (roleAt >= 0) {
  runServerRole().catch((err: unknown) => {
    process.send?.({
      type: 'error',
      message: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    process.exit(1);
  });
} else if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  benchUploads().then(
    (result) => {
      const machine = { cpus: os.cpus().length, loadavg_1m: Math.round(os.loadavg()[0]! * 100) / 100 };
      process.stdout.write(`${JSON.stringify({ machine, uploads: result }, null, 2)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(
        `uploads bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
}
