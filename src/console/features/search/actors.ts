/** Quick search's side effect (machines/search/quickSearch.machine.ts): GET search?q. */
import { fromPromise } from 'xstate';
import { quickSearchMachine } from '../../../../machines/search/quickSearch.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';

export function searchActors({ http }: Platform): FeatureActor[] {
  return [
    featureActor({
      systemId: SYSTEM_IDS.quickSearch,
      logic: quickSearchMachine.provide({
        actors: {
          search: fromPromise(
            async ({ input, signal }) =>
              (await http.call('search.quick', { query: { q: input.q }, signal })).hits,
          ),
        },
      }),
      onSignOut: [{ type: 'quickSearch.clear' }],
    }),
  ];
}
