/** Database schema, Profile (issue 13): API keys, avatars, tunnel traffic per day, device token issue times. Re-exported by ./index.ts. */
import { sql } from 'drizzle-orm';
import { bigint, check, date, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, devices, users } from './core';

/**
 * API keys (issue 13 "keys-secrets", Grafana-style): a user's named keys for REST calls with
 * `Authorization: Token edk_…`. Only the SHA-256 (hex) of the secret is kept; `prefix` (the first 12
 * characters) names it in lists. scope 'read' = GET routes only, 'full' = every route the user may call
 * (src/server/profile/apiKeys.ts). expires_at null = never; last_used_at is written at most once a minute.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('api_keys_user_created_idx').on(t.userId, t.createdAt),
    check('api_keys_scope_ck', sql`${t.scope} in ('read', 'full')`),
  ],
);

/**
 * A user's avatar (§3 User info `image`): the file is `DATA_DIR/avatars/<user id>`; size in bytes, sha256 hex,
 * content_type one of image/png, image/jpeg, image/webp, image/gif (sniffed from the bytes, not the name).
 */
export const userAvatars = pgTable('user_avatars', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  sha256: text('sha256').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Bytes relayed through the server's reverse tunnel (src/server/tunnel/) per device and UTC day, both
 * directions, added in batches by src/server/profile/traffic.ts (never per packet).
 */
export const tunnelTraffic = pgTable(
  'tunnel_traffic',
  {
    deviceRowId: uuid('device_row_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    bytesFromDevice: bigint('bytes_from_device', { mode: 'number' }).notNull().default(0),
    bytesToDevice: bigint('bytes_to_device', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.deviceRowId, t.day] })],
);

/**
 * When each device's current token was issued (§9 device token expiry 60 days): written by a trigger on
 * devices.token_jti (migration profile_tables), so every path that issues a token is seen without touching it.
 * Devices whose token predates the trigger have no row.
 */
export const deviceTokenIssues = pgTable('device_token_issues', {
  deviceRowId: uuid('device_row_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  jti: uuid('jti').notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
});
