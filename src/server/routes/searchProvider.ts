/**
 * What a feature gives the quick search (src/server/routes/search.ts SEARCH_PROVIDERS; spec §5): a function
 * that finds the caller's things whose name matches `pattern` (an escaped ILIKE pattern, e.g. '%dock%'), at
 * most `limit` of them, as SearchHits (src/protocol/search.ts). Scoped to `ownerId`; never throws for no match.
 */
import type { SearchHit } from '../../protocol/search';
import type { Db } from '../db';

export type SearchProvider = (
  db: Db,
  ownerId: string,
  pattern: string,
  limit: number,
) => Promise<SearchHit[]>;
