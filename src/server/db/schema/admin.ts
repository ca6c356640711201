/** Database schema, Admin panel (issue 13): audit log, engine back-ends, user counts, device last-seen. Re-exported by ./index.ts. */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, devices } from './core';

/**
 * Every admin action (issue 13 "Admin panel": role change, disable, enable, two-factor reset, engine-backend
 * change, licence grant/revoke), written through src/server/audit `writeAudit`. actor_id is not a foreign key
 * (the record outlives the account); target_id is text (user ids, device ids, backend ids, licence ids);
 * details is the action's own data (e.g. { from, to } roles); ip is the request's address when known.
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    ip: text('ip'),
  },
  (t) => [
    // The audit list (newest first, keyset on (at, id)), whole or by actor or action.
    index('admin_audit_log_at_idx').on(t.at, t.id),
    index('admin_audit_log_actor_at_idx').on(t.actorId, t.at, t.id),
    index('admin_audit_log_action_at_idx').on(t.action, t.at, t.id),
  ],
);

/**
 * §7 `POST /inference-url`: which inference engine image runs on a device, by JetPack version (Jetson) or by
 * NVIDIA driver version (x86). platform 'jetpack': `version` is a JetPack release prefix ('5.1' matches 5.1,
 * 5.1.2; the longest matching prefix wins); platform 'driver': `version` is the lowest driver major version the
 * image needs ('535' matches 535.x and newer; the highest one not above the device's wins). Admin-managed
 * (/admin-panel/engines/engine-backends).
 */
export const engineBackends = pgTable(
  'engine_backends',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    platform: text('platform').notNull(),
    version: text('version').notNull(),
    image: text('image').notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('engine_backends_platform_version_uq').on(t.platform, t.version),
    check('engine_backends_platform_ck', sql`${t.platform} in ('jetpack', 'driver')`),
  ],
);

/**
 * How many users there are, kept by statement-level triggers on `users` (migration 0012): the admin user
 * list's total without counting every row per page (issue 13 bench: 100,000 users). One row (id = 1).
 */
export const userCounts = pgTable('user_counts', {
  id: integer('id').primaryKey().default(1),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});

/**
 * When each device was last registered with signalling (the admin clients list's "last seen", issue 13):
 * written by the server when the device's signalling presence changes (connects or leaves).
 */
export const deviceLastSeen = pgTable('device_last_seen', {
  deviceId: text('device_id')
    .primaryKey()
    .references(() => devices.deviceId, { onDelete: 'cascade' }),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});
