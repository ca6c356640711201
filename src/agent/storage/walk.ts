/**
 * The real asynchronous directory walk behind get-occupied-storage-of-directory (§7 "Storage") on a `host`
 * device: like `du -x`, it adds up the space files occupy on disk (allocated blocks × 512 bytes; a file with
 * several hard links counts once), stays on the filesystem of the scanned folder (so '/' does not walk /proc),
 * never follows symlinks (a link counts as itself), counts unreadable or vanished entries in `errors` and goes
 * on, reads at most `concurrency` folders at once, reports progress at most every `progressEveryMs` and stops
 * with StorageError 'canceled' when `signal` aborts.
 */
import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolderSize } from '../../protocol/storage';
import { canceledError, StorageError, throwIfCanceled } from './errors';

/** What the walk has seen so far (ScanProgress without the scan id). */
export interface WalkCounts {
  files: number;
  dirs: number;
  bytes: number;
  errors: number;
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** Folders read at once (default 8). */
  concurrency?: number;
  /** Called with the counts so far, at most every progressEveryMs (default 250 ms). */
  onProgress?: (counts: WalkCounts) => void;
  progressEveryMs?: number;
}

export interface WalkResult extends WalkCounts {
  /** Every child folder of the root with its total bytes ('.' holds the files directly in the root). */
  children: FolderSize[];
}

/** Bytes a file occupies on disk (blocks are 512-byte units); its apparent size when blocks are unknown. */
const occupied = (s: Stats): number => (typeof s.blocks === 'number' ? s.blocks * 512 : s.size);

const code = (err: unknown): string =>
  typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';

/**
 * Walks `root` and answers its totals and per-child sizes. Rejects with StorageError 'not_found' (no such
 * path), 'not_directory' (root is not a folder, after following a symlink at the root itself), 'canceled'.
 */
export async function walkDirectory(root: string, options: WalkOptions = {}): Promise<WalkResult> {
  const { signal, concurrency = 8, onProgress, progressEveryMs = 250 } = options;
  let rootStat: Stats;
  try {
    rootStat = await stat(root);
  } catch (err) {
    if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') {
      throw new StorageError('not_found', `No such folder: ${root}`);
    }
    if (code(err) === 'EACCES' || code(err) === 'EPERM') {
      throw new StorageError('not_found', `The folder cannot be read: ${root}`);
    }
    throw err;
  }
  if (!rootStat.isDirectory()) throw new StorageError('not_directory', `Not a folder: ${root}`);
  const rootDev = rootStat.dev;

  const counts: WalkCounts = { files: 0, dirs: 1, bytes: occupied(rootStat), errors: 0 };
  const children = new Map<string, number>();
  const seenInodes = new Set<string>();
  let lastReport = Date.now();
  const add = (child: string, bytes: number) => {
    counts.bytes += bytes;
    children.set(child, (children.get(child) ?? 0) + bytes);
  };
  const report = () => {
    const now = Date.now();
    if (onProgress && now - lastReport >= progressEveryMs) {
      lastReport = now;
      onProgress({ ...counts });
    }
  };

  /** Folders waiting to be read, each with the root's child it belongs to. */
  const queue: { path: string; child: string | null }[] = [{ path: root, child: null }];

  const readOne = async (dir: { path: string; child: string | null }) => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir.path, { withFileTypes: true });
    } catch {
      counts.errors++;
      return;
    }
    for (let i = 0; i < entries.length; i += 64) {
      throwIfCanceled(signal);
      await Promise.all(
        entries.slice(i, i + 64).map(async (entry) => {
          const path = join(dir.path, entry.name);
          const child = dir.child ?? (entry.isDirectory() ? entry.name : '.');
          let s: Stats;
          try {
            s = await lstat(path);
          } catch {
            counts.errors++;
            return;
          }
          if (s.isDirectory()) {
            if (s.dev !== rootDev) return; // another filesystem mounted here (du -x)
            counts.dirs++;
            add(child, occupied(s));
            queue.push({ path, child });
            return;
          }
          counts.files++;
          if (s.nlink > 1) {
            const key = `${s.dev}:${s.ino}`;
            if (seenInodes.has(key)) return;
            seenInodes.add(key);
          }
          add(child, occupied(s));
        }),
      );
      report();
    }
  };

  // Workers take folders from the queue until it is empty and none is being read (which could add more).
  let active = 0;
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    const pump = () => {
      if (failed) return;
      if (signal?.aborted) {
        failed = true;
        reject(canceledError(signal));
        return;
      }
      while (active < concurrency && queue.length > 0) {
        const dir = queue.pop()!;
        active++;
        readOne(dir).then(
          () => {
            active--;
            pump();
          },
          (err: unknown) => {
            active--;
            failed = true;
            reject(err instanceof Error ? err : new Error(String(err)));
          },
        );
      }
      if (active === 0 && queue.length === 0) resolve();
    };
    pump();
  });
  onProgress?.({ ...counts });
  return {
    ...counts,
    children: [...children].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes),
  };
}

/** The `top` largest of `children`, names cut to `maxChars`. */
export function largestFolders(children: readonly FolderSize[], top: number, maxChars: number): FolderSize[] {
  return [...children]
    .sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name))
    .slice(0, top)
    .map((c) => ({ name: c.name.slice(0, maxChars), bytes: c.bytes }));
}
