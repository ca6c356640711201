/**
 * Server configuration: the options of `startServer` merged with the environment (ARCHITECTURE "Server").
 * Environment: PORT, HOST, DATA_DIR, DATABASE_URL, STATIC_DIR, LOG_LEVEL, ICE_SERVERS, TURN_URLS, TURN_SECRET,
 * TURN_TTL_S, ICE_TRANSPORT_POLICY (src/server/signalling/turn.ts).
 *
 * The server listens on loopback (127.0.0.1) unless HOST (or `host`) names another address. The demo account's
 * credentials are published (GET /api/demo-account, shown on the login page) only when the server listens on
 * loopback alone: `publishDemoAccount`. Anyone who can reach a server bound beyond loopback could otherwise read
 * an admin's password.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  ACCESS_TOKEN_EXPIRY_S,
  IceServer,
  REFRESH_TOKEN_EXPIRY_S,
  type IceTransportPolicy,
  type Role,
} from '../protocol';
import { hasTurnUrl, parseIceTransportPolicy, parseTurnConfig, type TurnConfig } from './signalling/turn';

/** Options of `startServer` (all optional; the environment and defaults fill the gaps). */
export interface ServerOptions {
  /** TCP port; 0 = any free port. Default env PORT or 8080. */
  port?: number;
  /** Listen address. Default env HOST or '127.0.0.1' (loopback only). */
  host?: string;
  /** Data directory (lock file, embedded PostgreSQL in `pg/`). Default env DATA_DIR or './data'. */
  dataDir?: string;
  /** Use this PostgreSQL server instead of the embedded one. Default env DATABASE_URL. */
  databaseUrl?: string;
  /** Built console to serve (SPA). undefined = env STATIC_DIR, else './dist' when it exists; null = none. */
  staticDir?: string | null;
  /** Demo account: created at start-up and shown on the login page (GET /api/demo-account). */
  demoAccount?: { email: string; password: string } | null;
  /** Access-token lifetime in seconds (spec §9: config-based, default 1 day). */
  accessTokenTtlS?: number;
  /** Refresh-token lifetime in seconds (default 30 days). */
  refreshTokenTtlS?: number;
  /**
   * Seconds after a refresh-token rotation in which a second use of the old token is only refused (two tabs
   * refreshing at once); later, a reuse ends the whole session (src/server/auth/sessions.ts). Default 10.
   */
  refreshReuseGraceS?: number;
  /** Login attempts allowed per minute per (ip, email); default 20. */
  loginRateLimitPerMin?: number;
  /** Login attempts per minute per client address, any e-mail; default env LOGIN_IP_RATE_LIMIT_PER_MIN or 5 × loginRateLimitPerMin. */
  loginIpRateLimitPerMin?: number;
  /** Login attempts per minute on the whole server; default env LOGIN_GLOBAL_RATE_LIMIT_PER_MIN or 50 × loginRateLimitPerMin. */
  loginGlobalRateLimitPerMin?: number;
  /** POST new_access_token per minute per client address; default env REFRESH_RATE_LIMIT_PER_MIN or 60. */
  refreshRateLimitPerMin?: number;
  /**
   * Calls per minute per client address of each other auth route — logout, user-info, verify-auth,
   * register-config (issue 15 "every auth route rate-limited"); default env SESSION_RATE_LIMIT_PER_MIN or 300.
   */
  sessionRateLimitPerMin?: number;
  /** Fastify/pino log level ('silent', 'error', 'info', …). Default env LOG_LEVEL or 'info'. */
  logLevel?: string;
  /**
   * Tests only: embedded PostgreSQL without fsync (initdb --no-sync, fsync=off). Faster, but an OS crash can
   * corrupt the data directory. Default false.
   */
  embeddedPgNoSync?: boolean;
}

/** Fully resolved configuration. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  staticDir: string | null;
  demoAccount: { email: string; password: string } | null;
  /**
   * True when GET /api/demo-account may answer the demo account's credentials: a demo account is configured
   * AND the server listens on loopback only (`isLoopbackHost(host)`). False otherwise: the route must then
   * answer `{ enabled: false }`.
   */
  publishDemoAccount: boolean;
  accessTokenTtlS: number;
  refreshTokenTtlS: number;
  refreshReuseGraceS: number;
  loginRateLimitPerMin: number;
  loginIpRateLimitPerMin: number;
  loginGlobalRateLimitPerMin: number;
  refreshRateLimitPerMin: number;
  sessionRateLimitPerMin: number;
  logLevel: string;
  embeddedPgNoSync: boolean;
  /** ICE servers handed to browsers (env ICE_SERVERS as JSON); [] by default — loopback needs none. */
  iceServers: IceServer[];
  /** TURN relay with minted credentials (env TURN_URLS, TURN_SECRET, TURN_TTL_S); null = none. */
  turn: TurnConfig | null;
  /** env ICE_TRANSPORT_POLICY: 'relay' = browsers and agents use relayed candidates only. Default 'all'. */
  iceTransportPolicy: IceTransportPolicy;
}

