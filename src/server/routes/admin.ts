/**
 * Handlers of the admin panel's routes (src/protocol/admin.ts; spec §2 /admin-panel/*, §6 role admin, §7
 * inference-url; issue 13 "Admin panel"). Every `admin.*` route but inferenceUrl is registered with
 * auth 'admin' (register.ts: authenticateUser + requireAdmin → 403 Forbidden for any other user), so no
 * handler here is reached by a non-admin. Writes go through src/server/admin/* in a transaction with their audit
 * record (src/server/audit). Also installs, once, the audit log's request scope (the caller's address) and the
 * devices' last-seen tracking.
 */
import type { adminRoutes } from '../../protocol/admin';
import { trackAuditRequests } from '../audit';
import { userOf } from '../auth/guard';
import { auditPage } from '../admin/auditList';
import { clientPage, trackLastSeen } from '../admin/clientList';
import {
  createBackend,
  deleteBackend,
  inferenceImage,
  listBackends,
  updateBackend,
} from '../admin/engineBackends';
import { inferencePage } from '../admin/inferenceList';
import { disableUser, enableUser, resetTwoFactor, setRoles } from '../admin/userActions';
import { userPage } from '../admin/userList';
import type { HandlersOf } from './register';

export const adminHandlers: HandlersOf<typeof adminRoutes> = (ctx, app) => {
  trackAuditRequests(app);
  const untrack = trackLastSeen(ctx.db, ctx.presence, app.log);
  app.addHook('onClose', async () => untrack());
  return {
    'admin.users': async ({ query }) => {
      const page = await userPage(ctx.db, {
        search: query.search,
        role: query.role,
        status: query.status,
        sort: query.sort,
        dir: query.dir,
        cursor: query.cursor,
        perPage: query.per_page,
      });
      return {
        users: page.users,
        total: page.total,
        total_capped: page.totalCapped,
        next: page.next,
        prev: page.prev,
      };
    },

    'admin.setRoles': async ({ params, body }, request) => ({
      user: await setRoles(ctx.db, userOf(request).id, params.id, body.roles),
    }),

    'admin.disableUser': async ({ params }, request) => ({
      user: await disableUser(ctx.db, userOf(request).id, params.id),
    }),

    'admin.enableUser': async ({ params }, request) => ({
      user: await enableUser(ctx.db, userOf(request).id, params.id),
    }),

    'admin.resetTwoFactor': async ({ params }, request) => ({
      user: await resetTwoFactor(ctx.db, userOf(request).id, params.id),
    }),

    'admin.clients': async ({ query }) => {
      const page = await clientPage(ctx.db, ctx.presence.onlineIds(), {
        search: query.search,
        state: query.state,
        cursor: query.cursor,
        perPage: query.per_page,
      });
      return {
        clients: page.clients,
        total: page.total,
        total_capped: page.totalCapped,
        online: page.online,
        next: page.next,
        prev: page.prev,
      };
    },

    'admin.engineBackends': async () => ({ backends: await listBackends(ctx.db) }),

    'admin.createEngineBackend': async ({ body }, request) => ({
      backend: await createBackend(ctx.db, userOf(request).id, body),
    }),

    'admin.updateEngineBackend': async ({ params, body }, request) => ({
      backend: await updateBackend(ctx.db, userOf(request).id, params.id, body),
    }),

    'admin.deleteEngineBackend': async ({ params }, request) => {
      await deleteBackend(ctx.db, userOf(request).id, params.id);
      return { deleted: true as const };
    },

    'admin.inferenceUrl': async ({ body }) => ({
      data: await inferenceImage(ctx.db, body.jetpack_version, body.driver_version),
    }),

    'admin.inferences': async ({ query }) => {
      const page = await inferencePage(ctx.db, {
        search: query.search,
        state: query.state,
        cursor: query.cursor,
        perPage: query.per_page,
      });
      return {
        jobs: page.jobs,
        total: page.total,
        total_capped: page.totalCapped,
        next: page.next,
        prev: page.prev,
      };
    },

    'admin.auditLog': async ({ query }) =>
      auditPage(ctx.db, {
        actor: query.actor,
        action: query.action,
        from: query.from,
        to: query.to,
        cursor: query.cursor,
        perPage: query.per_page,
      }),
  };
};
