/**
 * The records part (src/agent/records/) on real files in a temporary stateDir, and its handlers with the
 * protocol's schemas: save (chunks, offset, size, sha256), list (newest first, paged), read, remove, and the
 * refusals (traversal, oversize, bad offset, checksum mismatch, expiry) — each a coded CommandError.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordHandlers } from '../../../src/agent/commands/records';
import type { CommandContext } from '../../../src/agent/commands/context';
import { silentLogger } from '../../../src/agent/log';
import type { AgentPartDeps } from '../../../src/agent/parts';
import { createDeviceRecords, type DeviceRecords } from '../../../src/agent/records';
import { RECORD_CHUNK_BYTES, recordCommands } from '../../../src/protocol/records';

let dir: string;
let rec: DeviceRecords;
let clock = 1_000_000;

const deps = (stateDir: string): AgentPartDeps =>
  ({
    mode: 'sim',
    deviceId: 'dev-rec',
    label: 'rec',
    stateDir,
    log: silentLogger,
    broadcast: () => {},
  }) as unknown as AgentPartDeps;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function save(r: DeviceRecords, name: string, bytes: Buffer, camera: string | null = null) {
  const { upload_id, chunk_bytes } = await r.begin(name, bytes.length, sha(bytes), camera);
  for (let o = 0; o < bytes.length; o += chunk_bytes)
    await r.chunk(upload_id, o, bytes.subarray(o, o + chunk_bytes).toString('base64'));
  return r.finish(upload_id);
}

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code ?? String(e),
  );

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'records-'));
  rec = createDeviceRecords(deps(dir), { idleMs: 1000, maxBytes: 100_000, now: () => clock });
});
afterEach(async () => {
  await rec.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('records part', () => {
  it('saves in chunks, lists, reads back exactly and removes', async () => {
    const bytes = Buffer.from(Array.from({ length: RECORD_CHUNK_BYTES * 2 + 77 }, (_, i) => (i * 31) % 256));
    const item = await save(rec, 'cam 1.webm', bytes, 'Front door');
    expect(item).toMatchObject({ name: 'cam 1.webm', size: bytes.length, camera: 'Front door' });
    expect(await fs.readFile(path.join(rec.dir, 'cam 1.webm'))).toEqual(bytes);

    const list = await rec.list(1, 50);
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ name: 'cam 1.webm', camera: 'Front door', size: bytes.length });

    const parts: Buffer[] = [];
    for (let o = 0, eof = false; !eof;) {
      const r = await rec.read('cam 1.webm', o, RECORD_CHUNK_BYTES);
      parts.push(Buffer.from(r.data, 'base64'));
      o += Buffer.from(r.data, 'base64').length;
      eof = r.eof;
    }
    expect(Buffer.concat(parts)).toEqual(bytes);

    expect(await rec.remove('cam 1.webm')).toEqual({ removed: true });
    expect((await rec.list(1, 50)).total).toBe(0);
    expect(await code(rec.remove('cam 1.webm'))).toBe('not_found');
  });

  it('lists newest first and pages', async () => {
    for (const n of ['a.webm', 'b.webm', 'c.webm']) await save(rec, n, Buffer.from(n));
    const t = Date.now() / 1000;
    await fs.utimes(path.join(rec.dir, 'a.webm'), t, t - 30);
    await fs.utimes(path.join(rec.dir, 'b.webm'), t, t - 10);
    await fs.utimes(path.join(rec.dir, 'c.webm'), t, t - 20);
    expect((await rec.list(1, 2)).items.map((i) => i.name)).toEqual(['b.webm', 'c.webm']);
    expect(await rec.list(2, 2)).toMatchObject({ total: 3, items: [{ name: 'a.webm' }] });
  });

  it('refuses traversal and odd names', async () => {
    for (const n of ['../x.webm', '/etc/passwd', 'a/b.webm', '.hidden.webm', 'x.mp4', '..webm'])
      expect(await code(rec.begin(n, 10, sha(Buffer.alloc(10)), null))).toBe('invalid_name');
    expect(await code(rec.read('../../etc.webm', 0, 10))).toBe('invalid_name');
    expect(await code(rec.remove('..%2f.webm'))).toBe('invalid_name');
  });

  it('refuses oversize, wrong offsets, extra bytes and a checksum mismatch (dropping the upload)', async () => {
    expect(await code(rec.begin('big.webm', 100_001, sha(Buffer.alloc(1)), null))).toBe('too_large');
    const b = Buffer.from('hello world');
    const { upload_id } = await rec.begin('x.webm', b.length, sha(Buffer.from('other')), null);
    expect(await code(rec.chunk(upload_id, 5, b.toString('base64')))).toBe('bad_offset');
    expect(await code(rec.chunk(upload_id, 0, Buffer.alloc(50).toString('base64')))).toBe('too_large');
    await rec.chunk(upload_id, 0, b.toString('base64'));
    expect(await code(rec.finish(upload_id))).toBe('checksum_mismatch');
    expect(await code(rec.finish(upload_id))).toBe('unknown_upload');
    expect((await rec.list(1, 50)).total).toBe(0);
    expect(await fs.readdir(path.join(rec.dir, '.uploads'))).toEqual([]);
  });

  it('refuses a second file of the same name and a read beyond the end', async () => {
    await save(rec, 'one.webm', Buffer.from('abc'));
    expect(await code(rec.begin('one.webm', 3, sha(Buffer.from('abc')), null))).toBe('exists');
    expect(await code(rec.read('one.webm', 4, 10))).toBe('bad_offset');
    expect(await rec.read('one.webm', 3, 10)).toMatchObject({ data: '', eof: true, size: 3 });
    expect(await code(rec.read('none.webm', 0, 10))).toBe('not_found');
  });

  it('drops abandoned uploads after the idle time', async () => {
    const { upload_id } = await rec.begin('slow.webm', 4, sha(Buffer.from('abcd')), null);
    await rec.chunk(upload_id, 0, Buffer.from('ab').toString('base64'));
    clock += 5000;
    await rec.list(1, 10); // expiry runs on every call too
    expect(await code(rec.chunk(upload_id, 2, Buffer.from('cd').toString('base64')))).toBe('unknown_upload');
    expect(await rec.abort(upload_id)).toEqual({ aborted: false });
  });
});

describe('records handlers with the protocol schemas', () => {
  const ctx = () => ({ records: rec }) as unknown as CommandContext;
  const call = async <K extends keyof typeof recordHandlers>(k: K, payload: unknown) => {
    const spec = recordCommands[k];
    const req = spec.request.parse(payload);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const out = await (recordHandlers[k] as any)(req, ctx(), { progress: () => {} });
    return spec.reply.parse(out);
  };

  it('round-trips a file through the commands', async () => {
    const b = Buffer.from('webm-bytes');
    const begin = await call('records-save-begin', { name: 'r.webm', size: b.length, sha256: sha(b) });
    const id = (begin as { upload_id: string }).upload_id;
    await call('records-save-chunk', { upload_id: id, offset: 0, data: b.toString('base64') });
    await call('records-save-finish', { upload_id: id });
    expect(await call('records-list', {})).toMatchObject({
      total: 1,
      items: [{ name: 'r.webm', camera: null }],
    });
    expect(await call('records-read', { name: 'r.webm', offset: 0, length: 100 })).toMatchObject({
      data: b.toString('base64'),
      eof: true,
    });
    expect(await call('records-remove', { name: 'r.webm' })).toEqual({ removed: true });
  });

  it('the schemas refuse hostile payloads', () => {
    expect(
      recordCommands['records-read'].request.safeParse({ name: '../a.webm', offset: 0, length: 1 }).success,
    ).toBe(false);
    expect(
      recordCommands['records-read'].request.safeParse({ name: 'a.webm', offset: 0, length: 99_999 }).success,
    ).toBe(false);
    expect(
      recordCommands['records-save-chunk'].request.safeParse({
        upload_id: 'x',
        offset: 0,
        data: 'A'.repeat(20_000),
      }).success,
    ).toBe(false);
  });
});
