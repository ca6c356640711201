/**
 * Real log files of this machine (the `host` catalogue): each topic is a root directory, its subtopics the
 * readable text files below it (two levels deep, no symbolic links, no compressed or binary files), named by
 * their path below the root. Only a listed file can be opened, so nothing outside a root is ever read.
 * Following watches the file (fs.watch plus a stat poll, since inotify misses changes on some file systems)
 * and reads what is appended from an open handle; a shrink (truncation), a new inode (rotation) or a missing
 * path (deletion) ends it with §8 "Log file modified or deleted", after the lines still readable.
 */
import { constants as fsConstants, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { access, lstat, open, readdir, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { LogTopic } from '../../protocol/logs';
import { LOG_LINE_MAX_CHARS } from '../../protocol/logs';
import type { LogCatalogue, LogSource, LogSourceError } from './source';
import { logChanged, noLogFile } from './source';

/** A topic of the host catalogue: a directory whose log files are its subtopics. */
export interface LogRoot {
  topic: string;
  dir: string;
}

/** Files never listed: compressed, rotated-and-numbered, and the binary login records. */
const SKIPPED = /\.(gz|xz|bz2|zst|zip|lz4|old)$|\.\d+$|^(wtmp|btmp|lastlog|faillog|utmp)$/;
/** Subtopics listed per topic at most. */
export const MAX_SUBTOPICS = 200;
/** How often a followed file is checked besides fs.watch events (ms). */
export const POLL_MS = 250;
/** `tail` reads at most this many bytes back from the end. */
const TAIL_MAX_BYTES = 8 * 1024 * 1024;
/** A follow reads at most this many bytes per read. */
const READ_CHUNK = 256 * 1024;

/** True when the file starts with text (no NUL in its first 512 bytes). */
async function looksLikeText(path: string): Promise<boolean> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(path, 'r');
    const buf = Buffer.alloc(512);
    const { bytesRead } = await fh.read(buf, 0, 512, 0);
    return !buf.subarray(0, bytesRead).includes(0);
  } catch {
    return false;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** Readable text files below `dir` (paths relative to it, '/'-separated), at most two levels deep. */
async function listFiles(dir: string, prefix = '', depth = 0): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(join(dir, prefix));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names.sort()) {
    if (out.length >= MAX_SUBTOPICS) break;
    if (SKIPPED.test(name) || name.startsWith('.') || name === 'journal') continue;
    const rel = prefix ? `${prefix}/${name}` : name;
    const full = join(dir, rel);
    const info = await lstat(full).catch(() => undefined);
    if (!info) continue;
    if (info.isDirectory() && depth < 1) {
      out.push(...(await listFiles(dir, rel, depth + 1)));
    } else if (info.isFile()) {
      const readable = await access(full, fsConstants.R_OK).then(
        () => true,
        () => false,
      );
      if (readable && (await looksLikeText(full))) out.push(rel);
    }
  }
  return out.slice(0, MAX_SUBTOPICS);
}

/** Splits text into lines (no '\r'), each cut at LOG_LINE_MAX_CHARS. */
const cut = (line: string): string => {
  const l = line.endsWith('\r') ? line.slice(0, -1) : line;
  return l.length > LOG_LINE_MAX_CHARS ? l.slice(0, LOG_LINE_MAX_CHARS) : l;
};

/** The catalogue of real files under `roots` (default topics: `system` = /var/log, `agent` = <stateDir>/logs). */
export function createHostCatalogue(roots: readonly LogRoot[]): LogCatalogue {
  const topics = async (): Promise<LogTopic[]> =>
    Promise.all(roots.map(async (r) => ({ topic: r.topic, subtopics: await listFiles(r.dir) })));
  return {
    topics,
    async open(topic, subtopic) {
      const root = roots.find((r) => r.topic === topic);
      if (!root || !(await listFiles(root.dir)).includes(subtopic)) throw noLogFile(topic, subtopic);
      try {
        return await openFile(join(root.dir, subtopic));
      } catch {
        throw noLogFile(topic, subtopic);
      }
    },
  };
}

