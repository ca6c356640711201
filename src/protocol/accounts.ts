/**
 * Accounts (spec §3 User info, §4 auth with one-shot refresh, §5 login, §7 auth endpoints, §8 login texts).
 * Access tokens travel as `Authorization: Token {token}`; refresh tokens as the `Refresh-Token` header and
 * rotate on use.
 */
import { z } from 'zod';
import { defineRoutes } from './route';

export const Role = z.enum(['admin', 'user']);
export type Role = z.infer<typeof Role>;

/** §3 User info. */
export const UserInfo = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  bio: z.string().nullable(),
  image: z.string().nullable(),
  roles: z.array(Role),
});
export type UserInfo = z.infer<typeof UserInfo>;

/** POST login — §4 §5. */
export const LoginRequest = z.object({
  email: z.string().trim().max(254).email(),
  password: z.string().min(1).max(1024),
});
export type LoginRequest = z.infer<typeof LoginRequest>;
/**
 * status 1 = confirm mail (no tokens), status 2 = logged in, status 3 = the account has two-factor sign-in:
 * no tokens yet, `challenge` (single use, 10 minutes) goes with a code to verify-2fa-auth (§4).
 */
export const LoginResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal(1), message: z.string() }),
  z.object({ status: z.literal(3), challenge: z.string(), message: z.string() }),
  z.object({
    status: z.literal(2),
    token: z.string(),
    refresh_token: z.string(),
    user_info: UserInfo,
  }),
]);
export type LoginResponse = z.infer<typeof LoginResponse>;

/** POST new_access_token with header Refresh-Token → data.token (refresh token rotates: data.refresh_token). */
export const NewAccessTokenResponse = z.object({
  data: z.object({ token: z.string(), refresh_token: z.string() }),
});
export type NewAccessTokenResponse = z.infer<typeof NewAccessTokenResponse>;

/** GET user-info → user_info. */
export const UserInfoResponse = z.object({ user_info: UserInfo });

/** The `Refresh-Token` header of logout and new_access_token. */
export const RefreshHeaders = z.object({ 'refresh-token': z.string().max(4096).optional() });
/** POST logout → ok, and whether a refresh token was revoked. */
export const LogoutResponse = z.object({ ok: z.literal(true), revoked: z.boolean() });

/** The six interface languages (§2); mails are written in the one the request names (default en). */
export const MailLanguage = z.enum(['en', 'ch', 'es', 'jp', 'de', 'fr']);
export type MailLanguage = z.infer<typeof MailLanguage>;

/** Error codes of the account flows besides API_ERROR_CODES (plain constants: no zod needed to read them). */
export const ACCOUNT_ERROR_CODES = {
  /** 404: a confirm-mail or reset link that is unknown, used or past its expiry (the console shows /expired). */
  linkExpired: 'Link_expired',
  /** 400: reCAPTCHA is configured and the answer was missing or refused. */
  captchaFailed: 'Captcha_failed',
  /** 400: the two-factor code given to enable TOTP was wrong. */
  invalidCode: 'Invalid_code',
  /** 409: TOTP is already on (setup or enable again). */
  twoFactorEnabled: 'Two_factor_enabled',
} as const;

/** A single-use link token from a mail (43 base64url characters: 32 random bytes). */
const LinkToken = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, 'Not a link token')
  .meta({ examples: ['Q2hhbmdlLW1lLXRoaXMtaXMtYS1saW5rLXRva2VuLTAx'] });
/** A new password: 8–1024 characters (the login form's minimum is 6; new ones are longer). */
export const NEW_PASSWORD_MIN_LENGTH = 8;
const NewPassword = z.string().min(NEW_PASSWORD_MIN_LENGTH).max(1024);
const Email = z.string().trim().max(254).email();
/** A 6-digit TOTP code or e-mailed code, or a recovery code (xxxxx-xxxxx); surrounding spaces are ignored. */
const SecondFactorCode = z
  .string()
  .trim()
  .max(32)
  .regex(/^(\d{6}|[a-z0-9]{5}-?[a-z0-9]{5})$/i, 'Not a code')
  .meta({ examples: ['123456', 'abcde-12345'] });

