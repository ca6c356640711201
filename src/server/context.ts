/** What every route module receives: configuration, database, token signer and signalling presence. */
import type { ServerConfig } from './config';
import type { Db } from './db';
import type { TokenSigner } from './auth/tokens';
import type { Presence } from './signalling/presence';

export interface ServerContext {
  config: ServerConfig;
  db: Db;
  tokens: TokenSigner;
  presence: Presence;
}
