/**
 * The agent's logger: one line per entry on stderr (stdout is reserved for machine-readable events such as
 * `{"event":"ready","device_id":…}`). Tests pass `silentLogger`.
 */
export interface Logger {
  info(message: string, detail?: Record<string, unknown>): void;
  warn(message: string, detail?: Record<string, unknown>): void;
  error(message: string, detail?: Record<string, unknown>): void;
}

/** A logger writing `time level [prefix] message {detail}` lines to stderr. */
export function createLogger(prefix: string): Logger {
  const write = (level: string, message: string, detail?: Record<string, unknown>) => {
    const extra = detail && Object.keys(detail).length > 0 ? ` ${safeJson(detail)}` : '';
    process.stderr.write(`${new Date().toISOString()} ${level} [${prefix}] ${message}${extra}\n`);
  };
  return {
    info: (m, d) => write('INFO', m, d),
    warn: (m, d) => write('WARN', m, d),
    error: (m, d) => write('ERROR', m, d),
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
