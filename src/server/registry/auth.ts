/**
 * Registry authentication (OCI Distribution "token authentication", as Harbor and Distribution do it): a call
 * answered 401 with `WWW-Authenticate: Bearer realm="…",service="…",scope="…"` is retried with a bearer token
 * fetched from `realm?service=…&scope=…` (HTTP Basic with the configured username and password when given,
 * anonymous otherwise); a `Basic realm="…"` challenge is retried with Basic credentials. Tokens are cached per
 * scope until `expires_in` (default 60 s) minus 10 s.
 */

/** One parsed `WWW-Authenticate` challenge: scheme (lower-case) and its parameters (lower-case names). */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/**
 * Parses a `WWW-Authenticate` value such as `Bearer realm="https://h/service/token",service="harbor-registry",
 * scope="repository:p/r:pull"`; null when it names no scheme. Quoted values may hold commas and `\"`.
 */
export function parseChallenge(header: string | null | undefined): Challenge | null {
  if (!header) return null;
  const m = /^\s*([A-Za-z][\w-]*)\s*(.*)$/s.exec(header);
  if (!m) return null;
  const params: Record<string, string> = {};
  const re = /([A-Za-z][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))\s*,?\s*/gy;
  const rest = m[2] ?? '';
  re.lastIndex = 0;
  let p: RegExpExecArray | null;
  while (re.lastIndex < rest.length && (p = re.exec(rest))) {
    params[p[1]!.toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : (p[3] ?? '');
  }
  return { scheme: m[1]!.toLowerCase(), params };
}

/** Registry credentials; both null for an anonymous registry. */
export interface RegistryCredentials {
  username: string | null;
  password: string | null;
}

/** The `Authorization` value of HTTP Basic for `c`, or null when no username is configured. */
export function basicAuthorization(c: RegistryCredentials): string | null {
  if (!c.username) return null;
  return `Basic ${Buffer.from(`${c.username}:${c.password ?? ''}`).toString('base64')}`;
}

/** Thrown when the registry refuses the credentials or its token service fails. */
export class RegistryAuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistryAuthError';
  }
}

/** Fetches and caches bearer tokens for one registry. */
export class TokenCache {
  private readonly tokens = new Map<string, { token: string; expires: number }>();

  constructor(
    private readonly credentials: RegistryCredentials,
    private readonly fetchFn: typeof fetch = fetch,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A bearer token for the challenge (realm, service, scope), from the cache or the realm.
   * @throws RegistryAuthError when the realm is missing or not http(s), or the token service refuses.
   */
  async bearer(challenge: Challenge, signal?: AbortSignal): Promise<string> {
    const { realm, service, scope } = challenge.params;
    if (!realm || !/^https?:\/\//i.test(realm))
      throw new RegistryAuthError('The registry asked for a bearer token without a usable realm.');
    const key = `${realm} ${service ?? ''} ${scope ?? ''}`;
    const cached = this.tokens.get(key);
    if (cached && cached.expires > this.now()) return cached.token;
    const url = new URL(realm);
    if (service) url.searchParams.set('service', service);
    for (const s of (scope ?? '').split(' ').filter(Boolean)) url.searchParams.append('scope', s);
    const basic = basicAuthorization(this.credentials);
    const res = await this.fetchFn(url, {
      headers: basic ? { authorization: basic } : {},
      signal: signal ?? AbortSignal.timeout(15_000),
    });
    if (!res.ok)
      throw new RegistryAuthError(
        `The registry's token service answered ${res.status}${res.status === 401 ? ': check REGISTRY_USERNAME and REGISTRY_PASSWORD' : ''}.`,
      );
    const body = (await res.json().catch(() => null)) as {
      token?: unknown;
      access_token?: unknown;
      expires_in?: unknown;
    } | null;
    const token =
      typeof body?.token === 'string'
        ? body.token
        : typeof body?.access_token === 'string'
          ? body.access_token
          : null;
    if (!token) throw new RegistryAuthError("The registry's token service answered no token.");
    const ttlS = typeof body?.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 60;
    this.tokens.set(key, { token, expires: this.now() + Math.max(0, ttlS - 10) * 1000 });
    return token;
  }
}
