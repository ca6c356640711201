/**
 * The admin audit log (issue 13 "Admin panel": "Every admin action is written to an audit log that admins can
 * read"). Every admin action — role change, disable, enable, two-factor reset, engine-backend change, licence
 * grant/revoke — is written through `writeAudit`, inside the action's own transaction where it has one, so an
 * action and its record commit together. Read on /admin-panel/audit-log (src/server/admin/auditList.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { adminAuditLog } from '../db/schema';

/** The drizzle db or a transaction of it (anything that can insert). */
export type AuditDb = Pick<Db, 'insert'>;

/** One admin action. */
export interface AuditEntry {
  /** The admin's user id. */
  actorId: string;
  /** Dotted action name, e.g. 'user.disable', 'user.roles', 'engine_backend.create', 'licence.grant'. */
  action: string;
  /** What the action was done to: 'user', 'engine_backend', 'licence', … */
  targetType: string;
  /** The target's id (text: uuids, device ids); null when the action has no single target. */
  targetId: string | null;
  /** The action's own data (e.g. { from, to } for a role change); JSON-serialisable. */
  details?: Record<string, unknown>;
}

interface RequestScope {
  ip: string | null;
}

const requestScope = new AsyncLocalStorage<RequestScope>();

/**
 * Makes the request's address (`request.ip`: the socket's, or the proxy's X-Forwarded-For when `trustProxy` is
 * set) known to `writeAudit` for the rest of each request. Registered once on the root app.
 */
export function trackAuditRequests(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    requestScope.run({ ip: request.ip ?? null }, done);
  });
}

/**
 * Appends one record to `admin_audit_log` (time: now; ip: the current request's address, when called within
 * a request). Rejects with the database's error when the insert fails (callers in a transaction roll back).
 */
export async function writeAudit(db: AuditDb, entry: AuditEntry): Promise<void> {
  await db.insert(adminAuditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: entry.details ?? {},
    ip: requestScope.getStore()?.ip ?? null,
  });
}
