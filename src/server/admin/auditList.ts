/**
 * The audit log as admins read it (issue 13 "Every admin action is written to an audit log that admins can
 * read"; /admin-panel/audit-log): newest first, keyset-paged on (at, id) (schema.ts admin_audit_log_*_idx);
 * filters: actor (the actor's email contains the text), action (exact), time window [from, to).
 * The actor's and a target user's email are read at display time (null when that account is gone).
 */
import { aliasedTable, and, eq, gte, ilike, lt, sql, type SQL } from 'drizzle-orm';
import type { AuditEntry } from '../../protocol/admin';
import type { Db } from '../db';
import { likeContains } from '../db/scope';
import { adminAuditLog, users } from '../db/schema';
import { cutPage, decodeCursor } from './cursor';

export interface AuditPageQuery {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
  cursor?: string;
  perPage: number;
}

const KEY_TEXT = sql<string>`to_char(${adminAuditLog.at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export async function auditPage(
  db: Db,
  q: AuditPageQuery,
): Promise<{ entries: AuditEntry[]; next: string | null; prev: string | null }> {
  const request = decodeCursor(q.cursor);
  const actor = aliasedTable(users, 'actor');
  const target = aliasedTable(users, 'target');
  const conditions: SQL[] = [];
  const actorText = q.actor?.trim();
  if (actorText) conditions.push(ilike(actor.email, likeContains(actorText)));
  if (q.action) conditions.push(eq(adminAuditLog.action, q.action));
  if (q.from) conditions.push(gte(adminAuditLog.at, new Date(q.from)));
  if (q.to) conditions.push(lt(adminAuditLog.at, new Date(q.to)));
  // The list is newest first: reading forwards is descending; 'last' and 'before' read ascending.
  const reversed = request.kind === 'last' || (request.kind === 'at' && request.side === 'before');
  const dir = sql.raw(reversed ? 'asc' : 'desc');
  if (request.kind === 'at') {
    conditions.push(
      sql`(${adminAuditLog.at}, ${adminAuditLog.id}) ${sql.raw(reversed ? '>' : '<')} (${request.key}::timestamptz, ${request.id}::uuid)`,
    );
  }
  const rows = await db
    .select({
      id: adminAuditLog.id,
      at: adminAuditLog.at,
      keyText: KEY_TEXT,
      actorId: adminAuditLog.actorId,
      actorEmail: actor.email,
      action: adminAuditLog.action,
      targetType: adminAuditLog.targetType,
      targetId: adminAuditLog.targetId,
      targetEmail: target.email,
      details: adminAuditLog.details,
      ip: adminAuditLog.ip,
    })
    .from(adminAuditLog)
    .leftJoin(actor, eq(actor.id, adminAuditLog.actorId))
    .leftJoin(
      target,
      and(eq(adminAuditLog.targetType, 'user'), sql`${target.id}::text = ${adminAuditLog.targetId}`),
    )
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(sql`${adminAuditLog.at} ${dir}`, sql`${adminAuditLog.id} ${dir}`)
    .limit(q.perPage + 1);
  const page = cutPage(request, rows, q.perPage, (r) => ({ key: r.keyText, id: r.id }));
  return {
    entries: page.rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actor: { id: r.actorId, email: r.actorEmail },
      action: r.action,
      target_type: r.targetType,
      target_id: r.targetId,
      target_label: r.targetEmail,
      details: r.details,
      ip: r.ip,
    })),
    next: page.next,
    prev: page.prev,
  };
}
