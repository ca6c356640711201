/**
 * REST calls of the issue-13 account flows (spec §7 register, resend-verification, reset-password-request,
 * verify-2fa-auth, resend-verify-code (PUT), verify-auth; our confirm-mail, reset-password, two-factor
 * setup/enable/disable, dev mailbox). Loaded with the flows' screens (it brings zod), never on /login.
 */
import type { RegisterForm } from '../../../../machines/accounts/register.machine';
import type { LinkOutcome } from '../../../../machines/accounts/mailLink.machine';
import type { VerifyResult } from '../../../../machines/accounts/twoFactor.machine';
import type { PendingSetup } from '../../../../machines/accounts/twoFactorSetup.machine';
import { ACCOUNT_ERROR_CODES, type MailLanguage } from '../../../protocol/accounts';
import type { CaughtMail } from '../../../protocol/mail';
import { ApiRequestError, type Http } from '../../platform/http';

export function accountFlowsApi(http: Http) {
  return {
    /** GET register-config → the reCAPTCHA site key, or null (off, the default). */
    async registerConfig(): Promise<string | null> {
      return (await http.call('accounts.registerConfig', {})).recaptcha_site_key;
    },

    /** POST register. Rejects with the server's text (e.g. the captcha) or 'Servers are unavailable.'. */
    async register(form: RegisterForm, language: MailLanguage): Promise<void> {
      await http.call('accounts.register', { body: { ...form, agreed: true, language } });
    },

    /** POST resend-verification (same answer for every address). */
    async resendVerification(email: string, language: MailLanguage): Promise<void> {
      await http.call('accounts.resendVerification', { body: { email, language } });
    },

    /** POST confirm-mail → 'done' with the address, or 'expired' (404 Link_expired). */
    async confirmMail(token: string): Promise<{ outcome: LinkOutcome; email: string | null }> {
      try {
        const answer = await http.call('accounts.confirmMail', { body: { token } });
        return { outcome: 'done', email: answer.email };
      } catch (error) {
        if (isLinkExpired(error)) return { outcome: 'expired', email: null };
        throw error;
      }
    },

    /** POST reset-password-request (same answer for every address). */
    async requestPasswordReset(email: string, language: MailLanguage): Promise<void> {
      await http.call('accounts.resetPasswordRequest', { body: { email, language } });
    },

    /** POST reset-password → 'done' or 'expired' (404 Link_expired); other failures reject. */
    async resetPassword(token: string, password: string): Promise<LinkOutcome> {
      try {
        await http.call('accounts.resetPassword', { body: { token, password } });
        return 'done';
      } catch (error) {
        if (isLinkExpired(error)) return 'expired';
        throw error;
      }
    },

    /** POST verify-2fa-auth → status 1 (tokens) or 0 (the reason). */
    async verifyTwoFactor(challenge: string, code: string): Promise<VerifyResult> {
      return http.call('accounts.verify2faAuth', { body: { challenge, code: code.replace(/\s+/g, '') } });
    },

    /** PUT resend-verify-code: a one-time code by mail for the open challenge. */
    async resendVerifyCode(challenge: string, language: MailLanguage): Promise<void> {
      await http.call('accounts.resendVerifyCode', { body: { challenge, language } });
    },

    /** GET verify-auth → the two-factor state. */
    async twoFactorState(): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
      const { two_factor } = await http.call('accounts.verifyAuth', {});
      return { enabled: two_factor.enabled, recoveryCodesLeft: two_factor.recovery_codes_left };
    },

    /** POST two-factor/setup → the pending secret, URI and QR code. */
    async startTwoFactorSetup(): Promise<PendingSetup> {
      const a = await http.call('accounts.twoFactorSetup', {});
      return { secret: a.secret, otpauthUrl: a.otpauth_url, qrSvg: a.qr_svg };
    },

    /** POST two-factor/enable → the recovery codes (shown once). */
    async enableTwoFactor(code: string): Promise<string[]> {
      return (await http.call('accounts.twoFactorEnable', { body: { code: code.replace(/\s+/g, '') } }))
        .recovery_codes;
    },

    /** POST two-factor/disable with the account password. */
    async disableTwoFactor(password: string): Promise<void> {
      await http.call('accounts.twoFactorDisable', { body: { password } });
    },

    /** GET dev/mailbox. */
    async mailbox(): Promise<{ enabled: boolean; messages: CaughtMail[] }> {
      return http.call('mail.mailbox', {});
    },

    /** GET dev/mailbox-status: whether the embedded catcher runs. */
    async mailboxEnabled(): Promise<boolean> {
      return (await http.call('mail.mailboxStatus', {})).enabled;
    },

    /** DELETE dev/mailbox. */
    async clearMailbox(): Promise<void> {
      await http.call('mail.clearMailbox', {});
    },
  };
}

export type AccountFlowsApi = ReturnType<typeof accountFlowsApi>;

/** A 404 Link_expired answer: the mailed link is used, unknown or past its expiry. */
function isLinkExpired(error: unknown): boolean {
  return error instanceof ApiRequestError && error.code === ACCOUNT_ERROR_CODES.linkExpired;
}