/** POST register (§2 /register): terms agreement required; `recaptcha` only when the server asks for it. */
export const RegisterRequest = z.object({
  email: Email,
  username: z.string().trim().min(1).max(100),
  password: NewPassword,
  agreed: z.literal(true),
  recaptcha: z.string().max(4096).optional(),
  language: MailLanguage.optional(),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

/** The same answer whatever the address (no account enumeration): a mail was sent if it could be. */
export const MailSentResponse = z.object({ ok: z.literal(true), message: z.string() });
export type MailSentResponse = z.infer<typeof MailSentResponse>;

/** GET register-config: the reCAPTCHA site key when reCAPTCHA is configured (null: off, the default). */
export const RegisterConfigResponse = z.object({ recaptcha_site_key: z.string().nullable() });

/** POST resend-verification / reset-password-request. */
export const EmailRequest = z.object({ email: Email, language: MailLanguage.optional() });

/** POST confirm-mail: the /confirm-mail/{token} link's token. 404 Link_expired when unknown/used/expired. */
export const LinkTokenRequest = z.object({ token: LinkToken });
export const ConfirmMailResponse = z.object({ ok: z.literal(true), email: z.string() });

/** POST reset-password: the /forgot-password/{token} link's token and the new password. */
export const ResetPasswordRequest = z.object({ token: LinkToken, password: NewPassword });
export const AccountOkResponse = z.object({ ok: z.literal(true) });

/** POST verify-2fa-auth (§4, §7 "reads status, tokens.token, tokens.refresh_token"). */
export const Verify2faRequest = z.object({
  challenge: LinkToken,
  code: SecondFactorCode,
});
export const Verify2faResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal(0), message: z.string() }),
  z.object({
    status: z.literal(1),
    tokens: z.object({ token: z.string(), refresh_token: z.string() }),
    user_info: UserInfo,
  }),
]);
export type Verify2faResponse = z.infer<typeof Verify2faResponse>;

/** PUT resend-verify-code: mails a 6-digit code usable once instead of the authenticator's (10 minutes). */
export const ResendVerifyCodeRequest = z.object({
  challenge: LinkToken,
  language: MailLanguage.optional(),
});

/** GET verify-auth: the signed-in user with their two-factor state. */
export const VerifyAuthResponse = z.object({
  user_info: UserInfo,
  two_factor: z.object({ enabled: z.boolean(), recovery_codes_left: z.number().int() }),
});
export type VerifyAuthResponse = z.infer<typeof VerifyAuthResponse>;

/** POST two-factor/setup: a new pending TOTP secret (base32), its otpauth URI and QR code (SVG text). */
export const TwoFactorSetupResponse = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  qr_svg: z.string(),
});
export type TwoFactorSetupResponse = z.infer<typeof TwoFactorSetupResponse>;
/** POST two-factor/enable: the current code of the pending secret → the recovery codes, shown once. */
export const TwoFactorEnableRequest = z.object({ code: SecondFactorCode });
export const TwoFactorEnableResponse = z.object({ recovery_codes: z.array(z.string()) });
/** POST two-factor/disable: the account password. */
export const TwoFactorDisableRequest = z.object({ password: z.string().min(1).max(1024) });

