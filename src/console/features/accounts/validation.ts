/**
 * Login form validation (spec §5 "Login form texts: required, minimum length, ... terms agreement
 * required"). Pure; returns i18n keys (resources in i18n/en.ts) so the view translates them.
 */

/** §5 minimum password length on the login form. */
export const LOGIN_PASSWORD_MIN_LENGTH = 6;

export interface LoginFormValues {
  email: string;
  password: string;
  agreed: boolean;
}

/** Field → i18n key of its error; a field without an error is absent. */
export type LoginFormErrors = Partial<Record<keyof LoginFormValues, string>>;

/** A plain e-mail shape check (the server validates again). */
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Validates the login form; an empty object means it may be submitted. */
export function validateLogin(values: LoginFormValues): LoginFormErrors {
  const errors: LoginFormErrors = {};
  const email = values.email.trim();
  if (email === '') errors.email = 'login.errors.emailRequired';
  else if (!EMAIL_RE.test(email)) errors.email = 'login.errors.emailInvalid';
  if (values.password === '') errors.password = 'login.errors.passwordRequired';
  else if (values.password.length < LOGIN_PASSWORD_MIN_LENGTH) errors.password = 'login.errors.passwordMin';
  if (!values.agreed) errors.agreed = 'login.errors.termsRequired';
  return errors;
}

/** The public demo-account answer (GET /api/demo-account); null when the body is not that shape. */
export interface DemoAccount {
  enabled: boolean;
  email: string;
  password: string;
}

/** Validates an unknown JSON body as a DemoAccount (boundary check for the one REST read in views). */
export function parseDemoAccount(body: unknown): DemoAccount | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  if (typeof b.enabled !== 'boolean') return null;
  if (!b.enabled) return { enabled: false, email: '', password: '' };
  if (typeof b.email !== 'string' || typeof b.password !== 'string') return null;
  return { enabled: true, email: b.email, password: b.password };
}
