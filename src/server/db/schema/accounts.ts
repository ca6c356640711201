/** Database schema, Accounts (issue 13): single-use mailed links and two-factor sign-in. Re-exported by ./index.ts. */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, users } from './core';

/**
 * Single-use account tokens, stored as SHA-256 of the secret only: 'confirm_mail' (/confirm-mail/{token}, 24 h),
 * 'reset_password' (/forgot-password/{token}, 1 h), 'two_factor' (the login challenge of verify-2fa-auth, 10 min;
 * `code_hash` holds a mailed one-time code from resend-verify-code, `attempts` counts wrong codes).
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    codeHash: text('code_hash'),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('account_tokens_user_purpose_idx').on(t.userId, t.purpose),
    check('account_tokens_purpose_ck', sql`${t.purpose} in ('confirm_mail', 'reset_password', 'two_factor')`),
  ],
);

/**
 * TOTP (RFC 6238, SHA-1, 6 digits, 30 s) per user: the secret sealed with the server's secret box; `enabled_at`
 * null while enrolment is pending; recovery codes as SHA-256 hashes (a used one is removed); `last_step` refuses
 * a code's replay.
 */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  recoveryCodes: text('recovery_codes')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  lastStep: bigint('last_step', { mode: 'number' }).notNull().default(0),
  createdAt: createdAt(),
});
