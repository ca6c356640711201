/**
 * The agent's logger: one line per entry on stderr (stdout is reserved for machine-readable events such as
 * `{"event":"ready","device_id":…}`), and on a `host` device also in its own log file
 * `<stateDir>/logs/agent.log` — the Logs tab's `agent` topic (src/agent/logs/host.ts). Tests pass `silentLogger`.
 */
import { createWriteStream, fstatSync, mkdirSync, openSync, renameSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

export interface Logger {
  info(message: string, detail?: Record<string, unknown>): void;
  warn(message: string, detail?: Record<string, unknown>): void;
  error(message: string, detail?: Record<string, unknown>): void;
  /** Closes the log file, if any (lines after it go to stderr only); idempotent. */
  close?(): Promise<void>;
}

export interface LoggerOptions {
  /** Also append every line to this file (created with its folder, mode 0600). */
  file?: string;
  /** The file is renamed to `<file>.1` (replacing the previous one) once it reaches this size; default 5 MB. */
  maxBytes?: number;
}

/** Default size of the agent's log file before it rotates, bytes. */
export const LOG_FILE_MAX_BYTES = 5 * 1024 * 1024;

/** A logger writing `time level [prefix] message {detail}` lines to stderr (and to `options.file`). */
export function createLogger(prefix: string, options: LoggerOptions = {}): Logger {
  const file = options.file ? logFile(options.file, options.maxBytes ?? LOG_FILE_MAX_BYTES) : null;
  const write = (level: string, message: string, detail?: Record<string, unknown>) => {
    const extra = detail && Object.keys(detail).length > 0 ? ` ${safeJson(detail)}` : '';
    const line = `${new Date().toISOString()} ${level} [${prefix}] ${message}${extra}\n`;
    process.stderr.write(line);
    file?.write(line);
  };
  return {
    info: (m, d) => write('INFO', m, d),
    warn: (m, d) => write('WARN', m, d),
    error: (m, d) => write('ERROR', m, d),
    close: async () => file?.close(),
  };
}

/**
 * An append-only log file that rotates once at `maxBytes`. A file that cannot be written is given up quietly
 * (the lines still reach stderr): logging never stops the agent.
 */
function logFile(path: string, maxBytes: number) {
  let size = 0;
  let stream: WriteStream | null = null;
  let failed = false;
  const open = () => {
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      // Opened at once (not by the stream, later): a rotation right after still finds the file to rename.
      const fd = openSync(path, 'a', 0o600);
      size = fstatSync(fd).size;
      stream = createWriteStream(path, { fd });
      stream.on('error', () => {
        failed = true;
        stream = null;
      });
    } catch {
      failed = true;
    }
  };
  return {
    write(line: string) {
      if (failed) return;
      if (!stream) open();
      if (!stream) return;
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > maxBytes) {
        const old = stream as WriteStream;
        stream = null;
        old.end();
        try {
          renameSync(path, `${path}.1`);
        } catch {
          // Another writer rotated it, or it is gone: carry on with a new file.
        }
        open();
        if (!stream) return;
      }
      size += bytes;
      (stream as WriteStream).write(line);
    },
    close(): Promise<void> {
      const s = stream;
      stream = null;
      failed = true;
      return new Promise((resolve) => (s ? s.end(() => resolve()) : resolve()));
    },
  };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** Message of an unknown thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : safeJson(err);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (v instanceof Error ? v.message : v));
  } catch {
    return String(value);
  }
}
