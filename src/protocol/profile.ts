/**
 * Profile (spec §2 Profile children, §3 User info, §5 "Profile update sends the password only when provided",
 * §7 `PUT user`, `usage/all_stream_limits`, `generate_token`; issue 13 "Profile"):
 *   PUT    user                    ProfileUpdate → { user_info }; changing email or password needs
 *                                  current_password (403 Wrong_password); 409 Email_taken
 *   POST   profile/avatar/remove   → { user_info } (image null, file removed); the upload is a tus purpose 'avatar'
 *   GET    avatars/:userId         the avatar's bytes (no auth: an <img> sends no Authorization header)
 *   GET    api-keys                → { keys } (never the secret)
 *   POST   api-keys                ApiKeyCreate → { key, secret } (the secret once)
 *   DELETE api-keys/:id            → { key } revoked; 404 when not the caller's
 *   GET    profile/device-tokens   → { tokens } the caller's devices and when their token was issued (§9 60 days)
 *   GET    usage/storage           → StorageUsage (bytes the server stores for the caller)
 *   GET    usage/network           ?days → NetworkUsage (bytes relayed through the reverse tunnel per device and day)
 */
import { z } from 'zod';
import { UserInfo } from './accounts';
import { defineRoutes, Id } from './route';

/** Error codes of the profile routes (plain constants: the console reads them without zod). */
export const PROFILE_ERROR_CODES = {
  /** 403: current_password is missing or wrong for an email or password change. */
  wrongPassword: 'Wrong_password',
  /** 409: another account has this address. */
  emailTaken: 'Email_taken',
  /** 401: an API key that is unknown (or malformed). */
  apiKeyInvalid: 'Api_key_invalid',
  /** 401: an API key its owner revoked. */
  apiKeyRevoked: 'Api_key_revoked',
  /** 401: an API key past its expiry. */
  apiKeyExpired: 'Api_key_expired',
  /** 403: the API key's scope does not allow this route (a read key on a write route, key management, admin). */
  apiKeyScope: 'Api_key_scope',
} as const;

/** Every API key starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'edk_';
/** Characters of a key shown in lists to tell keys apart (prefix + 8). */
export const API_KEY_SHOWN_CHARS = 12;

/** Avatar limits: at most 1 MiB, PNG, JPEG, WebP or GIF (checked on the bytes by the server). */
export const AVATAR_MAX_BYTES = 1024 * 1024;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const AVATAR_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp', '.gif'] as const;

/** Username and bio limits (§5 "Form field limits on the main pages: not shown"; ours). */
export const USERNAME_MAX = 100;
export const BIO_MAX = 500;

const Email = z.string().trim().max(254).email();
const NewPassword = z.string().min(8).max(1024);

/**
 * PUT user (§7: email, username, bio, image, optional password). Fields left out are unchanged; `password` only
 * when provided (§5). `image`: null removes the avatar (an avatar is set by uploading it, purpose 'avatar').
 * `current_password` is required when `email` changes or `password` is given.
 */
export const ProfileUpdate = z
  .object({
    email: Email.optional(),
    username: z.string().trim().min(1).max(USERNAME_MAX).optional(),
    bio: z.string().max(BIO_MAX).nullable().optional(),
    image: z.null().optional(),
    password: NewPassword.optional(),
    current_password: z.string().min(1).max(1024).optional(),
  })
  .strict();
export type ProfileUpdate = z.infer<typeof ProfileUpdate>;
export const ProfileResponse = z.object({ user_info: UserInfo });

/** API key scopes: 'read' = GET calls only; 'full' = every call the user may make except key management and admin. */
export const ApiKeyScope = z.enum(['read', 'full']);
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