/** Opens one file as a LogSource: `tail` reads up to its size now, `follow` from there on. */
export async function openFile(path: string): Promise<LogSource> {
  const fh = await open(path, 'r');
  let closed = false;
  let info;
  try {
    info = await fh.stat();
  } catch (err) {
    await fh.close().catch(() => undefined);
    throw err;
  }
  const ino = info.ino;
  const openedSize = info.size;
  /** Where following starts: the end of the last whole line at open (a partial last line is followed). */
  let followFrom = openedSize;
  let tailLines: string[] | undefined;

  /** Reads backwards from openedSize until `count` whole lines are known (or TAIL_MAX_BYTES). */
  const readTail = async (count: number): Promise<string[]> => {
    let start = openedSize;
    let buf = Buffer.alloc(0);
    const newlines = () => buf.reduce((n, b) => (b === 10 ? n + 1 : n), 0);
    while (start > 0 && openedSize - start < TAIL_MAX_BYTES && newlines() <= count) {
      const len = Math.min(64 * 1024, start);
      start -= len;
      const chunk = Buffer.alloc(len);
      const { bytesRead } = await fh.read(chunk, 0, len, start);
      buf = Buffer.concat([chunk.subarray(0, bytesRead), buf]);
    }
    const lastNl = buf.lastIndexOf(10);
    // The bytes after the last newline are a line still being written: following sends it once it ends.
    followFrom = lastNl < 0 ? start : start + lastNl + 1;
    if (lastNl < 0) return [];
    const parts = buf.subarray(0, lastNl).toString('utf8').split('\n');
    // The first piece is partial unless the read reached the start of the file.
    if (start > 0) parts.shift();
    return count === 0 ? [] : parts.slice(-count).map(cut);
  };

  return {
    async tail(count) {
      tailLines = await readTail(count);
      return tailLines;
    },
    follow(onLines, onError) {
      let pos = followFrom;
      let stopped = false;
      let busy = false;
      let again = false;
      let watcher: FSWatcher | undefined;
      const decoder = new StringDecoder('utf8');
      let carry = '';

      const emit = (text: string) => {
        const parts = (carry + text).split('\n');
        carry = parts.pop() ?? '';
        if (carry.length > LOG_LINE_MAX_CHARS * 4) {
          parts.push(carry);
          carry = '';
        }
        if (parts.length > 0) onLines(parts.map(cut));
      };
      /** Reads from pos to `size` through the open handle. */
      const drain = async (size: number) => {
        while (!stopped && pos < size) {
          const len = Math.min(READ_CHUNK, size - pos);
          const chunk = Buffer.alloc(len);
          const { bytesRead } = await fh.read(chunk, 0, len, pos);
          if (bytesRead === 0) break;
          pos += bytesRead;
          emit(decoder.write(chunk.subarray(0, bytesRead)));
        }
      };
      const fail = async (detail: string) => {
        if (stopped) return;
        // What was written to the old file before it went away is still sent.
        const rest = await fh.stat().catch(() => undefined);
        if (rest && rest.size > pos) await drain(rest.size).catch(() => undefined);
        if (stopped) return;
        stop();
        onError(logChanged(detail));
      };
      const check = async () => {
        if (stopped) return;
        if (busy) {
          again = true;
          return;
        }
        busy = true;
        try {
          do {
            again = false;
            const now = await stat(path).catch(() => undefined);
            if (stopped) return;
            if (!now) return void (await fail(`${path} was deleted`));
            if (now.ino !== ino) return void (await fail(`${path} was replaced (rotated)`));
            if (now.size < pos) return void (await fail(`${path} was truncated`));
            if (now.size > pos) await drain(now.size);
          } while (again && !stopped);
        } catch (err) {
          await fail(`${path} could not be read (${(err as Error).message})`);
        } finally {
          busy = false;
        }
      };
      const timer = setInterval(() => void check(), POLL_MS);
      timer.unref?.();
      try {
        watcher = watch(path, { persistent: false }, () => void check());
        watcher.on('error', () => undefined);
      } catch {
        // No inotify (limits, file system): the poll alone follows the file.
      }
      const stop = () => {
        stopped = true;
        clearInterval(timer);
        watcher?.close();
      };
      void check();
      return stop;
    },
    async close() {
      if (closed) return;
      closed = true;
      await fh.close().catch(() => undefined);
    },
  };
}

export type { LogSourceError };
