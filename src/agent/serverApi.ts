/**
 * The agent's only way to the server: the agent-facing calls of the REST route table (src/protocol/routes.ts),
 * with the device token in `Authorization: Token {deviceToken}`. Every answer is validated with its route's
 * zod schema; tests replace the whole module with a fake `ServerApi`.
 *
 *   agent.me                → { device_id, label, chipset_id, jetpack }
 *   signalling.jwks         → JSON Web Key Set (grant verification keys)
 *   signalling.iceServers   ?deviceId → { servers, policy?, expires_at? }
 *   agent.registerCameras   (RegisterCamerasRequest) → { ok: true }
 *   agent.ipCameras         → DeviceIpCamerasResponse { cameras: [{ id, label, url }] }
 */
import { z } from 'zod';
import type { JSONWebKeySet } from 'jose';
import {
  RegisterCamerasRequest,
  routeUrl,
  type DeviceIpCamerasResponse,
  type IceServer,
  type IceServersResponse,
} from '../protocol';
import { restRoutes, type RestRoutes } from '../protocol/routes';

/**
 * agent.me: who this device token belongs to (read leniently: defaults for fields an older server leaves out). chipset_id '0' = x86, other = Jetson (§3, §9). */
export const DeviceMe = z.object({
  device_id: z.string().min(1),
  label: z.string().default(''),
  chipset_id: z.union([z.string(), z.number()]).transform(String).nullable().default(null),
  jetpack: z.string().nullable().default(null),
  /** The device's stream quota (issue 15, README "Stream quota"); absent when the server does not send it. */
  max_streams: z.number().int().nonnegative().nullish(),
});
export type DeviceMe = z.infer<typeof DeviceMe>;

/** The calls the agent makes to the server. */
export interface ServerApi {
  /** The device behind the token. Throws TokenRefusedError on 401/403. */
  me(): Promise<DeviceMe>;
  /** The server's public keys for grant verification. */
  jwks(): Promise<JSONWebKeySet>;
  /** ICE servers for the agent's peer connections (may be []). */
  iceServers(deviceId: string): Promise<IceServer[]>;
  /**
   * The whole ICE answer: servers (with TURN credentials minted for this device), policy, expires_at (ms since
   * epoch). Optional for fakes: the agent falls back to `iceServers`.
   */
  iceConfig?(deviceId: string): Promise<IceServersResponse>;
  /** Registers the device's physical cameras with the server. */
  registerCameras(request: z.input<typeof RegisterCamerasRequest>): Promise<void>;
  /** The IP cameras this device reaches (§3 IP camera), as the server lists them. */
  ipCameras(): Promise<z.infer<typeof DeviceIpCamerasResponse>['cameras']>;
}

/** The server refused the device token (401/403): the agent cannot run with it. */
export class TokenRefusedError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TokenRefusedError';
  }
}

/** A non-auth HTTP failure (status ≥ 400) or an answer of the wrong shape. */
export class ServerApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ServerApiError';
  }
}

/**
 * HTTP implementation. `serverUrl` is the server's origin (optionally with a base path), e.g.
 * 'http://127.0.0.1:8080'. Requests time out after `timeoutMs` (default 10 s).
 */
export function createServerApi(
  serverUrl: string,
  deviceToken: string,
  options: { timeoutMs?: number; fetch?: typeof fetch } = {},
): ServerApi {
  const origin = new URL(serverUrl.endsWith('/') ? serverUrl : `${serverUrl}/`);
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function call<T>(
    name: keyof RestRoutes,
    schema: z.ZodType<T>,
    input: { query?: Record<string, string>; body?: unknown } = {},
  ): Promise<T> {
    const { method, path } = restRoutes[name];
    const body = input.body;
    // The route's path is absolute ('/api/…'); a server URL with a base path keeps it as a prefix.
    const url = new URL(routeUrl({ path }, undefined, input.query).replace(/^\//, ''), origin);
    const res = await doFetch(url, {
      method,
      headers: {
        Authorization: `Token ${deviceToken}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: reported below with the status
    }
    if (res.status === 401 || res.status === 403) {
      const err = z.object({ code: z.string(), message: z.string() }).safeParse(json);
      throw new TokenRefusedError(
        res.status,
        err.success ? err.data.code : 'Unauthorized',
        `The server refused the device token (${res.status}${err.success ? ` ${err.data.code}: ${err.data.message}` : ''}). ` +
          'Generate a new device token in the console and start the agent with it.',
      );
    }
    if (!res.ok)
      throw new ServerApiError(
        res.status,
        `${method} ${url.pathname} answered ${res.status}: ${text.slice(0, 200)}`,
      );
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new ServerApiError(
        res.status,
        `${method} ${url.pathname} answered an unexpected shape: ${parsed.error.message}`,
      );
    }
    return parsed.data;
  }

  return {
    me: () => call('agent.me', DeviceMe),
    jwks: async () => (await call('signalling.jwks', restRoutes['signalling.jwks'].answer)) as JSONWebKeySet,
    iceServers: async (deviceId) =>
      (
        await call('signalling.iceServers', restRoutes['signalling.iceServers'].answer, {
          query: { deviceId },
        })
      ).servers,
    iceConfig: (deviceId) =>
      call('signalling.iceServers', restRoutes['signalling.iceServers'].answer, { query: { deviceId } }),
    registerCameras: async (request) => {
      await call('agent.registerCameras', restRoutes['agent.registerCameras'].answer, {
        body: RegisterCamerasRequest.parse(request),
      });
    },
    ipCameras: async () => (await call('agent.ipCameras', restRoutes['agent.ipCameras'].answer)).cameras,
  };
}