/** An API key as listed (never its secret). Times are ISO 8601; expires_at null = never. */
export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  scope: ApiKeyScope,
  /** The key's first API_KEY_SHOWN_CHARS characters. */
  prefix: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  /** active | expired | revoked (at the time of the answer). */
  state: z.enum(['active', 'expired', 'revoked']),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** POST api-keys: a name (1–64, unique among the caller's active keys), a scope, an optional lifetime in days. */
export const ApiKeyCreate = z
  .object({
    name: z.string().trim().min(1).max(64),
    scope: ApiKeyScope,
    expires_in_days: z.number().int().min(1).max(3650).nullable().optional(),
  })
  .strict();
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;
export const ApiKeyCreated = z.object({ key: ApiKey, secret: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;

/** A device and its current token's issue time (null: issued before tracking began, or none). */
export const DeviceTokenInfo = z.object({
  id: z.string(),
  device_id: z.string(),
  label: z.string(),
  issued_at: z.string().nullable(),
  /** issued_at + §9 device token expiry (5184000 s). */
  expires_at: z.string().nullable(),
  has_token: z.boolean(),
  is_active: z.boolean(),
});
export type DeviceTokenInfo = z.infer<typeof DeviceTokenInfo>;

/** What the server stores for the caller, in bytes, by kind; `history` = bytes stored at the end of each UTC day. */
export const StorageUsage = z.object({
  total_bytes: z.number(),
  categories: z.array(
    z.object({
      /** 'models' (model version files), 'avatar' (profile image). */
      category: z.enum(['models', 'avatar']),
      bytes: z.number(),
      files: z.number().int(),
    }),
  ),
  history: z.array(z.object({ day: z.string(), bytes: z.number() })),
});
export type StorageUsage = z.infer<typeof StorageUsage>;

export const NetworkUsageQuery = z.object({ days: z.coerce.number().int().min(1).max(365).default(30) });
/** Bytes relayed through the server's reverse tunnel per device and UTC day (days with traffic only). */
export const NetworkUsage = z.object({
  days: z.number().int(),
  from: z.string(),
  to: z.string(),
  devices: z.array(z.object({ device_id: z.string(), label: z.string() })),
  rows: z.array(
    z.object({
      day: z.string(),
      device_id: z.string(),
      bytes_from_device: z.number(),
      bytes_to_device: z.number(),
    }),
  ),
  /** false: no TURN server runs here, so no TURN relay bytes are counted (peer-to-peer media never passes us). */
  turn_counted: z.literal(false),
});
export type NetworkUsage = z.infer<typeof NetworkUsage>;

export const profileRoutes = defineRoutes({
  'profile.update': {
    method: 'PUT',
    path: '/api/user',
    auth: 'user',
    summary:
      'Updates the caller’s profile (§7 PUT user). password only when provided; email or password changes need current_password.',
    body: ProfileUpdate,
    answer: ProfileResponse,
    errors: [409],
  },
  'profile.removeAvatar': {
    method: 'POST',
    path: '/api/profile/avatar/remove',
    auth: 'user',
    summary: 'Removes the caller’s avatar (image becomes null).',
    answer: ProfileResponse,
  },
  'profile.avatar': {
    method: 'GET',
    path: '/api/avatars/:userId',
    auth: 'none',
    summary: 'A user’s avatar image (image/png, image/jpeg, image/webp or image/gif); 404 when none.',
    params: z.object({ userId: Id }),
    answer: z.unknown(),
    errors: [404],
  },
  'profile.listApiKeys': {
    method: 'GET',
    path: '/api/api-keys',
    auth: 'user',
    summary: 'The caller’s API keys, newest first (never their secrets).',
    answer: z.object({ keys: z.array(ApiKey) }),
  },
  'profile.createApiKey': {
    method: 'POST',
    path: '/api/api-keys',
    auth: 'user',
    summary: 'Creates an API key; its secret is answered once and stored only as a SHA-256 hash.',
    body: ApiKeyCreate,
    answer: ApiKeyCreated,
    errors: [409],
  },
  'profile.revokeApiKey': {
    method: 'DELETE',
    path: '/api/api-keys/:id',
    auth: 'user',
    summary: 'Revokes one of the caller’s API keys (its calls answer 401 Api_key_revoked from then on).',
    params: z.object({ id: Id }),
    answer: z.object({ key: ApiKey }),
    errors: [404],
  },
  'profile.deviceTokens': {
    method: 'GET',
    path: '/api/profile/device-tokens',
    auth: 'user',
    summary: 'The caller’s devices with the issue and expiry time of their current device token.',
    answer: z.object({ tokens: z.array(DeviceTokenInfo) }),
  },
  'profile.storageUsage': {
    method: 'GET',
    path: '/api/usage/storage',
    auth: 'user',
    summary: 'Bytes the server stores for the caller, by kind, and per day over the last 30 days.',
    answer: StorageUsage,
  },
  'profile.networkUsage': {
    method: 'GET',
    path: '/api/usage/network',
    auth: 'user',
    summary: 'Bytes relayed through the reverse tunnel per device of the caller and UTC day.',
    query: NetworkUsageQuery,
    answer: NetworkUsage,
  },
});
