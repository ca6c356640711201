/**
 * /analytics/dashboard-collections-manager (§2 Analytics; issue 11 "Collections of dashboards"): the user's
 * collections with how many dashboards each holds; create, rename, delete (its dashboards go with it).
 * Test ids: collections-screen, collections-add, collections-row-<name>, collections-name, collections-save.
 */
import { useActorRef } from '@xstate/react';
import { useState } from 'react';
import { collectionsLogic } from '../actors';
import { NamedListPage } from './NamedListPage';

export default function CollectionsScreen() {
  const [logic] = useState(collectionsLogic);
  const actor = useActorRef(logic, { input: { parentId: null } });
  return (
    <NamedListPage
      actor={actor}
      texts="collections"
      testId="collections"
      hrefOf={(id) => `/analytics/dashboard-collection/${id}`}
    />
  );
}
