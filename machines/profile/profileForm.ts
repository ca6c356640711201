/**
 * Pure helpers of the profile form (spec §3 User info "profile update carries email, username, password,
 * image, bio"; §5 "Profile update sends the password only when provided"; §7 PUT user).
 */

/** The user as the profile shows it (§3 User info). */
export interface ProfileUser {
  id: string;
  email: string;
  username: string;
  bio: string | null;
  image: string | null;
  roles: string[];
}

/** What the form holds when it is saved. */
export interface ProfileFormValues {
  email: string;
  username: string;
  bio: string;
  /** A new password, '' for none (§5: then it is not sent). */
  password: string;
  /** The new password again. */
  passwordConfirm: string;
  /** Needed when the email or the password changes (ours). */
  currentPassword: string;
}

/** The body of PUT user: only what changed; `password` only when provided (§5). */
export interface ProfileUpdateBody {
  email?: string;
  username?: string;
  bio?: string | null;
  password?: string;
  current_password?: string;
}

/** Form fields an error belongs to. */
export type ProfileField = 'email' | 'username' | 'bio' | 'password' | 'passwordConfirm' | 'currentPassword';
/** Field → i18n key of its error (profile.errors.*). */
export type FieldErrors = Partial<Record<ProfileField, string>>;

export const USERNAME_MAX = 100;
export const BIO_MAX = 500;
export const PASSWORD_MIN = 8;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form's starting values for `user`. */
export const formOf = (user: ProfileUser): ProfileFormValues => ({
  email: user.email,
  username: user.username,
  bio: user.bio ?? '',
  password: '',
  passwordConfirm: '',
  currentPassword: '',
});

/** Whether saving `values` needs the current password: the email changes or a password is given. */
export function needsCurrentPassword(
  values: Pick<ProfileFormValues, 'email' | 'password'>,
  user: ProfileUser,
): boolean {
  return values.email.trim().toLowerCase() !== user.email.toLowerCase() || values.password !== '';
}

/** Field errors of `values` (i18n keys under profile.errors), empty when the form may be sent. */
export function validateProfile(values: ProfileFormValues, user: ProfileUser): FieldErrors {
  const errors: FieldErrors = {};
  const email = values.email.trim();
  if (email === '') errors.email = 'emailRequired';
  else if (!EMAIL.test(email) || email.length > 254) errors.email = 'emailInvalid';
  const username = values.username.trim();
  if (username === '') errors.username = 'usernameRequired';
  else if (username.length > USERNAME_MAX) errors.username = 'usernameTooLong';
  if (values.bio.length > BIO_MAX) errors.bio = 'bioTooLong';
  if (values.password !== '' && values.password.length < PASSWORD_MIN) errors.password = 'passwordTooShort';
  if (values.password !== values.passwordConfirm) errors.passwordConfirm = 'passwordMismatch';
  if (needsCurrentPassword(values, user) && values.currentPassword === '') {
    errors.currentPassword = 'currentPasswordRequired';
  }
  return errors;
}

/** The PUT user body for `values` against the saved `user`: changed fields only, the password only when given. */
export function profileUpdateOf(values: ProfileFormValues, user: ProfileUser): ProfileUpdateBody {
  const body: ProfileUpdateBody = {};
  const email = values.email.trim().toLowerCase();
  if (email !== user.email.toLowerCase()) body.email = email;
  const username = values.username.trim();
  if (username !== user.username) body.username = username;
  const bio = values.bio.trim();
  if (bio !== (user.bio ?? '')) body.bio = bio === '' ? null : bio;
  if (values.password !== '') body.password = values.password;
  if (needsCurrentPassword(values, user)) body.current_password = values.currentPassword;
  return body;
}

/** The server's error code → the field it is about (the rest are shown above the form). */
export function fieldOfCode(code: string | undefined): ProfileField | null {
  if (code === 'Wrong_password') return 'currentPassword';
  if (code === 'Email_taken') return 'email';
  return null;
}

/** The `code` of a rejected call (ApiRequestError), if any. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
