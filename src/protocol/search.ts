/**
 * Quick search (spec §5 "Quick search: minimum 2 characters, 200 ms debounce"; §8 Search "Connection error.
 * Please try again later."; issue "Operate a device" §2): one box in the shell finds the caller's devices and
 * cameras. The path is ours (the spec does not name it). Each hit says what it is and where it opens.
 */
import { z } from 'zod';
import { defineRoutes } from './route';

/** §5: fewer characters are not searched. */
export const QUICK_SEARCH_MIN_CHARS = 2;
/** §5: the box waits this long after the last key, ms. */
export const QUICK_SEARCH_DEBOUNCE_MS = 200;
/** Hits per kind at most. */
export const QUICK_SEARCH_LIMIT = 8;
/** §8 Search failure. */
export const QUICK_SEARCH_FAILED_TEXT = 'Connection error. Please try again later.';

/** GET search?q — q is trimmed; 2–100 characters. */
export const QuickSearchQuery = z.object({
  q: z.string().trim().min(QUICK_SEARCH_MIN_CHARS).max(100),
});

/**
 * One hit: a device (label or device_id matched), a camera of a device, an IP camera, or a device/camera group
 * (detail = 'device' | 'camera', link = the list filtered by it).
 */
export const SearchHit = z.object({
  kind: z.enum(['device', 'camera', 'ipCamera', 'group']),
  /** The thing's own id (device_id, camera row id, IP camera id). */
  id: z.string(),
  label: z.string(),
  /** A second line: the device_id, the camera's device, or the device an IP camera streams through. */
  detail: z.string().nullable(),
  /** The console path that opens it. */
  link: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;
export const QuickSearchResponse = z.object({ hits: z.array(SearchHit) });
export type QuickSearchResponse = z.infer<typeof QuickSearchResponse>;

export const searchRoutes = defineRoutes({
  'search.quick': {
    method: 'GET',
    path: '/api/search',
    auth: 'user',
    summary: 'The caller’s devices and cameras whose name (or device id) contains q, at most 8 of each kind',
    query: QuickSearchQuery,
    answer: QuickSearchResponse,
  },
});
