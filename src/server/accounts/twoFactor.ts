/**
 * Two-factor sign-in with TOTP (issue 13; RFC 6238 through `otpauth`: SHA-1, 6 digits, 30 s, ±1 step).
 *
 *   setup   a new pending secret (sealed at rest) → base32, otpauth URI, QR code (SVG, `qrcode`); 409 when on
 *   enable  a current code of the pending secret → on, with 10 recovery codes answered once (SHA-256 at rest)
 *   disable the account password → off (row removed)
 *   check   a sign-in code: TOTP (never the same or an older step twice), or an unused recovery code (removed)
 */
import { randomBytes } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { secretBox } from '../auth/secretBox';
import type { Db } from '../db';
import { userTwoFactor } from '../db/schema';
import { sha256 } from './linkTokens';

export const TOTP_ISSUER = 'Edge AI Console';
export const TOTP_PERIOD_S = 30;
export const RECOVERY_CODE_COUNT = 10;

const totpOf = (secretBase32: string, label: string) =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });

/** A recovery code: 10 characters of [a-z0-9] shown as xxxxx-xxxxx. */
export function newRecoveryCode(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
/** The stored form of a recovery code (dash and case ignored). */
export const recoveryHash = (code: string) => sha256(code.replace(/-/g, '').toLowerCase());

export async function twoFactorRow(db: Db, userId: string) {
  const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId)).limit(1);
  return row ?? null;
}

/** Whether the user signs in with a second factor. */
export async function twoFactorEnabled(db: Db, userId: string): Promise<boolean> {
  return (await twoFactorRow(db, userId))?.enabledAt != null;
}

/** Starts (or restarts) enrolment. Resolves null when two-factor is already on. */
export async function setupTwoFactor(db: Db, userId: string, email: string) {
  const row = await twoFactorRow(db, userId);
  if (row?.enabledAt) return null;
  const secret = new Secret({ size: 20 }).base32;
  const sealed = (await secretBox(db)).seal(secret);
  await db
    .insert(userTwoFactor)
    .values({ userId, secretSealed: sealed })
    .onConflictDoUpdate({
      target: userTwoFactor.userId,
      set: { secretSealed: sealed, recoveryCodes: [], lastStep: 0 },
    });
  const otpauthUrl = totpOf(secret, email).toString();
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return { secret, otpauth_url: otpauthUrl, qr_svg: qrSvg };
}

/**
 * Checks a TOTP code against the row's secret. Resolves the matched time step, or null. A step at or before
 * `lastStep` (already used) does not match.
 */
async function matchTotp(db: Db, row: { secretSealed: string; lastStep: number }, code: string) {
  if (!/^\d{6}$/.test(code)) return null;
  const secret = (await secretBox(db)).open(row.secretSealed);
  const delta = totpOf(secret, 'x').validate({ token: code, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(Date.now() / 1000 / TOTP_PERIOD_S) + delta;
  return step > row.lastStep ? step : null;
}

/**
 * Enables two-factor with a current code of the pending secret.
 * Resolves 'none' (no setup pending), 'enabled' (already on), 'invalid' (wrong code), or the recovery codes.
 */
export async function enableTwoFactor(
  db: Db,
  userId: string,
  code: string,
): Promise<'none' | 'enabled' | 'invalid' | { recoveryCodes: string[] }> {
  const row = await twoFactorRow(db, userId);
  if (!row) return 'none';
  if (row.enabledAt) return 'enabled';
  const step = await matchTotp(db, row, code);
  if (step === null) return 'invalid';
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db
    .update(userTwoFactor)
    .set({ enabledAt: new Date(), lastStep: step, recoveryCodes: recoveryCodes.map(recoveryHash) })
    .where(eq(userTwoFactor.userId, userId));
  return { recoveryCodes };
}

/** Turns two-factor off for a user. */
export async function disableTwoFactor(db: Db, userId: string): Promise<void> {
  await db.delete(userTwoFactor).where(eq(userTwoFactor.userId, userId));
}

/**
 * Checks a sign-in code of an enabled user: a TOTP code (its step is remembered so it cannot be replayed) or a
 * recovery code (removed once used). Resolves whether it was accepted.
 */
export async function checkSecondFactor(db: Db, userId: string, code: string): Promise<boolean> {
  const row = await twoFactorRow(db, userId);
  if (!row?.enabledAt) return false;
  const step = await matchTotp(db, row, code);
  if (step !== null) {
    const updated = await db
      .update(userTwoFactor)
      .set({ lastStep: step })
      // Conditional: of two concurrent uses of one code only one moves the step.
      .where(and(eq(userTwoFactor.userId, userId), lt(userTwoFactor.lastStep, step)))
      .returning({ lastStep: userTwoFactor.lastStep });
    return updated.length > 0;
  }
  const hash = recoveryHash(code);
  if (!row.recoveryCodes.includes(hash)) return false;
  const used = await db
    .update(userTwoFactor)
    .set({ recoveryCodes: sql`array_remove(${userTwoFactor.recoveryCodes}, ${hash})` })
    .where(and(eq(userTwoFactor.userId, userId), sql`${hash} = any(${userTwoFactor.recoveryCodes})`))
    .returning({ userId: userTwoFactor.userId });
  return used.length > 0;
}
