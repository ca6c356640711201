/**
 * The tus endpoint on a real server (embedded PostgreSQL, file store under DATA_DIR/uploads) driven by
 * tus-js-client in Node and by raw requests: a purpose registered by the test accepts `.bin` files up to 4 MiB.
 * Checks: success with the purpose's result; size, type, metadata and unknown purpose refused at creation
 * before any byte (no file stored); checksum mismatch refused at the end and the bytes removed; another user's
 * upload URL is 404; no token is 401; an interrupted upload resumes from the server's offset; the expiry sweep
 * removes idle unfinished uploads only.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TUS_PATH } from '../../../src/protocol/uploads';
import { definePurpose, registerTestPurpose, requireExtension } from '../../../src/server/uploads/purposes';
import { fileUploadStore } from '../../../src/server/uploads/store';
import { login, startTestServer, type TestServer } from '../server/helpers';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const metaHeader = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',');

let server: TestServer;
let tokenA: string;
let tokenB: string;
let unregister: () => void;
const accepted: string[] = [];
const completed: Array<{ fileName: string; size: number; sha256: string; tag: string; user: string }> = [];

beforeAll(async () => {
  unregister = registerTestPurpose(
    definePurpose({
      name: 'unit-test',
      meta: z.object({ tag: z.string().min(1).max(20) }),
      maxBytes: 4 * 1024 * 1024,
      async accept(_ctx, _user, meta, upload) {
        requireExtension(upload.fileName, ['.bin']);
        accepted.push(meta.tag);
      },
      async complete(_ctx, user, file, meta) {
        const kept = path.join(server.dataDir, `kept-${file.uploadId}`);
        copyFileSync(file.path, kept);
        completed.push({
          fileName: file.fileName,
          size: file.size,
          sha256: file.sha256,
          tag: meta.tag,
          user: user.id,
        });
        return { kept: path.basename(kept), sha256: file.sha256 };
      },
    }),
  );
  server = await startTestServer();
  await server.seed.ensureUser({ email: 'up-a@edge.local', password: 'password-a-123' });
  await server.seed.ensureUser({ email: 'up-b@edge.local', password: 'password-b-123' });
  tokenA = (await login(server, 'up-a@edge.local', 'password-a-123')).token;
  tokenB = (await login(server, 'up-b@edge.local', 'password-b-123')).token;
}, 120_000);

afterAll(async () => {
  unregister?.();
  await server?.dispose();
});

const uploadsDir = () => path.join(server.dataDir, 'uploads');
const storedIds = () => readdirSync(uploadsDir()).filter((n) => n.endsWith('.json'));

/** Uploads `data` with tus-js-client; resolves with the last response's body or rejects with its error. */
function tusUpload(
  data: Buffer,
  meta: Record<string, string>,
  opts: { token?: string; chunkSize?: number; uploadUrl?: string } = {},
): Promise<{ body: string; url: string }> {
  return new Promise((resolve, reject) => {
    const upload: Upload = new Upload(data, {
      endpoint: `${server.url}${TUS_PATH}`,
      uploadUrl: opts.uploadUrl,
      metadata: meta,
      chunkSize: opts.chunkSize ?? Number.POSITIVE_INFINITY,
      retryDelays: null,
      storeFingerprintForResuming: false,
      headers: { Authorization: `Token ${opts.token ?? tokenA}` },
      onSuccess: ({ lastResponse }) => resolve({ body: lastResponse.getBody(), url: upload.url ?? '' }),
      onError: reject,
    });
    upload.start();
  });
}

const statusOf = (err: unknown) =>
  (err as { originalResponse?: { getStatus(): number } | null }).originalResponse?.getStatus();
const bodyOf = (err: unknown) =>
  JSON.parse((err as { originalResponse: { getBody(): string } }).originalResponse.getBody()) as {
    code: string;
    message: string;
  };

