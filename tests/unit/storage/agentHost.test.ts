/**
 * The host storage part on this machine: the real walk on a temporary tree (hard links, a symlink loop, an
 * unreadable folder, cancel), the filesystems of /proc/mounts, the product data folders and their delete
 * (refusing paths outside them, `..` and symlinks).
 */
import { execFile } from 'node:child_process';
import { chmod, link, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { StorageError } from '../../../src/agent/storage/errors';
import { createHostStorage, isStorageMount, parseMounts } from '../../../src/agent/storage/host';
import { walkDirectory } from '../../../src/agent/storage/walk';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'storage-test-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) {
    await chmod(join(dir, 'tree', 'locked'), 0o755).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
});

const KB = 1024;
/** A tree: big/ (2 × 64 KiB + a hard link to one), small/deep/ (4 KiB), a file at the top, a symlink loop. */
async function makeTree(base: string): Promise<string> {
  const root = join(base, 'tree');
  await mkdir(join(root, 'big'), { recursive: true });
  await mkdir(join(root, 'small', 'deep'), { recursive: true });
  await writeFile(join(root, 'big', 'a.bin'), Buffer.alloc(64 * KB, 1));
  await writeFile(join(root, 'big', 'b.bin'), Buffer.alloc(64 * KB, 2));
  await link(join(root, 'big', 'a.bin'), join(root, 'big', 'a-again.bin'));
  await writeFile(join(root, 'small', 'deep', 'c.txt'), Buffer.alloc(4 * KB, 3));
  await writeFile(join(root, 'top.txt'), 'hello');
  await symlink(root, join(root, 'small', 'loop'));
  await symlink('/', join(root, 'to-root'));
  return root;
}

describe('walkDirectory (real filesystem)', () => {
  it('adds up occupied bytes per child folder, counts a hard link once and never follows symlinks', async () => {
    const root = await makeTree(await tempDir());
    const progress: number[] = [];
    const result = await walkDirectory(root, {
      concurrency: 2,
      progressEveryMs: 0,
      onProgress: (c) => progress.push(c.files),
    });
    expect(result.files).toBe(7); // a, b, a-again, c, top.txt, loop, to-root
    expect(result.dirs).toBe(4);
    expect(result.errors).toBe(0);
    const big = result.children.find((c) => c.name === 'big')!;
    const small = result.children.find((c) => c.name === 'small')!;
    expect(result.children[0]!.name).toBe('big');
    expect(big.bytes).toBeGreaterThanOrEqual(128 * KB);
    expect(big.bytes).toBeLessThan(192 * KB); // the hard link is not counted twice
    expect(small.bytes).toBeGreaterThanOrEqual(4 * KB);
    expect(small.bytes).toBeLessThan(64 * KB); // the loop link is not followed
    expect(result.bytes).toBeGreaterThan(result.children.reduce((sum, c) => sum + c.bytes, 0));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[progress.length - 1]).toBe(7);
  });

  it('refuses a missing path and a file', async () => {
    const root = await makeTree(await tempDir());
    await expect(walkDirectory(join(root, 'nope'))).rejects.toMatchObject({ code: 'not_found' });
    await expect(walkDirectory(join(root, 'top.txt'))).rejects.toMatchObject({ code: 'not_directory' });
  });

  it('stops with canceled when its signal aborts', async () => {
    const root = await makeTree(await tempDir());
    const abort = new AbortController();
    abort.abort();
    await expect(walkDirectory(root, { signal: abort.signal })).rejects.toBeInstanceOf(StorageError);
    await expect(walkDirectory(root, { signal: abort.signal })).rejects.toMatchObject({ code: 'canceled' });
  });

  it('counts an unreadable folder as an error and goes on (run as an unprivileged user)', async () => {
    const base = await tempDir();
    const root = await makeTree(base);
    await mkdir(join(root, 'locked'));
    await writeFile(join(root, 'locked', 'secret'), 'x');
    await chmod(join(root, 'locked'), 0o000);
    await chmod(base, 0o755);
    const script = `import { walkDirectory } from ${JSON.stringify(join(process.cwd(), 'src/agent/storage/walk.ts'))};
      const r = await walkDirectory(${JSON.stringify(root)});
      console.log(JSON.stringify({ files: r.files, errors: r.errors }));`;
    const run = promisify(execFile);
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {},
    );
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ files: 7, errors: 1 });
  });
});

describe('host storage part', () => {
  it('reads /proc/mounts and answers real storage filesystems with sizes in bytes', async () => {
    const storage = createHostStorage({ productDataDir: join(await tempDir(), 'pd') });
    const info = await storage.totals();
    expect(info.filesystems.length).toBeGreaterThan(0);
    expect(info.filesystems.some((f) => f.mount === '/')).toBe(true);
    for (const f of info.filesystems) {
      expect(f.size).toBeGreaterThan(0);
      expect(f.used + f.free).toBeLessThanOrEqual(f.size);
    }
    expect(info.total.size).toBe(info.filesystems.reduce((s, f) => s + f.size, 0));
  });

  it('parses escaped mount points and leaves pseudo filesystems out', () => {
    const mounts = parseMounts(
      'proc /proc proc rw 0 0\n/dev/sda1 /mnt/my\\040disk ext4 rw 0 0\noverlay / overlay rw 0 0\ntmpfs /run tmpfs rw 0 0\n',
    );
    expect(mounts[1]).toEqual({ device: '/dev/sda1', mount: '/mnt/my disk', type: 'ext4' });
    expect(mounts.filter(isStorageMount).map((m) => m.mount)).toEqual(['/mnt/my disk', '/']);
  });

  it('creates the product data folders, deletes inside them and refuses anything else', async () => {
    const base = await tempDir();
    const storage = createHostStorage({ productDataDir: join(base, 'pd') });
    const before = await storage.productData();
    expect(before.folders.map((f) => f.id)).toEqual(['recordings', 'models', 'cache']);
    const rec = before.folders[0]!.path;
    await mkdir(join(rec, 'cam-1'), { recursive: true });
    await writeFile(join(rec, 'cam-1', 'a.mp4'), Buffer.alloc(32 * KB, 1));
    await writeFile(join(rec, 'b.mp4'), Buffer.alloc(8 * KB, 1));
    await writeFile(join(base, 'outside.txt'), 'keep me');
    await symlink(base, join(rec, 'escape'));

    // Outside, through '..', through a symlinked folder: refused, nothing lost.
    for (const path of [
      base,
      join(base, 'outside.txt'),
      `${rec}/../../outside.txt`,
      join(rec, 'escape', 'outside.txt'),
    ]) {
      await expect(storage.deleteProductData(path)).rejects.toMatchObject({ code: 'forbidden' });
    }
    await expect(storage.deleteProductData(join(rec, 'nope'))).rejects.toMatchObject({ code: 'not_found' });
    expect(await readdir(base)).toContain('outside.txt');

    const one = await storage.deleteProductData(join(rec, 'cam-1'));
    expect(one).toMatchObject({ path: join(rec, 'cam-1'), files: 1 });
    expect(one.freed).toBeGreaterThanOrEqual(32 * KB);
    const all = await storage.deleteProductData(rec);
    expect(all.files).toBe(2); // b.mp4 and the link itself (not what it points to)
    expect(await readdir(rec)).toEqual([]);
    expect(await readdir(base)).toContain('outside.txt');
    const after = await storage.productData();
    expect(after.folders[0]).toMatchObject({ bytes: 0, files: 0 });
  });
});
