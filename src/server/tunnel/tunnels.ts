/** What ServerContext.tunnels holds (apart from index.ts, which needs the server context itself). */
import type { TunnelHub } from './hub';
import type { RemoteProxy } from './proxy';
import type { RemoteSessions } from './session';

export interface Tunnels {
  hub: TunnelHub;
  sessions: RemoteSessions;
  proxy: RemoteProxy;
}
