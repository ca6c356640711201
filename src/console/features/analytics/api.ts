/**
 * The analytics feature's REST calls (issue 11 Analytics; src/protocol/analytics.ts, handlers in
 * src/server/routes/analytics.ts): collections, a collection's dashboards, a dashboard with its charts and
 * layout, and its data (every chart's rows over a window with the dashboard's filters). Errors are the
 * server's `{ code, message }` thrown by platform/http as Errors with the message.
 */
import type { Collection, Dashboard, DashboardData, Filters } from '../../../protocol/analytics';
import type { Http } from '../../platform/http';
import type { DataWindow } from '../../../../machines/analytics/dashboardModel';
import type { Chart, LayoutItem } from '../../../protocol/analytics';

export function analyticsApi(http: Http) {
  return {
    /** GET analytics/collections → the caller's collections by name, with dashboard counts. */
    collections: (signal?: AbortSignal): Promise<Collection[]> =>
      http.call('analytics.collections', { signal }).then((r) => r.collections),
    /** POST analytics/collections { name } → the collection; 409 Collection_exists. */
    createCollection: (name: string, signal?: AbortSignal): Promise<Collection> =>
      http.call('analytics.createCollection', { body: { name, description: '' }, signal }),
    /** PUT analytics/collections/:id { name, description } (description kept) → the collection; 404, 409. */
    renameCollection: (id: string, name: string, description: string, signal?: AbortSignal) =>
      http.call('analytics.updateCollection', { params: { id }, body: { name, description }, signal }),
    /** DELETE analytics/collections/:id (its dashboards too); 404. */
    deleteCollection: (id: string, signal?: AbortSignal) =>
      http.call('analytics.deleteCollection', { params: { id }, signal }),
    /** GET analytics/collections/:id/dashboards → { collection, dashboards }; 404. */
    dashboards: (collectionId: string, signal?: AbortSignal) =>
      http.call('analytics.dashboards', { params: { id: collectionId }, signal }),
    /** POST analytics/dashboards { name, collection_id } (no charts yet) → the dashboard; 404 collection. */
    createDashboard: (collectionId: string, name: string, signal?: AbortSignal): Promise<Dashboard> =>
      http.call('analytics.createDashboard', {
        body: { name, collection_id: collectionId, charts: [], layout: [] },
        signal,
      }),
    /** GET analytics/dashboards/:id; 404. */
    dashboard: (id: string, signal?: AbortSignal): Promise<Dashboard> =>
      http.call('analytics.dashboard', { params: { id }, signal }),
    /** PUT analytics/dashboards/:id with any of name, charts, layout; 404. */
    updateDashboard: (
      id: string,
      patch: { name?: string; charts?: Chart[]; layout?: LayoutItem[] },
      signal?: AbortSignal,
    ): Promise<Dashboard> => http.call('analytics.updateDashboard', { params: { id }, body: patch, signal }),
    /** DELETE analytics/dashboards/:id; 404. */
    deleteDashboard: (id: string, signal?: AbortSignal) =>
      http.call('analytics.deleteDashboard', { params: { id }, signal }),
    /** POST analytics/dashboards/:id/data { from, to, bucket_seconds, filters } → rows per chart; 404. */
    data: (id: string, window: DataWindow, filters: Filters, signal?: AbortSignal): Promise<DashboardData> =>
      http.call('analytics.dashboardData', {
        params: { id },
        body: { from: window.from, to: window.to, bucket_seconds: window.bucketSeconds, filters },
        signal,
      }),
  };
}

export type AnalyticsApi = ReturnType<typeof analyticsApi>;