export const accountRoutes = defineRoutes({
  /** 401 Login_failed "The login detail is incorrect"; 429 Rate_limited. */
  'accounts.login': {
    method: 'POST',
    path: '/api/login',
    auth: 'none',
    summary: 'Sign in (§5): status 2 with tokens, or status 1 when the mail is not confirmed',
    body: LoginRequest,
    answer: LoginResponse,
    errors: [401, 429],
  },
  'accounts.logout': {
    method: 'POST',
    path: '/api/logout',
    auth: 'none',
    summary: 'Sign out: revokes the Refresh-Token header’s refresh token',
    headers: RefreshHeaders,
    answer: LogoutResponse,
  },
  'accounts.userInfo': {
    method: 'GET',
    path: '/api/user-info',
    auth: 'user',
    summary: 'The signed-in user (§3 User info)',
    answer: UserInfoResponse,
  },
  'accounts.newAccessToken': {
    method: 'POST',
    path: '/api/new_access_token',
    auth: 'none',
    summary: 'A new access token for the Refresh-Token header (§4: one refresh, the refresh token rotates)',
    headers: RefreshHeaders,
    answer: NewAccessTokenResponse,
    errors: [401],
  },
  'accounts.registerConfig': {
    method: 'GET',
    path: '/api/register-config',
    auth: 'none',
    summary: 'Whether /register asks for reCAPTCHA (its site key), off unless configured',
    answer: RegisterConfigResponse,
  },
  /** 400 Captcha_failed; 429. The answer is the same for a new and a known address. */
  'accounts.register': {
    method: 'POST',
    path: '/api/register',
    auth: 'none',
    summary: 'Register (§2 /register): mails a confirm link; same answer for a known address',
    body: RegisterRequest,
    answer: MailSentResponse,
    errors: [429],
  },
  'accounts.resendVerification': {
    method: 'POST',
    path: '/api/resend-verification',
    auth: 'none',
    summary: 'Mails a new confirm link to an unconfirmed account; same answer for any address',
    body: EmailRequest,
    answer: MailSentResponse,
    errors: [429],
  },
  'accounts.confirmMail': {
    method: 'POST',
    path: '/api/confirm-mail',
    auth: 'none',
    summary: 'Confirms the e-mail address of /confirm-mail/{token} (single use); 404 Link_expired',
    body: LinkTokenRequest,
    answer: ConfirmMailResponse,
    errors: [404, 429],
  },
  'accounts.resetPasswordRequest': {
    method: 'POST',
    path: '/api/reset-password-request',
    auth: 'none',
    summary: 'Mails a password reset link (/forgot-password/{token}); same answer for any address',
    body: EmailRequest,
    answer: MailSentResponse,
    errors: [429],
  },
  'accounts.resetPassword': {
    method: 'POST',
    path: '/api/reset-password',
    auth: 'none',
    summary: 'Sets a new password with a reset link token (single use); ends every session; 404 Link_expired',
    body: ResetPasswordRequest,
    answer: AccountOkResponse,
    errors: [404, 429],
  },
  'accounts.verify2faAuth': {
    method: 'POST',
    path: '/api/verify-2fa-auth',
    auth: 'none',
    summary: 'Second step of sign-in (§4): status 1 with tokens, or status 0 with the reason',
    body: Verify2faRequest,
    answer: Verify2faResponse,
    errors: [429],
  },
  'accounts.resendVerifyCode': {
    method: 'PUT',
    path: '/api/resend-verify-code',
    auth: 'none',
    summary: 'Mails a one-time sign-in code for a pending two-factor challenge (in place of the app’s code)',
    body: ResendVerifyCodeRequest,
    answer: MailSentResponse,
    errors: [429],
  },
  'accounts.verifyAuth': {
    method: 'GET',
    path: '/api/verify-auth',
    auth: 'user',
    summary: 'The signed-in user and their two-factor state',
    answer: VerifyAuthResponse,
  },
  /** 409 Two_factor_enabled when already on. */
  'accounts.twoFactorSetup': {
    method: 'POST',
    path: '/api/two-factor/setup',
    auth: 'user',
    summary: 'Starts TOTP enrolment: a new pending secret with its otpauth URI and QR code',
    answer: TwoFactorSetupResponse,
    errors: [409, 429],
  },
  /** 400 Invalid_code; 404 when no setup is pending; 409 when already on. */
  'accounts.twoFactorEnable': {
    method: 'POST',
    path: '/api/two-factor/enable',
    auth: 'user',
    summary: 'Turns TOTP on with a current code of the pending secret; answers the recovery codes once',
    body: TwoFactorEnableRequest,
    answer: TwoFactorEnableResponse,
    errors: [404, 409, 429],
  },
  /** 400 Invalid_code when the password is wrong. */
  'accounts.twoFactorDisable': {
    method: 'POST',
    path: '/api/two-factor/disable',
    auth: 'user',
    summary: 'Turns TOTP off (the account password confirms it)',
    body: TwoFactorDisableRequest,
    answer: AccountOkResponse,
    errors: [429],
  },
});
