/**
 * API keys (issue 13 "keys-secrets", Grafana-style; spec §7 "Requests carry the header Authorization: Token
 * {token}"). A key is `edk_` + 43 base64url characters (32 random bytes); only its SHA-256 (hex) is stored —
 * a key is high-entropy, so a fast hash is enough to make the table useless to a reader (as GitHub and Grafana
 * do), and lookup is one indexed equality.
 *
 * A key authenticates REST calls with the same header as an access token (src/server/auth/guard.ts hands any
 * token starting with `edk_` to `authenticateApiKey`). Scope, checked on every call (`scopeProblem`):
 *   read  GET/HEAD calls only;
 *   full  every call its user may make,
 *   and neither: admin routes, API key management (create/revoke), two-factor settings.
 * Errors: 401 Api_key_invalid (unknown), Api_key_revoked, Api_key_expired; 403 Api_key_scope.
 * last_used_at is written at most once a minute per key (one conditional UPDATE, not a write per call).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  API_KEY_PREFIX,
  API_KEY_SHOWN_CHARS,
  PROFILE_ERROR_CODES,
  type ApiKey,
  type ApiKeyScope,
} from '../../protocol/profile';
import type { RestRoute } from '../../protocol/route';
import { restRoutes } from '../../protocol/routes';
import type { Db } from '../db';
import { apiKeys, users } from '../db/schema';
import { HttpError, unauthorized } from '../errors';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
type UserRow = typeof users.$inferSelect;

/** How often last_used_at is written at most, per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Routes no API key may call, whatever its scope: a leaked key must not mint keys or change sign-in. */
export const KEY_FORBIDDEN_ROUTES: ReadonlySet<string> = new Set([
  'profile.createApiKey',
  'profile.revokeApiKey',
  'accounts.twoFactorSetup',
  'accounts.twoFactorEnable',
  'accounts.twoFactorDisable',
]);

/** True when `token` has the shape of an API key (only the prefix: the guard's choice of verifier). */
export const isApiKey = (token: string): boolean => token.startsWith(API_KEY_PREFIX);

/** SHA-256 hex of a key (what the table stores). */
export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** A new key: the secret (shown once), its hash and its shown prefix. */
export function newApiKey(): { secret: string; hash: string; prefix: string } {
  const secret = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { secret, hash: hashApiKey(secret), prefix: secret.slice(0, API_KEY_SHOWN_CHARS) };
}

/** A key's state at `now`. */
export function keyState(row: Pick<ApiKeyRow, 'revokedAt' | 'expiresAt'>, now = new Date()): ApiKey['state'] {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** A row as listed. */
export function toApiKey(row: ApiKeyRow, now = new Date()): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as ApiKeyScope,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    state: keyState(row, now),
  };
}

/** Route table entries by "METHOD path" (the registered URL), to know which route a request reached. */
const ROUTE_BY_KEY = new Map<string, { name: string; route: RestRoute }>(
  Object.entries(restRoutes as Record<string, RestRoute>).map(([name, route]) => [
    `${route.method} ${route.path}`,
    { name, route },
  ]),
);

/** What a scope check needs of a request: its method and the route pattern it matched (null: none). */
export interface CallShape {
  method: string;
  url: string | null;
}

/** Why a key of `scope` may not make `call`, or null when it may (the rule in the module comment). */
export function scopeProblem(scope: ApiKeyScope, call: CallShape): string | null {
  const entry = call.url ? ROUTE_BY_KEY.get(`${call.method.toUpperCase()} ${call.url}`) : undefined;
  if (entry?.route.auth === 'admin') return 'API keys cannot call admin routes.';
  if (entry && KEY_FORBIDDEN_ROUTES.has(entry.name)) {
    return 'API keys cannot manage API keys or two-factor sign-in; sign in instead.';
  }
  const method = call.method.toUpperCase();
  if (scope === 'read' && method !== 'GET' && method !== 'HEAD') {
    return 'This API key is read-only: it may only make GET calls.';
  }
  return null;
}

/** Constant-time comparison of two hex hashes of equal length. */
function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The user an API key acts for, after the key and its scope were checked for this request.
 * @throws HttpError 401 Api_key_invalid / Api_key_revoked / Api_key_expired; 403 Api_key_scope.
 */
export async function authenticateApiKey(
  db: Db,
  key: string,
  request: Pick<FastifyRequest, 'method'> & { routeOptions?: { url?: string } },
  now = new Date(),
): Promise<{ user: UserRow; key: ApiKeyRow }> {
  const hash = hashApiKey(key);
  const [found] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.secretHash, hash))
    .limit(1);
  if (!found || !sameHash(found.key.secretHash, hash)) {
    throw unauthorized(PROFILE_ERROR_CODES.apiKeyInvalid, 'This API key is not valid.');
  }
  const state = keyState(found.key, now);
  if (state === 'revoked') throw unauthorized(PROFILE_ERROR_CODES.apiKeyRevoked, 'This API key was revoked.');
  if (state === 'expired') throw unauthorized(PROFILE_ERROR_CODES.apiKeyExpired, 'This API key has expired.');
  const problem = scopeProblem(found.key.scope as ApiKeyScope, {
    method: request.method,
    url: request.routeOptions?.url ?? null,
  });
  if (problem) throw new HttpError(403, PROFILE_ERROR_CODES.apiKeyScope, problem);
  await touchKey(db, found.key.id, now);
  return found;
}

/** Sets last_used_at = now when it is unset or older than LAST_USED_RESOLUTION_MS (one conditional UPDATE). */
export async function touchKey(db: Db, id: string, now = new Date()): Promise<void> {
  const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale))));
}

/** The caller's active keys with this name (names are unique among active keys). */
export async function activeKeyNamed(db: Db, userId: string, name: string): Promise<boolean> {
  const rows = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.userId, userId),
        sql`lower(${apiKeys.name}) = lower(${name})`,
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), sql`${apiKeys.expiresAt} > now()`),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
