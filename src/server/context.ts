/**
 * What every route module receives: configuration, database, token signer, signalling presence and the device
 * tunnels (remote-app proxy).
 */
import type { ServerConfig } from './config';
import type { Db } from './db';
import type { TokenSigner } from './auth/tokens';
import type { Presence } from './signalling/presence';
import type { Tunnels } from './tunnel/tunnels';
import type { Readiness } from './readiness';

export interface ServerContext {
  config: ServerConfig;
  db: Db;
  tokens: TokenSigner;
  presence: Presence;
  tunnels: Tunnels;
  /** What GET /api/ready checks (issue 15); set by startServer. */
  readiness?: Readiness;
}
