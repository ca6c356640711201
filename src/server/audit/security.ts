/**
 * Security events in the audit log (issue 15 "An audit log of security-relevant actions"; OWASP ASVS 4.0 §7.1–7.2:
 * log authentication successes and failures, and changes to credentials). Each event is one `admin_audit_log`
 * row through `writeAudit` (time, the request's address), actor = target = the user it concerns, and
 * `details` = the event's own facts. Never a password, a code, a token or a key's secret.
 *
 * Events (the names are in `AUDIT_ACTIONS`, src/protocol/admin.ts):
 *   auth.sign_in                 { method: 'password' | 'two_factor' }
 *   auth.sign_in_failed          { reason: 'password' | 'disabled' | 'two_factor' } (known accounts only: an
 *                                unknown e-mail has no user to file it under; the throttles count it)
 *   auth.sign_out                {}
 *   account.password_change      {}        account.password_reset     {} (by a mailed link)
 *   account.email_change         { from, to }
 *   account.password_check_failed { where: 'profile' | 'two_factor_disable' }
 *   account.two_factor_enabled   {}        account.two_factor_disabled {}
 *   api_key.create               { name, scope }   api_key.revoke { name }
 *   session.refresh_reuse        (src/server/auth/sessions.ts)
 *
 * Failures are written after the answer is decided and not awaited (`auditLater`), so a wrong password for a
 * known e-mail does not take longer to answer than one for an unknown e-mail; a failed write is logged.
 */
import type { FastifyBaseLogger } from 'fastify';
import { writeAudit, type AuditDb } from '.';

/** One security event about user `userId`. */
export interface SecurityEvent {
  userId: string;
  action: string;
  /** What the row's target is when it is not the user (an API key); default the user. */
  target?: { type: string; id: string };
  details?: Record<string, unknown>;
}

/** Writes the event (awaited: the caller's action and its record succeed or fail together). */
export function auditSecurity(db: AuditDb, event: SecurityEvent): Promise<void> {
  return writeAudit(db, {
    actorId: event.userId,
    action: event.action,
    targetType: event.target?.type ?? 'user',
    targetId: event.target?.id ?? event.userId,
    details: event.details,
  });
}

/** Writes the event without holding up the answer; a failed write is logged at warn and dropped. */
export function auditLater(db: AuditDb, log: FastifyBaseLogger, event: SecurityEvent): void {
  auditSecurity(db, event).catch((err: unknown) =>
    log.warn({ err, action: event.action }, 'security audit record not written'),
  );
}
