/**
 * The admin panel's actors (issue 13; src/protocol/admin.ts): the users, clients and audit-log lists (the
 * keyset list machine with each list's GET), the confirm-and-apply of user actions (POST disable / enable /
 * reset-two-factor, PUT roles) and the engine backends table (GET / POST / PUT / DELETE engine-backends).
 * Started after the first sign-in (loadActors); every call is refused with 403 by the server for a non-admin.
 */
import { fromPromise } from 'xstate';
import {
  adminListMachine,
  type ListPage,
  type ListQuery,
} from '../../../../machines/admin/adminList.machine';
import { engineBackendsMachine, type BackendDraft } from '../../../../machines/admin/engineBackends.machine';
import { userActionMachine, type UserActionKind } from '../../../../machines/admin/userAction.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { AuditQuery } from '../../../protocol/admin';
import type { Platform } from '../feature';

/** A query field, or undefined when empty (so it is left out of the URL). */
const opt = (v: string | undefined) => (v ? v : undefined);
/** An input time ('YYYY-MM-DDTHH:mm', local) as ISO with offset, or undefined. */
const isoOf = (v: string | undefined) => (v ? new Date(v).toISOString() : undefined);

export function adminActors({ http }: Platform): FeatureActor[] {
  const list = (
    systemId: string,
    query: ListQuery,
    load: (q: ListQuery, cursor: string | null, signal: AbortSignal) => Promise<ListPage>,
  ) =>
    featureActor({
      systemId,
      logic: adminListMachine.provide({
        actors: { loadPage: fromPromise(({ input, signal }) => load(input.query, input.cursor, signal)) },
      }),
      input: () => ({ query }),
      onSignOut: [{ type: 'list.reset' }],
    });
  return [
    list(SYSTEM_IDS.adminUsers, { sort: 'email', dir: 'asc', status: 'all' }, async (q, cursor, signal) => {
      const r = await http.call('admin.users', {
        query: {
          search: opt(q.search),
          role: (opt(q.role) as 'admin' | 'user' | undefined) ?? undefined,
          status: (q.status || 'all') as 'all' | 'active' | 'disabled',
          sort: (q.sort || 'email') as 'email' | 'username' | 'created_at',
          dir: (q.dir || 'asc') as 'asc' | 'desc',
          cursor: cursor ?? undefined,
        },
        signal,
      });
      return { rows: r.users, total: r.total, totalCapped: r.total_capped, next: r.next, prev: r.prev };
    }),
    list(SYSTEM_IDS.adminClients, { state: 'all' }, async (q, cursor, signal) => {
      const r = await http.call('admin.clients', {
        query: {
          search: opt(q.search),
          state: (q.state || 'all') as 'all' | 'online' | 'offline',
          cursor: cursor ?? undefined,
        },
        signal,
      });
      return {
        rows: r.clients,
        total: r.total,
        totalCapped: r.total_capped,
        next: r.next,
        prev: r.prev,
        extra: { online: r.online },
      };
    }),
    list(SYSTEM_IDS.adminInferences, {}, async (q, cursor, signal) => {
      const r = await http.call('admin.inferences', {
        query: {
          search: opt(q.search),
          state: opt(q.state) as 'created' | 'deploying' | 'started' | 'error' | 'stopped' | undefined,
          cursor: cursor ?? undefined,
        },
        signal,
      });
      return { rows: r.jobs, total: r.total, totalCapped: r.total_capped, next: r.next, prev: r.prev };
    }),
    list(SYSTEM_IDS.adminAudit, {}, async (q, cursor, signal) => {
      const query: AuditQuery = {
        actor: opt(q.actor),
        action: opt(q.action),
        from: isoOf(q.from),
        to: isoOf(q.to),
        cursor: cursor ?? undefined,
      };
      const r = await http.call('admin.auditLog', { query, signal });
      return { rows: r.entries, total: r.entries.length, totalCapped: false, next: r.next, prev: r.prev };
    }),
    featureActor({
      systemId: SYSTEM_IDS.adminUserAction,
      logic: userActionMachine.provide({
        actors: {
          applyAction: fromPromise<unknown, { action: UserActionKind; userId: string }>(
            ({ input, signal }) => {
              const params = { id: input.userId };
              switch (input.action) {
                case 'disable':
                  return http.call('admin.disableUser', { params, signal });
                case 'enable':
                  return http.call('admin.enableUser', { params, signal });
                case 'resetTwoFactor':
                  return http.call('admin.resetTwoFactor', { params, signal });
                case 'makeAdmin':
                  return http.call('admin.setRoles', { params, body: { roles: ['admin', 'user'] }, signal });
                case 'removeAdmin':
                  return http.call('admin.setRoles', { params, body: { roles: ['user'] }, signal });
              }
            },
          ),
        },
      }),
    }),
    featureActor({
      systemId: SYSTEM_IDS.adminEngineBackends,
      logic: engineBackendsMachine.provide({
        actors: {
          loadBackends: fromPromise(
            async ({ signal }) => (await http.call('admin.engineBackends', { signal })).backends,
          ),
          saveBackend: fromPromise<unknown, { id: string | null; draft: BackendDraft }>(
            ({ input, signal }) =>
              input.id
                ? http.call('admin.updateEngineBackend', {
                    params: { id: input.id },
                    body: input.draft,
                    signal,
                  })
                : http.call('admin.createEngineBackend', { body: input.draft, signal }),
          ),
          deleteBackend: fromPromise<unknown, { id: string }>(({ input, signal }) =>
            http.call('admin.deleteEngineBackend', { params: { id: input.id }, signal }),
          ),
        },
      }),
      onSignOut: [{ type: 'backends.reset' }],
    }),
  ];
}
