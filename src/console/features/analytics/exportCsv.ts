/**
 * A chart's rows as CSV (issue 11 "Export CSV and PNG"): RFC 4180 (comma, CRLF, fields with a comma, quote or
 * line break quoted, quotes doubled), a header naming the key column (`bucket_start` for a time chart, else
 * the dimension) and `count`. A text field that a spreadsheet would take as a formula (= + - @, tab, CR) gets
 * a leading apostrophe (OWASP "CSV injection"): class names and camera ids come from devices.
 */
import type { Chart, ChartData } from '../../../protocol/analytics';

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field. */
export function csvField(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The CSV text of one chart's rows (keys as the server gives them: bucket starts in ISO 8601 UTC). */
export function chartCsv(chart: Pick<Chart, 'group_by'>, rows: ChartData['rows']): string {
  const header = [chart.group_by === 'time' ? 'bucket_start' : chart.group_by, 'count'];
  return [header, ...rows.map((r) => [r.key, r.value])]
    .map((cells) => cells.map(csvField).join(','))
    .join('\r\n')
    .concat('\r\n');
}

/** A file name for a chart's export: the chart's (or dashboard's) name in safe characters. */
export function exportFileName(name: string, ext: 'csv' | 'png'): string {
  const base = name
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base || 'chart'}.${ext}`;
}
