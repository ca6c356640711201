/**
 * Pure helpers of the log viewer (machines/logs/): the bounded line buffer with its sequence check, the search
 * filter, the rows shown, the downloaded file, and the check of what the device sends (progress data is not
 * validated by the link, and this module must not load zod).
 */

/** Lines a log keeps (the oldest are dropped beyond it). */
export const LOG_BUFFER_MAX = 10_000;
/** Rows a viewer renders at most (the newest of the lines that match the search). */
export const LOG_ROWS_MAX = 1_000;

/** One received line with its sequence number in its log process. */
export interface LogLine {
  seq: number;
  text: string;
}

/** A progress message of `log` (src/protocol/logs.ts LogBatch), checked. */
export interface LogBatchData {
  uuid: string;
  seq: number;
  lines: string[];
}

/** The batch in `data`, or null when it is not one (wrong shape). */
export function asLogBatch(data: unknown): LogBatchData | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (typeof d.uuid !== 'string' || !Number.isInteger(d.seq) || (d.seq as number) < 0) return null;
  if (!Array.isArray(d.lines) || !d.lines.every((l) => typeof l === 'string')) return null;
  return { uuid: d.uuid, seq: d.seq as number, lines: d.lines as string[] };
}

/** The buffer after a batch: appended, overlap dropped, at most LOG_BUFFER_MAX lines; `lost` counts gaps. */
export function appendBatch(
  lines: readonly LogLine[],
  nextSeq: number,
  batch: { seq: number; lines: readonly string[] },
  max = LOG_BUFFER_MAX,
): { lines: LogLine[]; nextSeq: number; lost: number } {
  const skip = Math.max(0, nextSeq - batch.seq);
  const fresh = batch.lines.slice(skip).map((text, i) => ({ seq: batch.seq + skip + i, text }));
  const lost = Math.max(0, batch.seq - nextSeq);
  const all = fresh.length === 0 ? lines.slice() : lines.concat(fresh);
  return {
    lines: all.length > max ? all.slice(all.length - max) : all,
    nextSeq: Math.max(nextSeq, batch.seq + batch.lines.length),
    lost,
  };
}

/** Lines containing `search` (case-insensitive; all when it is blank). */
export function filterLines(lines: readonly LogLine[], search: string): LogLine[] {
  const q = search.trim().toLowerCase();
  return q ? lines.filter((l) => l.text.toLowerCase().includes(q)) : lines.slice();
}

/** The rows shown: matching lines up to `until` (paused: the seq where it paused), the newest LOG_ROWS_MAX. */
export function visibleRows(lines: readonly LogLine[], search: string, until: number | null): LogLine[] {
  const upTo = until === null ? lines : lines.filter((l) => l.seq < until);
  const matching = filterLines(upTo, search);
  return matching.length > LOG_ROWS_MAX ? matching.slice(matching.length - LOG_ROWS_MAX) : matching;
}

/** The .log file of a buffer: its lines, one per line, ending with a newline. */
export function logFileText(lines: readonly LogLine[]): string {
  return lines.length === 0 ? '' : lines.map((l) => l.text).join('\n') + '\n';
}

/** A safe file name for a log: `<device>-<topic>-<subtopic>.log` with anything odd replaced by '_'. */
export function logFileName(device: string, topic: string, subtopic: string): string {
  return `${[device, topic, subtopic].join('-').replace(/[^A-Za-z0-9._-]+/g, '_')}.log`;
}
