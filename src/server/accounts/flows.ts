/**
 * The account flows behind the §7 auth endpoints (issue 13 "Accounts"): registration and mail confirmation,
 * password reset, the two-factor sign-in challenge. No account enumeration: register, resend-verification,
 * reset-password-request and resend-verify-code answer the same whatever the address or challenge, take about
 * the same time (the password is hashed either way) and send their mail in the background.
 */
import { randomInt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { MailLanguage, RegisterRequest } from '../../protocol/accounts';
import { hashPassword } from '../auth/passwords';
import type { SessionTokens } from '../auth/sessions';
import type { Db } from '../db';
import { accountTokens, refreshTokens, users } from '../db/schema';
import type { OutgoingMail } from '../mail';
import { consumeAccountToken, findLiveToken, issueAccountToken, sha256 } from './linkTokens';
import { accountMail } from './mails';
import { checkSecondFactor } from './twoFactor';

/** What the flows need: the database, a way to mail, the console's address for links, a log. */
export interface FlowDeps {
  db: Db;
  send: (mail: OutgoingMail) => Promise<void>;
  log: FastifyBaseLogger;
}

/** The one answer of register / resend-verification / reset-password-request / resend-verify-code. */
export const MAIL_SENT_TEXTS = {
  register: 'If this address can be registered, a confirmation link is on its way to it.',
  resendVerification: 'If this address has an unconfirmed account, a new confirmation link is on its way.',
  reset: 'If this address has an account, a password reset link is on its way to it.',
  verifyCode: 'If this sign-in is still open, a one-time code is on its way to your e-mail address.',
} as const;

/** §4 verify-2fa status 0 texts. */
export const TWO_FACTOR_TEXTS = {
  incorrect: 'The verification code is incorrect',
  expired: 'This sign-in has expired. Please login again.',
} as const;

/** Wrong codes allowed per challenge; the next one ends it. */
export const MAX_CODE_ATTEMPTS = 5;
/** Lifetime of a mailed sign-in code (s). */
export const MAILED_CODE_TTL_S = 600;

/** Sends in the background (the answer must not wait for, or reveal, the mail); failures are logged. */
function mailLater(deps: FlowDeps, mail: OutgoingMail): void {
  deps.send(mail).catch((err: unknown) => deps.log.error({ err, subject: mail.subject }, 'mail not sent'));
}

const userByEmail = async (db: Db, email: string) =>
  (await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1))[0] ?? null;

/** POST register: creates an unconfirmed user and mails the confirm link; a known address gets a notice. */
export async function register(deps: FlowDeps, input: RegisterRequest, baseUrl: string): Promise<void> {
  const email = input.email.toLowerCase();
  const language = input.language ?? 'en';
  const passwordHash = await hashPassword(input.password);
  const existing = await userByEmail(deps.db, email);
  if (existing) {
    if (existing.emailConfirmed) {
      mailLater(
        deps,
        accountMail(
          { kind: 'known', link: `${baseUrl}/forgot-password` },
          email,
          existing.username,
          language,
        ),
      );
    } else {
      await mailConfirmLink(deps, existing, baseUrl, language);
    }
    return;
  }
  const [created] = await deps.db
    .insert(users)
    .values({ email, username: input.username, passwordHash, emailConfirmed: false, roles: ['user'] })
    .onConflictDoNothing({ target: users.email })
    .returning();
  // Lost a race with another registration of the same address: that one mails.
  if (created) await mailConfirmLink(deps, created, baseUrl, language);
}

async function mailConfirmLink(
  deps: FlowDeps,
  user: { id: string; email: string; username: string },
  baseUrl: string,
  language: MailLanguage,
) {
  const token = await issueAccountToken(deps.db, user.id, 'confirm_mail');
  mailLater(
    deps,
    accountMail(
      { kind: 'confirm', link: `${baseUrl}/confirm-mail/${token}` },
      user.email,
      user.username,
      language,
    ),
  );
}

/** POST resend-verification: a new confirm link, only for an unconfirmed account (silently nothing otherwise). */
export async function resendVerification(
  deps: FlowDeps,
  emailIn: string,
  baseUrl: string,
  language: MailLanguage = 'en',
): Promise<void> {
  const user = await userByEmail(deps.db, emailIn);
  if (user && !user.emailConfirmed) await mailConfirmLink(deps, user, baseUrl, language);
}

