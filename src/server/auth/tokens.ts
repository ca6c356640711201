/**
 * Signed tokens (team brief "Tokens"): JWTs, EdDSA Ed25519, claim `typ` tells what a token is for.
 *   access  { sub: userId, sid? }                        REST `Authorization: Token …` (spec §7), TTL configurable
 *   refresh { sub: userId, jti, sid? }                   POST new_access_token (rotated, stored by jti)
 *   sid: the session's id (refresh_tokens.session_id, kept through rotations); tokens signed before sessions
 *   had ids carry none
 *   browser { sub: userId, browser_id }                  signalling, only for peer id = browser_id
 *   device  { sub: ownerId, device_id, jti }             signalling + agent REST, 60 days (§9), jti on the device row
 *   grant   { sub: userId, device_id, browser_id }       first message on a device link, 60 s
 */
import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';
import { z } from 'zod';
import { SIGNING_ALG, type SigningKey } from './keys';

export const TOKEN_ISSUER = 'edge-ai-console';

export type TokenType = 'access' | 'refresh' | 'browser' | 'device' | 'grant';

const base = { sub: z.string().min(1), exp: z.number(), iat: z.number() };
const CLAIMS = {
  access: z.object({ typ: z.literal('access'), sid: z.string().uuid().optional(), ...base }),
  refresh: z.object({
    typ: z.literal('refresh'),
    jti: z.string().uuid(),
    sid: z.string().uuid().optional(),
    ...base,
  }),
  browser: z.object({ typ: z.literal('browser'), browser_id: z.string().min(1), ...base }),
  device: z.object({
    typ: z.literal('device'),
    device_id: z.string().min(1),
    jti: z.string().uuid(),
    ...base,
  }),
  grant: z.object({ typ: z.literal('grant'), device_id: z.string(), browser_id: z.string(), ...base }),
};
export type Claims<T extends TokenType> = z.infer<(typeof CLAIMS)[T]>;

/** Why a token was refused: 'expired' (exp passed) or 'invalid' (anything else). */
export class TokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'Token expired' : 'Invalid token');
    this.name = 'TokenError';
  }
}

/** Verified tokens remembered (oldest dropped first beyond it): about 0.5 KB each. */
export const VERIFIED_CACHE_MAX = 10_000;
/** Longer tokens are verified every time and never remembered. */
const VERIFIED_CACHE_TOKEN_MAX = 4096;

/**
 * Signs and verifies every token kind with the server's key.
 *
 * A token whose signature and issuer passed is remembered with its payload until its `exp` (at most
 * VERIFIED_CACHE_MAX tokens), so the next request with it skips the Ed25519 verification (≈ 0.4 ms of CPU per
 * request under the issue 15 load bench). Expiry and the claims of the asked `typ` are still checked on every
 * call, and revocation is not the signature's business: sessions, device token ids and grants are checked by
 * their callers against the database each time.
 */
export class TokenSigner {
  private readonly verified = new Map<string, JWTPayload & { exp: number }>();

  constructor(private readonly key: SigningKey) {}

  /** JWKS document (public keys) for GET .well-known/jwks.json. */
  jwks(): { keys: (JWK & { kty: string })[] } {
    return { keys: [{ ...this.key.publicJwk, kty: this.key.publicJwk.kty ?? 'OKP' }] };
  }

  /** Signs `claims` (must include typ and sub) valid for `ttlS` seconds. Returns the JWT and its expiry (s). */
  async sign(claims: JWTPayload & { typ: TokenType; sub: string }, ttlS: number) {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + Math.max(1, Math.round(ttlS));
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: SIGNING_ALG, kid: this.key.kid, typ: 'JWT' })
      .setIssuer(TOKEN_ISSUER)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(this.key.privateKey);
    return { token, exp };
  }

  /** New random token id (uuid). */
  newJti(): string {
    return randomUUID();
  }

  /**
   * Verifies signature, issuer, expiry and the claims of `typ`.
   * @throws TokenError('expired') when only the expiry fails; TokenError('invalid') otherwise.
   */
  async verify<T extends TokenType>(token: string, typ: T): Promise<Claims<T>> {
    const payload = this.verified.get(token) ?? (await this.verifySignature(token));
    // jose's rule (no clock tolerance): expired once `exp` is not after now, in whole seconds.
    if (payload.exp <= Math.floor(Date.now() / 1000)) {
      this.verified.delete(token);
      throw new TokenError('expired');
    }
    const parsed = CLAIMS[typ].safeParse(payload);
    if (!parsed.success) throw new TokenError('invalid');
    return parsed.data as Claims<T>;
  }

  /** Signature, issuer and expiry by jose; remembers the payload when it has a numeric `exp`. */
  private async verifySignature(token: string): Promise<JWTPayload & { exp: number }> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.key.publicKey, {
        issuer: TOKEN_ISSUER,
        algorithms: [SIGNING_ALG],
      }));
    } catch (err) {
      throw new TokenError(err instanceof errors.JWTExpired ? 'expired' : 'invalid');
    }
    if (typeof payload.exp !== 'number') throw new TokenError('invalid');
    const checked = payload as JWTPayload & { exp: number };
    if (token.length <= VERIFIED_CACHE_TOKEN_MAX) {
      this.verified.set(token, checked);
      if (this.verified.size > VERIFIED_CACHE_MAX) this.verified.delete(this.verified.keys().next().value!);
    }
    return checked;
  }

  /** Reads a token's claims after checking its signature but not its expiry (logout of an old session). */
  async verifyIgnoringExpiry<T extends TokenType>(token: string, typ: T): Promise<Claims<T> | null> {
    try {
      const { payload } = await jwtVerify(token, this.key.publicKey, {
        issuer: TOKEN_ISSUER,
        algorithms: [SIGNING_ALG],
        currentDate: new Date(0),
      });
      const parsed = CLAIMS[typ].safeParse(payload);
      return parsed.success ? (parsed.data as Claims<T>) : null;
    } catch {
      return null;
    }
  }
}
