/** What the quick search box reads of its actor (systemId 'quickSearch'): `quickSearchToView`, pure. */
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { quickSearchMachine } from '../../../../machines/search/quickSearch.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { SearchHit } from '../../../protocol/search';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type QuickSearchRef = ActorRefFrom<typeof quickSearchMachine>;

export interface QuickSearchView {
  text: string;
  busy: boolean;
  /** The dropdown has something to show: hits, "nothing found" or the §8 failure. */
  open: boolean;
  hits: SearchHit[];
  /** Searched and nothing matched. */
  empty: boolean;
  error: string | null;
}

export function quickSearchToView(s: SnapshotFrom<typeof quickSearchMachine>): QuickSearchView {
  const open = s.hasTag('open');
  return {
    text: s.context.text,
    busy: s.hasTag('busy'),
    open,
    hits: s.context.hits,
    empty: s.matches('results') && s.context.hits.length === 0,
    error: s.matches('failed') ? s.context.error : null,
  };
}

export function useQuickSearchRef(): QuickSearchRef {
  return actorOf<QuickSearchRef>(useSystem(), SYSTEM_IDS.quickSearch);
}

export function useQuickSearchView(): QuickSearchView {
  return useSelector(useQuickSearchRef(), quickSearchToView, shallowEqual);
}
