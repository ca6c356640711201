/**
 * Database schema, rate-limit counts shared by every server instance (issue 15 "Scale-out past one server",
 * "Throttling per IP and globally"). Re-exported by ./index.ts. Written by src/server/rateLimitStore.ts only.
 *
 * - rate_limit_counts: one fixed window per counted key. `key` is the base64url SHA-256 of the limiter's
 *   namespace and key (43 characters whatever the key: keys hold client addresses and e-mails, which are not
 *   kept here in clear); `count` the requests counted in the window, `expires_at` its end on the database's
 *   clock (every instance reads the same clock). Expired rows are deleted every minute by each instance (no
 *   index on `expires_at`: a scan of a table of live keys is cheap, and without it every update stays HOT).
 *   The migration creates it UNLOGGED (0025): no WAL, so a count's commit waits for no fsync; after a
 *   PostgreSQL crash (or on a standby after fail-over) the table is empty and every limit starts over.
 */
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const rateLimitCounts = pgTable('rate_limit_counts', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
