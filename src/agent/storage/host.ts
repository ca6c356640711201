/**
 * Storage of this machine, for real (§7 "Storage"): filesystems from /proc/mounts with `fs.statfs`, scans by
 * walkDirectory (walk.ts), and the product data folders `recordings`, `models`, `cache` under a root (default
 * `<stateDir>/product-data`), created when missing. Deleting refuses any path that is not inside them once
 * `..` is resolved, or that reaches them through a symlink.
 */
import { lstat, mkdir, readdir, readFile, realpath, rm, statfs } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { FILESYSTEMS_MAX, NAME_MAX_CHARS } from '../../protocol/storage';
import type { Filesystem, ProductData, ProductDataFolderId, TotalStorageInfo } from '../../protocol/storage';
import { StorageError } from './errors';
import type { StorageBackend } from './types';
import { walkDirectory } from './walk';

/** Filesystem types that hold no storage (kernel views, memory, containers' layers other than '/'). */
const PSEUDO_TYPES = new Set([
  'proc',
  'sysfs',
  'devtmpfs',
  'devpts',
  'tmpfs',
  'ramfs',
  'cgroup',
  'cgroup2',
  'mqueue',
  'debugfs',
  'tracefs',
  'securityfs',
  'pstore',
  'bpf',
  'configfs',
  'fusectl',
  'hugetlbfs',
  'autofs',
  'binfmt_misc',
  'nsfs',
  'rpc_pipefs',
  'efivarfs',
  'selinuxfs',
  'squashfs',
  'overlay',
  'shm',
  'nfsd',
]);

/** /proc/mounts escapes space, tab, newline and backslash as \ooo. */
const unescapeMount = (s: string): string =>
  s.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));

/** A /proc/mounts line as { device, mount, type }. */
export function parseMounts(text: string): { device: string; mount: string; type: string }[] {
  return text
    .split('\n')
    .map((line) => line.split(' '))
    .filter((f) => f.length >= 3)
    .map(([device, mount, type]) => ({
      device: unescapeMount(device!),
      mount: unescapeMount(mount!),
      type: type!,
    }));
}

/** Whether a mount holds storage: not a pseudo filesystem (the root filesystem always counts). */
export const isStorageMount = (m: { mount: string; type: string }): boolean =>
  m.mount === '/' || !(PSEUDO_TYPES.has(m.type) || m.type.startsWith('fuse.') || m.type === 'fuse');

/** Sums filesystems into TotalStorageInfo (largest first, at most FILESYSTEMS_MAX). */
export function totalOf(filesystems: Filesystem[]): TotalStorageInfo {
  const list = [...filesystems].sort((a, b) => b.size - a.size).slice(0, FILESYSTEMS_MAX);
  return {
    filesystems: list,
    total: list.reduce((t, f) => ({ size: t.size + f.size, used: t.used + f.used, free: t.free + f.free }), {
      size: 0,
      used: 0,
      free: 0,
    }),
  };
}

const FOLDER_IDS: readonly ProductDataFolderId[] = ['recordings', 'models', 'cache'];

const errno = (err: unknown): string =>
  typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';

export interface HostStorageOptions {
  /** Root of the product data folders. */
  productDataDir: string;
  /** Where the mount table is read (tests). Default '/proc/mounts'. */
  mountsFile?: string;
}

export function createHostStorage(options: HostStorageOptions): StorageBackend {
  const mountsFile = options.mountsFile ?? '/proc/mounts';
  let rootPromise: Promise<string> | null = null;
  /** The product data root, created with its folders, as its real path. */
  const productRoot = () =>
    (rootPromise ??= (async () => {
      for (const id of FOLDER_IDS) await mkdir(join(options.productDataDir, id), { recursive: true });
      return realpath(options.productDataDir);
    })());

  return {
    async totals() {
      const mounts = parseMounts(await readFile(mountsFile, 'utf8')).filter(isStorageMount);
      const byDevice = new Map<string, Filesystem>();
      for (const m of mounts) {
        let s;
        try {
          s = await statfs(m.mount);
        } catch {
          continue; // unmounted meanwhile, or not ours to read
        }
        const size = s.blocks * s.bsize;
        if (size <= 0) continue;
        const fs: Filesystem = {
          mount: m.mount.slice(0, NAME_MAX_CHARS),
          device: m.device.slice(0, NAME_MAX_CHARS),
          type: m.type.slice(0, 64),
          size,
          used: Math.max(0, (s.blocks - s.bfree) * s.bsize),
          free: s.bavail * s.bsize,
        };
        // A device mounted twice (bind mounts) counts once, under its shortest mount point.
        const key = `${m.device}|${size}`;
        const seen = byDevice.get(key);
        if (!seen || fs.mount.length < seen.mount.length) byDevice.set(key, fs);
      }
      return totalOf([...byDevice.values()]);
    },

    scan: (path, scanOptions) => walkDirectory(path, scanOptions),

    async productData(): Promise<ProductData> {
      const root = await productRoot();
      const folders = [];
      for (const id of FOLDER_IDS) {
        const path = join(root, id);
        await mkdir(path, { recursive: true });
        const walked = await walkDirectory(path, { concurrency: 4 });
        // What is in the folder: its children, not the folder's own entry.
        const bytes = walked.children.reduce((sum, c) => sum + c.bytes, 0);
        folders.push({ id, path, bytes, files: walked.files });
      }
      return { root, folders };
    },

    async deleteProductData(requested) {
      const root = await productRoot();
      const path = posix.resolve(requested);
      const folder = FOLDER_IDS.map((id) => join(root, id)).find(
        (f) => path === f || path.startsWith(`${f}/`),
      );
      if (!folder) {
        throw new StorageError('forbidden', `Only product data can be deleted (inside ${root}): ${path}`);
      }
      let target;
      try {
        target = await lstat(path);
      } catch (err) {
        if (errno(err) === 'ENOENT') throw new StorageError('not_found', `No such file or folder: ${path}`);
        throw err;
      }
      if (path === folder && !target.isDirectory()) {
        throw new StorageError('forbidden', `The product data folder is not a folder: ${path}`);
      }
      if (path !== folder) {
        // A symlinked folder on the way would lead outside: the real parent must be the one named.
        let parent: string;
        try {
          parent = await realpath(dirname(path));
        } catch {
          throw new StorageError('not_found', `No such file or folder: ${path}`);
        }
        if (parent !== dirname(path)) {
          throw new StorageError('forbidden', `The path goes through a symbolic link: ${path}`);
        }
      }
      const targets = path === folder ? (await readdir(folder)).map((name) => join(folder, name)) : [path];
      let freed = 0;
      let files = 0;
      for (const target of targets) {
        const s = await lstat(target);
        if (s.isDirectory()) {
          const walked = await walkDirectory(target, { concurrency: 4 });
          freed += walked.bytes;
          files += walked.files;
        } else {
          freed += s.blocks * 512;
          files += 1;
        }
        await rm(target, { recursive: true, force: true });
      }
      return { path, freed, files };
    },

    extraImages: () => [],
  };
}
