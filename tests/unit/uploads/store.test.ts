/**
 * The file store's SHA-256 at the end of an upload (src/server/uploads/store.ts): hashed on the way in while the
 * PATCHes follow each other in this process, read back from the stored file otherwise (a resume after a server
 * restart, a failed write). Whichever way, `materialize` must give the digest and size of the stored bytes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Upload } from '@tus/utils';
import { afterEach, describe, expect, it } from 'vitest';
import { fileUploadStore } from '../../../src/server/uploads/store';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function newStore(dir?: string) {
  const directory = dir ?? mkdtempSync(path.join(os.tmpdir(), 'upload-store-'));
  if (!dir) dirs.push(directory);
  return { directory, store: await fileUploadStore(directory) };
}

async function created(store: Awaited<ReturnType<typeof fileUploadStore>>, id: string, size: number) {
  await store.datastore.create(new Upload({ id, size, offset: 0, metadata: {} }));
}

/** A stream of `data` that fails after `failAfter` bytes. */
function failing(data: Buffer, failAfter: number): Readable {
  return new Readable({
    read() {
      this.push(data.subarray(0, failAfter));
      this.destroy(new Error('connection reset'));
    },
  });
}

describe('file upload store', () => {
  it('gives the digest of bytes written in consecutive PATCHes', async () => {
    const { store } = await newStore();
    const data = randomBytes(300_000);
    await created(store, 'a1', data.length);
    let offset = 0;
    for (const part of [data.subarray(0, 100_000), data.subarray(100_000, 250_000), data.subarray(250_000)]) {
      offset = await store.datastore.write(Readable.from([part]), 'a1', offset);
    }
    expect(offset).toBe(data.length);
    const file = await store.materialize('a1');
    expect(file.size).toBe(data.length);
    expect(file.sha256).toBe(sha(data));
    await file.release();
  });

  it('reads the stored file when the upload was resumed by another server process', async () => {
    const first = await newStore();
    const data = randomBytes(200_000);
    await created(first.store, 'b2', data.length);
    const half = await first.store.datastore.write(Readable.from([data.subarray(0, 80_000)]), 'b2', 0);
    // A restarted server: a new store over the same directory knows nothing of the running hash.
    const { store } = await newStore(first.directory);
    await store.datastore.write(Readable.from([data.subarray(half)]), 'b2', half);
    const file = await store.materialize('b2');
    expect(file.sha256).toBe(sha(data));
    await file.release();
  });

  it('reads the stored file after a write that failed part-way', async () => {
    const { store } = await newStore();
    const data = randomBytes(120_000);
    await created(store, 'c3', data.length);
    await expect(store.datastore.write(failing(data, 50_000), 'c3', 0)).rejects.toBeTruthy();
    const { offset } = await store.datastore.getUpload('c3');
    await store.datastore.write(Readable.from([data.subarray(offset)]), 'c3', offset);
    const file = await store.materialize('c3');
    expect(file.size).toBe(data.length);
    expect(file.sha256).toBe(sha(data));
    await file.release();
  });

  it('hashes a new upload from its first byte even when an id is reused', async () => {
    const { store } = await newStore();
    const data = randomBytes(50_000);
    await created(store, 'd4', data.length);
    await store.datastore.write(Readable.from([randomBytes(10_000)]), 'd4', 0);
    // The same upload written again from offset 0 (a client starting over) replaces the running hash.
    await store.datastore.write(Readable.from([data]), 'd4', 0);
    const file = await store.materialize('d4');
    expect(file.sha256).toBe(sha(data));
    await file.release();
  });
});
