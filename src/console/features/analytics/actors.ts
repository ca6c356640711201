/**
 * The analytics feature's machines with their real calls (issue 11 Analytics; api.ts). The three screens own
 * their actors (one per visit: the list of collections, one collection's dashboards, one dashboard), so the
 * feature starts no long-lived actor: `analyticsActors` (loaded after sign-in) provides the machines with
 * the platform's http, and the screens create them from `collectionsLogic()`, `dashboardsLogic()` and
 * `dashboardLogic()`.
 */
import { fromPromise } from 'xstate';
import {
  dashboardMachine,
  type LoadDataInput,
  type SaveDashboardInput,
} from '../../../../machines/analytics/dashboard.machine';
import {
  namedListMachine,
  type NamedItem,
  type NamedListLoaded,
  type SaveItemInput,
} from '../../../../machines/analytics/namedList.machine';
import type { FeatureActor } from '../../../../machines/system.machine';
import type { Collection, Dashboard } from '../../../protocol/analytics';
import type { Platform } from '../feature';
import { analyticsApi, type AnalyticsApi } from './api';

let api: AnalyticsApi | null = null;
const need = (): AnalyticsApi => {
  if (!api) throw new Error('analytics: not started');
  return api;
};

const fromCollection = (c: Collection): NamedItem => ({
  id: c.id,
  name: c.name,
  count: c.dashboards,
  updatedAt: c.created_at,
});
const fromDashboard = (d: Dashboard): NamedItem => ({
  id: d.id,
  name: d.name,
  count: d.charts.length,
  updatedAt: d.updated_at,
});

/** The collections list (`/analytics/dashboard-collections-manager`). */
export function collectionsLogic() {
  const a = need();
  return namedListMachine.provide({
    actors: {
      loadList: fromPromise<NamedListLoaded, { parentId: string | null }>(async ({ signal }) => ({
        title: null,
        items: (await a.collections(signal)).map(fromCollection),
      })),
      saveItem: fromPromise<NamedItem, SaveItemInput>(async ({ input, signal }) => {
        if (!input.id) return fromCollection(await a.createCollection(input.name, signal));
        // PUT replaces the description too: keep the one it has.
        const current = (await a.collections(signal)).find((c) => c.id === input.id);
        return fromCollection(
          await a.renameCollection(input.id, input.name, current?.description ?? '', signal),
        );
      }),
      removeItem: fromPromise<unknown, { id: string }>(({ input, signal }) =>
        a.deleteCollection(input.id, signal),
      ),
    },
  });
}

/** One collection's dashboards (`/analytics/dashboard-collection/{id}`). */
export function dashboardsLogic() {
  const a = need();
  return namedListMachine.provide({
    actors: {
      loadList: fromPromise<NamedListLoaded, { parentId: string | null }>(async ({ input, signal }) => {
        const r = await a.dashboards(input.parentId!, signal);
        return { title: r.collection.name, items: r.dashboards.map(fromDashboard) };
      }),
      saveItem: fromPromise<NamedItem, SaveItemInput>(async ({ input, signal }) =>
        fromDashboard(
          input.id
            ? await a.updateDashboard(input.id, { name: input.name }, signal)
            : await a.createDashboard(input.parentId!, input.name, signal),
        ),
      ),
      removeItem: fromPromise<unknown, { id: string }>(({ input, signal }) =>
        a.deleteDashboard(input.id, signal),
      ),
    },
  });
}

/** One dashboard (`/analytics/dashboard/{id}`). */
export function dashboardLogic() {
  const a = need();
  return dashboardMachine.provide({
    actors: {
      loadDashboard: fromPromise<Dashboard, { id: string }>(({ input, signal }) =>
        a.dashboard(input.id, signal),
      ),
      loadData: fromPromise(({ input, signal }: { input: LoadDataInput; signal: AbortSignal }) =>
        a.data(input.id, input.window, input.filters, signal),
      ),
      saveDashboard: fromPromise<Dashboard, SaveDashboardInput>(({ input, signal }) =>
        a.updateDashboard(input.id, { charts: input.charts, layout: input.layout }, signal),
      ),
    },
  });
}

export function analyticsActors({ http }: Platform): FeatureActor[] {
  api = analyticsApi(http);
  return [];
}
