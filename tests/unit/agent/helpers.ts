/** Test helpers: a local Ed25519 key pair and JWKS, grant signing, a fake ServerApi, a counting camera. */
import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import type { CryptoKey, JSONWebKeySet } from 'jose';
import { SimCamera } from '../../../src/agent/backends/sim/camera';
import type { CaptureHandle, FrameListener } from '../../../src/agent/backends/types';
import type { ServerApi } from '../../../src/agent/serverApi';
import type { ResolutionOption } from '../../../src/protocol';

export interface TestKeys {
  privateKey: CryptoKey;
  jwks: JSONWebKeySet;
  kid: string;
}

/** A fresh Ed25519 key pair and the JWKS with its public key. */
export async function makeKeys(kid = 'test-key-1'): Promise<TestKeys> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = await exportJWK(publicKey);
  return { privateKey, kid, jwks: { keys: [{ ...jwk, kid, alg: 'EdDSA', use: 'sig' }] } };
}

/**
 * Signs a device grant like the server does (a new random jti unless given: grants are single-use);
 * `expiresIn` is a jose time span or an epoch in seconds.
 */
export function signGrant(
  keys: TestKeys,
  claims: { device_id: string; browser_id: string; sub?: string; typ?: string; jti?: string },
  expiresIn: string | number = '60s',
): Promise<string> {
  return new SignJWT({
    typ: claims.typ ?? 'grant',
    device_id: claims.device_id,
    browser_id: claims.browser_id,
    jti: claims.jti ?? randomUUID(),
  })
    .setProtectedHeader({ alg: 'EdDSA', kid: keys.kid })
    .setSubject(claims.sub ?? 'user-1')
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(keys.privateKey);
}

/** A ServerApi answering from memory; registered cameras are recorded; IP cameras from `ipCameraList`. */
export function fakeServerApi(
  deviceId: string,
  keys: TestKeys,
  chipset = '1',
  ipCameras: { id: string; label: string; url: string }[] = [],
): ServerApi & { registered: unknown[]; ipCameraList: { id: string; label: string; url: string }[] } {
  const registered: unknown[] = [];
  return {
    registered,
    /** What ipCameras() answers; tests may change it. */
    ipCameraList: ipCameras,
    me: async () => ({ device_id: deviceId, label: 'Test device', chipset_id: chipset, jetpack: '6.0' }),
    jwks: async () => keys.jwks,
    iceServers: async () => [],
    registerCameras: async (req) => {
      registered.push(req);
    },
    async ipCameras() {
      return [...this.ipCameraList];
    },
  };
}

/** A SimCamera that records how many captures it started and how many of them are still running. */
export class CountingCamera extends SimCamera {
  started = 0;
  running = 0;
  override startCapture(resolution: ResolutionOption, onFrame: FrameListener): CaptureHandle {
    const inner = super.startCapture(resolution, onFrame);
    this.started++;
    this.running++;
    let stopped = false;
    return {
      stop: () => {
        if (stopped) return;
        stopped = true;
        this.running--;
        inner.stop();
      },
    };
  }
}