/** POST confirm-mail: resolves the confirmed address, or null for an unknown, used or expired link. */
export async function confirmMail(deps: FlowDeps, token: string): Promise<string | null> {
  const userId = await consumeAccountToken(deps.db, token, 'confirm_mail');
  if (!userId) return null;
  const [user] = await deps.db
    .update(users)
    .set({ emailConfirmed: true })
    .where(eq(users.id, userId))
    .returning({ email: users.email });
  return user?.email ?? null;
}

/** POST reset-password-request: mails a reset link when the address has an account. */
export async function requestPasswordReset(
  deps: FlowDeps,
  emailIn: string,
  baseUrl: string,
  language: MailLanguage = 'en',
): Promise<void> {
  const user = await userByEmail(deps.db, emailIn);
  if (!user) return;
  const token = await issueAccountToken(deps.db, user.id, 'reset_password');
  mailLater(
    deps,
    accountMail(
      { kind: 'reset', link: `${baseUrl}/forgot-password/${token}` },
      user.email,
      user.username,
      language,
    ),
  );
}

/**
 * POST reset-password: sets the new password (argon2id), confirms the address (the link proved it) and revokes
 * every refresh token of the user. Resolves to the user's id, or null for an unknown, used or expired link.
 */
export async function resetPassword(deps: FlowDeps, token: string, password: string): Promise<string | null> {
  const passwordHash = await hashPassword(password);
  const userId = await consumeAccountToken(deps.db, token, 'reset_password');
  if (!userId) return null;
  await deps.db.update(users).set({ passwordHash, emailConfirmed: true }).where(eq(users.id, userId));
  await deps.db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), sql`${refreshTokens.revokedAt} is null`));
  return userId;
}

/** Login of a two-factor user: a challenge secret for verify-2fa-auth. */
export const startTwoFactorChallenge = (deps: FlowDeps, userId: string) =>
  issueAccountToken(deps.db, userId, 'two_factor');

/**
 * POST verify-2fa-auth: checks `code` (TOTP, recovery code, or a mailed code) for a live challenge. On success
 * the challenge is used up and `issue` makes the session. After MAX_CODE_ATTEMPTS wrong codes it ends. A wrong
 * code's answer carries the challenge's user id (for the security audit log, never for the client).
 */
export async function verifyTwoFactor(
  deps: FlowDeps,
  challenge: string,
  code: string,
  issue: (userId: string) => Promise<SessionTokens>,
): Promise<
  { ok: true; userId: string; tokens: SessionTokens } | { ok: false; message: string; userId?: string }
> {
  const row = await findLiveToken(deps.db, challenge, 'two_factor');
  if (!row) return { ok: false, message: TWO_FACTOR_TEXTS.expired };
  const mailedOk =
    row.codeHash !== null &&
    row.codeExpiresAt !== null &&
    row.codeExpiresAt.getTime() > Date.now() &&
    row.codeHash === sha256(code);
  const ok = mailedOk || (await checkSecondFactor(deps.db, row.userId, code));
  if (!ok) {
    const [after] = await deps.db
      .update(accountTokens)
      .set({
        attempts: sql`${accountTokens.attempts} + 1`,
        usedAt: sql`case when ${accountTokens.attempts} + 1 >= ${MAX_CODE_ATTEMPTS} then now() else null end`,
      })
      .where(eq(accountTokens.id, row.id))
      .returning({ usedAt: accountTokens.usedAt });
    return {
      ok: false,
      message: after?.usedAt ? TWO_FACTOR_TEXTS.expired : TWO_FACTOR_TEXTS.incorrect,
      userId: row.userId,
    };
  }
  const userId = await consumeAccountToken(deps.db, challenge, 'two_factor');
  if (!userId) return { ok: false, message: TWO_FACTOR_TEXTS.expired };
  return { ok: true, userId, tokens: await issue(userId) };
}

/** PUT resend-verify-code: mails a 6-digit one-time code for a live challenge (nothing otherwise). */
export async function resendVerifyCode(
  deps: FlowDeps,
  challenge: string,
  language: MailLanguage = 'en',
): Promise<void> {
  const row = await findLiveToken(deps.db, challenge, 'two_factor');
  if (!row) return;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await deps.db
    .update(accountTokens)
    .set({ codeHash: sha256(code), codeExpiresAt: new Date(Date.now() + MAILED_CODE_TTL_S * 1000) })
    .where(eq(accountTokens.id, row.id));
  const [user] = await deps.db.select().from(users).where(eq(users.id, row.userId)).limit(1);
  if (user) mailLater(deps, accountMail({ kind: 'code', code }, user.email, user.username, language));
}