/** Roles a freshly created user gets when none are given. */
export const DEFAULT_ROLES: Role[] = ['user'];

/** Parses env ICE_SERVERS (JSON array of RTCIceServer); invalid JSON is reported and ignored. */
export function parseIceServers(
  raw: string | undefined,
  warn: (msg: string) => void = console.warn,
): IceServer[] {
  if (!raw || raw.trim() === '') return [];
  try {
    const parsed = z.array(IceServer).safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data;
    warn(`ICE_SERVERS ignored: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  } catch {
    warn('ICE_SERVERS ignored: not valid JSON');
  }
  return [];
}

/** Default listen address: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';

/**
 * True when `host` accepts connections from this machine only: 127.0.0.0/8, ::1, localhost (and their
 * IPv4-mapped form). '0.0.0.0', '::', '' and any other address or name count as beyond loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice('::ffff:'.length) : h;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** A positive whole number from env `name`, else undefined. */
function envCount(name: string): number | undefined {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

function envPort(): number {
  const raw = process.env.PORT;
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 && n < 65536 ? n : 8080;
}

function defaultStaticDir(): string | null {
  if (process.env.STATIC_DIR) return path.resolve(process.env.STATIC_DIR);
  const dist = path.resolve('dist');
  return existsSync(path.join(dist, 'index.html')) ? dist : null;
}

/**
 * Merges options, environment and defaults. Throws on an invalid port or TTL, and (TurnConfigError) on invalid
 * TURN_URLS / TURN_SECRET / TURN_TTL_S / ICE_TRANSPORT_POLICY.
 */
export function resolveConfig(options: ServerOptions = {}): ServerConfig {
  const port = options.port ?? envPort();
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port: ${port}`);
  const accessTokenTtlS = options.accessTokenTtlS ?? ACCESS_TOKEN_EXPIRY_S;
  const refreshTokenTtlS = options.refreshTokenTtlS ?? REFRESH_TOKEN_EXPIRY_S;
  for (const [name, v] of [
    ['accessTokenTtlS', accessTokenTtlS],
    ['refreshTokenTtlS', refreshTokenTtlS],
  ] as const) {
    if (!Number.isFinite(v) || v <= 0) throw new Error(`Invalid ${name}: ${v}`);
  }
  const host = options.host ?? (process.env.HOST?.trim() || DEFAULT_HOST);
  const demoAccount = options.demoAccount ?? null;
  const loginRateLimitPerMin = options.loginRateLimitPerMin ?? 20;
  const iceServers = parseIceServers(process.env.ICE_SERVERS);
  const turn = parseTurnConfig(process.env);
  const iceTransportPolicy = parseIceTransportPolicy(
    process.env.ICE_TRANSPORT_POLICY,
    turn !== null || hasTurnUrl(iceServers),
  );
  return {
    port,
    host,
    dataDir: path.resolve(options.dataDir ?? process.env.DATA_DIR ?? './data'),
    databaseUrl: options.databaseUrl ?? process.env.DATABASE_URL ?? null,
    staticDir:
      options.staticDir === null
        ? null
        : options.staticDir !== undefined
          ? path.resolve(options.staticDir)
          : defaultStaticDir(),
    demoAccount,
    publishDemoAccount: demoAccount !== null && isLoopbackHost(host),
    accessTokenTtlS,
    refreshTokenTtlS,
    refreshReuseGraceS: options.refreshReuseGraceS ?? 10,
    loginRateLimitPerMin,
    loginIpRateLimitPerMin:
      options.loginIpRateLimitPerMin ?? envCount('LOGIN_IP_RATE_LIMIT_PER_MIN') ?? 5 * loginRateLimitPerMin,
    loginGlobalRateLimitPerMin:
      options.loginGlobalRateLimitPerMin ??
      envCount('LOGIN_GLOBAL_RATE_LIMIT_PER_MIN') ??
      50 * loginRateLimitPerMin,
    refreshRateLimitPerMin: options.refreshRateLimitPerMin ?? envCount('REFRESH_RATE_LIMIT_PER_MIN') ?? 60,
    sessionRateLimitPerMin: options.sessionRateLimitPerMin ?? envCount('SESSION_RATE_LIMIT_PER_MIN') ?? 300,
    logLevel: options.logLevel ?? process.env.LOG_LEVEL ?? 'info',
    embeddedPgNoSync: options.embeddedPgNoSync ?? false,
    iceServers,
    turn,
    iceTransportPolicy,
  };
}
