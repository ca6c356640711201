/**
 * Device-link grants (team brief "Tokens", ARCHITECTURE "Who may talk to a device"): a short-lived EdDSA JWT
 * the server issues only to the owner of a device, with claims { typ:'grant', sub, device_id, browser_id }.
 * The agent verifies signature and expiry with the server's JWKS, then that device_id is its own and
 * browser_id is the PeerJS peer on the other end of the data connection. Keys are refetched once when a
 * grant names an unknown key id (key rotation), at most once per REFETCH_COOLDOWN_MS. A grant is single-use
 * (issue 15): its `jti` is remembered until the grant expires, and a second link opened with it is refused
 * ('reused').
 */
import { createLocalJWKSet, errors, jwtVerify } from 'jose';
import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import { DeviceGrantClaims } from '../../protocol';

/** Why a grant was refused. */
export type GrantRefusal =
  'expired' | 'wrong_device' | 'wrong_browser' | 'bad_signature' | 'invalid' | 'reused';

/** A refused grant; `reason` is machine-readable, `message` is for the user. */
export class GrantError extends Error {
  constructor(
    readonly reason: GrantRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'GrantError';
  }
}

const REFETCH_COOLDOWN_MS = 10_000;
/** Allowed clock difference between server and device, seconds. */
const CLOCK_TOLERANCE_S = 5;

export interface GrantVerifierOptions {
  /** This device's id. */
  deviceId: string;
  /** Current key set (fetched at start-up). */
  jwks: JSONWebKeySet;
  /** Fetches the key set again (unknown key id). */
  refetchJwks?: () => Promise<JSONWebKeySet>;
}

/** Verifies grants for one device. */
export interface GrantVerifier {
  /** Resolves with the grant's claims, or rejects with GrantError. */
  verify(grant: string, browserId: string): Promise<DeviceGrantClaims>;
}

export function createGrantVerifier(options: GrantVerifierOptions): GrantVerifier {
  let keySet = createLocalJWKSet(options.jwks);
  let lastRefetch = 0;
  let refetching: Promise<void> | null = null;
  /** jti → when the grant expires (ms): grants already used, kept until they could not be used anyway. */
  const used = new Map<string, number>();

  const getKey: JWTVerifyGetKey = async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (err) {
      const canRefetch = options.refetchJwks && Date.now() - lastRefetch >= REFETCH_COOLDOWN_MS;
      if (!(err instanceof errors.JWKSNoMatchingKey) || !canRefetch) throw err;
      refetching ??= (async () => {
        lastRefetch = Date.now();
        try {
          keySet = createLocalJWKSet(await options.refetchJwks!());
        } finally {
          refetching = null;
        }
      })();
      await refetching;
      return keySet(header, token);
    }
  };

  return {
    async verify(grant, browserId) {
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(grant, getKey, {
          algorithms: ['EdDSA'],
          requiredClaims: ['exp'],
          clockTolerance: CLOCK_TOLERANCE_S,
        }));
      } catch (err) {
        if (err instanceof errors.JWTExpired)
          throw new GrantError('expired', 'The grant has expired; ask the server for a new one');
        if (
          err instanceof errors.JWSSignatureVerificationFailed ||
          err instanceof errors.JWKSNoMatchingKey ||
          err instanceof errors.JOSEAlgNotAllowed
        ) {
          throw new GrantError('bad_signature', 'The grant is not signed by the server');
        }
        throw new GrantError(
          'invalid',
          `The grant is not valid: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      if (payload.typ !== 'grant') throw new GrantError('invalid', 'The token is not a device grant');
      const claims = DeviceGrantClaims.safeParse(payload);
      if (!claims.success)
        throw new GrantError('invalid', 'The grant lacks sub, device_id, browser_id or jti');
      if (claims.data.device_id !== options.deviceId) {
        throw new GrantError('wrong_device', 'The grant is for another device');
      }
      if (claims.data.browser_id !== browserId) {
        throw new GrantError('wrong_browser', 'The grant is for another browser');
      }
      const now = Date.now();
      for (const [jti, expiresMs] of used) if (expiresMs < now) used.delete(jti);
      if (used.has(claims.data.jti)) {
        throw new GrantError('reused', 'The grant has been used already; ask the server for a new one');
      }
      used.set(claims.data.jti, Number(payload.exp) * 1000 + CLOCK_TOLERANCE_S * 1000);
      return claims.data;
    },
  };
}