async function create(meta: Record<string, string>, length: number, token: string | null = tokenA) {
  const headers: Record<string, string> = {
    'Tus-Resumable': '1.0.0',
    'Upload-Length': String(length),
    'Upload-Metadata': metaHeader(meta),
  };
  if (token) headers.Authorization = `Token ${token}`;
  const res = await fetch(`${server.url}${TUS_PATH}`, { method: 'POST', headers });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

describe('tus endpoint', () => {
  const data = Buffer.alloc(1024 * 1024 + 7, 0);
  for (let i = 0; i < data.length; i++) data[i] = (i * 31) % 251;

  it('stores an upload in chunks, checks its SHA-256 and answers the purpose result', async () => {
    const { body } = await tusUpload(
      data,
      { purpose: 'unit-test', filename: 'weights.bin', filetype: '', sha256: sha(data), tag: 'one' },
      { chunkSize: 300 * 1024 },
    );
    const answer = JSON.parse(body) as { result: { kept: string; sha256: string } };
    expect(answer.result.sha256).toBe(sha(data));
    expect(readFileSync(path.join(server.dataDir, answer.result.kept)).equals(data)).toBe(true);
    expect(completed.at(-1)).toMatchObject({ fileName: 'weights.bin', size: data.length, tag: 'one' });
    // The upload's own bytes and info are gone once the purpose took the file.
    expect(storedIds()).toEqual([]);
  });

  it('refuses a checksum mismatch at the end and removes the bytes', async () => {
    const err = await tusUpload(data, {
      purpose: 'unit-test',
      filename: 'bad.bin',
      sha256: sha(Buffer.from('something else')),
      tag: 'x',
    }).catch((e: unknown) => e);
    expect(statusOf(err)).toBe(460);
    expect(bodyOf(err).code).toBe('Checksum_mismatch');
    expect(storedIds()).toEqual([]);
    expect(completed.find((c) => c.fileName === 'bad.bin')).toBeUndefined();
  });

  it('refuses size, type, metadata and purpose at creation, before any byte', async () => {
    const base = { purpose: 'unit-test', filename: 'a.bin', sha256: sha(data), tag: 't' };
    const big = await create(base, 4 * 1024 * 1024 + 1);
    expect(big.status).toBe(413);
    expect(JSON.parse(big.text).code).toBe('Payload_too_large');
    const type = await create({ ...base, filename: 'a.exe' }, 10);
    expect(type.status).toBe(415);
    expect(JSON.parse(type.text)).toEqual({
      code: 'Unsupported_media_type',
      message: 'a.exe: only .bin files are accepted.',
    });
    const unknown = await create({ ...base, purpose: 'nope' }, 10);
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.text).code).toBe('Unknown_purpose');
    const noTag = await create({ purpose: 'unit-test', filename: 'a.bin', sha256: sha(data) }, 10);
    expect(noTag.status).toBe(400);
    expect(JSON.parse(noTag.text).code).toBe('Validation_error');
    const badName = await create({ ...base, filename: '../etc/passwd.bin' }, 10);
    expect(badName.status).toBe(400);
    const badSha = await create({ ...base, sha256: 'abc' }, 10);
    expect(badSha.status).toBe(400);
    const deferred = await fetch(`${server.url}${TUS_PATH}`, {
      method: 'POST',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Defer-Length': '1',
        'Upload-Metadata': metaHeader(base),
        Authorization: `Token ${tokenA}`,
      },
    });
    expect(deferred.status).toBeGreaterThanOrEqual(400);
    expect(deferred.status).toBeLessThan(500);
    const garbage = await fetch(`${server.url}${TUS_PATH}`, {
      method: 'POST',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '10',
        'Upload-Metadata': 'purpose !!!,, filename',
        Authorization: `Token ${tokenA}`,
      },
    });
    expect(garbage.status).toBe(400);
    expect(storedIds()).toEqual([]);
    expect(accepted).not.toContain('never');
  });

  it('needs a token, and keeps each upload to its user (404 for another)', async () => {
    const base = { purpose: 'unit-test', filename: 'mine.bin', sha256: sha(data), tag: 'mine' };
    const anonymous = await create(base, data.length, null);
    expect(anonymous.status).toBe(401);
    const bad = await create(base, data.length, 'not-a-token');
    expect(bad.status).toBe(401);
    const made = await create(base, data.length);
    expect(made.status).toBe(201);
    const url = new URL(made.location!, server.url).toString();
    const head = (token: string) =>
      fetch(url, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0', Authorization: `Token ${token}` } });
    expect((await head(tokenA)).status).toBe(200);
    expect((await head(tokenB)).status).toBe(404);
    const patchB = await fetch(url, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        Authorization: `Token ${tokenB}`,
      },
      body: data.subarray(0, 100),
    });
    expect(patchB.status).toBe(404);
    const deleteB = await fetch(url, {
      method: 'DELETE',
      headers: { 'Tus-Resumable': '1.0.0', Authorization: `Token ${tokenB}` },
    });
    expect(deleteB.status).toBe(404);
    const deleteA = await fetch(url, {
      method: 'DELETE',
      headers: { 'Tus-Resumable': '1.0.0', Authorization: `Token ${tokenA}` },
    });
    expect(deleteA.status).toBe(204);
    expect(storedIds()).toEqual([]);
  });

  it('resumes an interrupted upload from the server offset', async () => {
    const meta = { purpose: 'unit-test', filename: 'resume.bin', sha256: sha(data), tag: 'resume' };
    const made = await create(meta, data.length);
    const url = new URL(made.location!, server.url).toString();
    const first = await fetch(url, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        Authorization: `Token ${tokenA}`,
      },
      body: data.subarray(0, 500_000),
    });
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe('500000');
    let resumedFrom = -1;
    const { body } = await new Promise<{ body: string }>((resolve, reject) => {
      const upload = new Upload(data, {
        endpoint: `${server.url}${TUS_PATH}`,
        uploadUrl: url,
        metadata: meta,
        retryDelays: null,
        storeFingerprintForResuming: false,
        headers: { Authorization: `Token ${tokenA}` },
        onAfterResponse: (req, res) => {
          if (req.getMethod() === 'HEAD') resumedFrom = Number(res.getHeader('Upload-Offset'));
        },
        onSuccess: ({ lastResponse }) => resolve({ body: lastResponse.getBody() }),
        onError: reject,
      });
      upload.start();
    });
    expect(resumedFrom).toBe(500_000);
    expect(JSON.parse(body).result.sha256).toBe(sha(data));
  });

  it('expires unfinished uploads idle for longer than the expiry, and only those', async () => {
    const store = await fileUploadStore(uploadsDir());
    const meta = { purpose: 'unit-test', filename: 'idle.bin', sha256: sha(data), tag: 'idle' };
    const idle = await create(meta, data.length);
    const fresh = await create({ ...meta, filename: 'fresh.bin' }, data.length);
    const idleId = idle.location!.split('/').pop()!;
    const freshId = fresh.location!.split('/').pop()!;
    const old = new Date(Date.now() - 25 * 60 * 60 * 1000);
    utimesSync(path.join(uploadsDir(), idleId), old, old);
    expect(await store.sweep(24 * 60 * 60 * 1000)).toBe(1);
    expect(existsSync(path.join(uploadsDir(), idleId))).toBe(false);
    expect(existsSync(path.join(uploadsDir(), `${idleId}.json`))).toBe(false);
    expect(existsSync(path.join(uploadsDir(), freshId))).toBe(true);
    await store.discard(freshId);
    expect(storedIds()).toEqual([]);
  });
});
