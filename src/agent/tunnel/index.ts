/** The agent's device tunnel (see client.ts): startTunnelClient and its types. */
export { startTunnelClient, type TunnelClient, type TunnelClientOptions, type TunnelTarget } from './client';
