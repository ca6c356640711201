/**
 * Keyset cursors of the admin lists (src/protocol/admin.ts "Lists are keyset-paged"): a cursor names a row's
 * position in the list's order — its sort key (as text) and its id — and a side: 'after' (the page after it)
 * or 'before' (the page before it). Encoded as base64url JSON; a cursor that does not decode is a 400.
 * `cursor=last` asks for the last page.
 */
import { z } from 'zod';
import { badRequest } from '../errors';

export type CursorSide = 'after' | 'before';
export interface KeysetCursor {
  side: CursorSide;
  /** The sort key of the row, as text (a timestamp as ISO text). */
  key: string;
  id: string;
}
/** A decoded `cursor` query value: none (first page), the last page, or a position. */
export type PageRequest = { kind: 'first' } | { kind: 'last' } | ({ kind: 'at' } & KeysetCursor);

const Encoded = z.object({
  s: z.enum(['after', 'before']),
  k: z.string().max(400),
  i: z.uuid(),
});

export function encodeCursor(cursor: KeysetCursor): string {
  return Buffer.from(JSON.stringify({ s: cursor.side, k: cursor.key, i: cursor.id })).toString('base64url');
}

/** @throws 400 Validation_error when the cursor is not one this server wrote. */
export function decodeCursor(value: string | undefined): PageRequest {
  if (value === undefined || value === '') return { kind: 'first' };
  if (value === 'last') return { kind: 'last' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('cursor: not a cursor of this list.');
  }
  const found = Encoded.safeParse(parsed);
  if (!found.success) throw badRequest('cursor: not a cursor of this list.');
  return { kind: 'at', side: found.data.s, key: found.data.k, id: found.data.i };
}

/**
 * Cuts a page from rows read for a request: `rows` were read in the list's order (for 'first' and 'after') or
 * in reverse (for 'last' and 'before'), perPage + 1 of them at most (the extra one says another page exists).
 * Returns the page in list order and the cursors of the pages around it.
 */
export function cutPage<T>(
  request: PageRequest,
  rows: T[],
  perPage: number,
  positionOf: (row: T) => { key: string; id: string },
): { rows: T[]; next: string | null; prev: string | null } {
  const more = rows.length > perPage;
  const reversed = request.kind === 'last' || (request.kind === 'at' && request.side === 'before');
  const page = rows.slice(0, perPage);
  if (reversed) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  // Reading forwards, a page exists before it when we started from a cursor; reading backwards, when more rows.
  const hasPrev = reversed ? more : request.kind === 'at';
  const hasNext = reversed ? request.kind === 'at' : more;
  return {
    rows: page,
    next: hasNext && last ? encodeCursor({ side: 'after', ...positionOf(last) }) : null,
    prev: hasPrev && first ? encodeCursor({ side: 'before', ...positionOf(first) }) : null,
  };
}
