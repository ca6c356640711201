/**
 * Register form validation (issue 13 /register; §5 form texts: required, minimum length, terms agreement
 * required). Pure; returns i18n keys (features/accounts/languages) the view translates.
 */
import { NEW_PASSWORD_MIN_LENGTH } from '../../../protocol/accounts';

export interface RegisterFormValues {
  email: string;
  username: string;
  password: string;
  agreed: boolean;
}
export type RegisterFormErrors = Partial<Record<keyof RegisterFormValues, string>>;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateRegister(v: RegisterFormValues): RegisterFormErrors {
  const errors: RegisterFormErrors = {};
  const email = v.email.trim();
  if (email === '') errors.email = 'accounts.register.errors.emailRequired';
  else if (!EMAIL_RE.test(email)) errors.email = 'accounts.register.errors.emailInvalid';
  if (v.username.trim() === '') errors.username = 'accounts.register.errors.usernameRequired';
  const pw = validateNewPassword(v.password);
  if (pw) errors.password = pw;
  if (!v.agreed) errors.agreed = 'accounts.register.errors.termsRequired';
  return errors;
}

/** A new password's error key, or null (required, NEW_PASSWORD_MIN_LENGTH). */
export function validateNewPassword(password: string): string | null {
  if (password === '') return 'accounts.register.errors.passwordRequired';
  if (password.length < NEW_PASSWORD_MIN_LENGTH) return 'accounts.register.errors.passwordMin';
  return null;
}

/** An e-mail field's error key, or null. */
export function validateEmail(email: string): string | null {
  const e = email.trim();
  if (e === '') return 'accounts.register.errors.emailRequired';
  return EMAIL_RE.test(e) ? null : 'accounts.register.errors.emailInvalid';
}
