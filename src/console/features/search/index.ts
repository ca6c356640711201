/**
 * Quick search (spec §5, §8; src/protocol/search.ts): the box in the shell's header, over the quickSearch actor
 * (machines/search/), loaded after sign-in in its own chunk.
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const search: ConsoleFeature = {
  name: 'search',
  loadActors: () => import('./actors').then((m) => m.searchActors),
  headerSlots: [lazyScreen(() => import('./screens/QuickSearch'))],
};
