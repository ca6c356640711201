/**
 * Handlers of the records feature's device commands (src/protocol/records.ts; issue 16 §2 records; §2
 * /control-panel/records; §9 "Recorded video codec vp8"). The work is the records part's
 * (src/agent/records/); refusals are its CommandErrors with RECORD_ERROR_CODES.
 */
import type { Handlers } from './registry';

type RecordsProcess =
  | 'records-list'
  | 'records-save-begin'
  | 'records-save-chunk'
  | 'records-save-finish'
  | 'records-save-abort'
  | 'records-read'
  | 'records-remove';

export const recordHandlers = {
  'records-list': async ({ page, page_size }, ctx) => ctx.records.list(page, page_size),
  'records-save-begin': async ({ name, size, sha256, camera }, ctx) =>
    ctx.records.begin(name, size, sha256, camera),
  'records-save-chunk': async ({ upload_id, offset, data }, ctx) =>
    ctx.records.chunk(upload_id, offset, data),
  'records-save-finish': async ({ upload_id }, ctx) => ctx.records.finish(upload_id),
  'records-save-abort': async ({ upload_id }, ctx) => ctx.records.abort(upload_id),
  'records-read': async ({ name, offset, length }, ctx) => ctx.records.read(name, offset, length),
  'records-remove': async ({ name }, ctx) => ctx.records.remove(name),
} satisfies Pick<Handlers, RecordsProcess>;
