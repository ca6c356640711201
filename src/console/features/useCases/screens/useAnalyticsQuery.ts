/**
 * The period query of a screen, read from and written to the URL (?use_case=&from=&to=&bucket=; views.ts),
 * so the chosen period survives a reload and a link shows the same numbers.
 */
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { analyticsQueryOf, analyticsSearchOf, type AnalyticsQuery } from '../views';

export function useAnalyticsQuery(): [AnalyticsQuery, (q: AnalyticsQuery) => void] {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  // "now" is read when the URL has no period yet; then it is written, so it stays put
  const query = useMemo(() => analyticsQueryOf(search, Date.now()), [search]);
  const set = (q: AnalyticsQuery) => setParams(new URLSearchParams(analyticsSearchOf(q)), { replace: true });
  return [query, set];
}
