/**
 * The metrics history on disk (stateDir): `metrics-history.bin` and `metrics-settings.json`, each written to a
 * temporary file and renamed (a crash leaves the old file or the new one, never half of one).
 *
 * History file layout (little-endian): "EMH1", u32 header length H, H bytes of JSON header
 * `{ version: 1, series: MetricsSeries[], count }`, zero padding to a multiple of 8, then `count` Float64 times
 * (ms since the epoch, oldest first), then per series `count` Float32 values (NaN: none). 24 h of 1 s samples
 * with 5 series is ≈ 2.4 MB.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MetricsSeries, SaveMetricsSettings } from '../../protocol/metrics';
import { MetricsRing } from './ring';

const MAGIC = 'EMH1';
export const HISTORY_FILE = 'metrics-history.bin';
export const SETTINGS_FILE = 'metrics-settings.json';

/** The ring's samples in the file format above. */
export function encodeHistory(ring: MetricsRing): Buffer {
  const { times, columns } = ring.toArrays();
  const header = Buffer.from(JSON.stringify({ version: 1, series: ring.series, count: times.length }));
  const start = Math.ceil((8 + header.length) / 8) * 8;
  const out = Buffer.alloc(start + times.byteLength + columns.length * times.length * 4);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(header.length, 4);
  header.copy(out, 8);
  Buffer.from(times.buffer, times.byteOffset, times.byteLength).copy(out, start);
  let at = start + times.byteLength;
  for (const c of columns) {
    Buffer.from(c.buffer, c.byteOffset, c.byteLength).copy(out, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Reads a history file's content into a ring of `capacity` (the newest samples kept). Throws an Error saying
 * what is wrong when the content is not such a file (bad magic, header, sizes).
 */
export function decodeHistory(data: Buffer, capacity: number): MetricsRing {
  if (data.length < 8 || data.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a metrics history');
  const length = data.readUInt32LE(4);
  if (8 + length > data.length) throw new Error('metrics history header cut short');
  const raw = JSON.parse(data.toString('utf8', 8, 8 + length)) as {
    version?: unknown;
    series?: unknown;
    count?: unknown;
  };
  const series = MetricsSeries.array().max(11).safeParse(raw.series);
  const count = raw.count;
  if (
    raw.version !== 1 ||
    !series.success ||
    typeof count !== 'number' ||
    !Number.isInteger(count) ||
    count < 0
  ) {
    throw new Error('metrics history header is not valid');
  }
  const start = Math.ceil((8 + length) / 8) * 8;
  const n = series.data.length;
  if (data.length !== start + count * 8 + n * count * 4)
    throw new Error('metrics history size does not match');
  const copy = new Uint8Array(data.length - start);
  copy.set(data.subarray(start));
  const times = new Float64Array(copy.buffer, 0, count);
  const columns = series.data.map((_, c) => new Float32Array(copy.buffer, count * 8 + c * count * 4, count));
  const ring = new MetricsRing(series.data, capacity);
  const row = new Float32Array(n);
  for (let i = Math.max(0, count - ring.capacity); i < count; i++) {
    for (let c = 0; c < n; c++) row[c] = columns[c]![i]!;
    ring.push(times[i]!, row);
  }
  return ring;
}

/** Writes `data` to `dir/name` atomically (temporary file, then rename). */
export async function writeAtomic(dir: string, name: string, data: Buffer | string): Promise<void> {
  const tmp = join(dir, `.${name}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, data, { mode: 0o600 });
    await rename(tmp, join(dir, name));
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** The file's content, or null when it does not exist. */
export async function readIfExists(dir: string, name: string): Promise<Buffer | null> {
  try {
    return await readFile(join(dir, name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Saved settings, or null when none are saved or the file is not valid. */
export function decodeSettings(data: Buffer): SaveMetricsSettings | null {
  try {
    const parsed = SaveMetricsSettings.safeParse(JSON.parse(data.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
