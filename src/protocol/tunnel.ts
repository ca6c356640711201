/**
 * The device tunnel's wire protocol (spec §7 request_remote_device; the original's frp reverse tunnel, §7
 * `restart-frp-client`), shared by the agent (src/agent/tunnel/client.ts) and the server (src/server/tunnel/).
 * Zod only, no Node or server imports, so both sides can load it.
 *
 * Two kinds of WebSocket, both opened by the agent with `Authorization: Token <device token>`:
 * - control `GET /api/agent/tunnel`: JSON text messages below, each ≤ TUNNEL_CONTROL_MAX_BYTES; one per device
 *   (a newer one replaces the older, closed with 4000). The server pings every `pingMs`; the agent drops a
 *   socket that stays silent for longer than its `idleMs` and reconnects.
 * - data `GET /api/agent/tunnel/<id>`: one per proxied TCP connection, after an `open` for that id; binary
 *   frames carry the connection's bytes both ways (no framing of ours), closing it closes the connection.
 *
 * server → agent  { type: 'open',  id, container }   connect to the container's web app, then open the data
 *                                                     socket for `id`, or answer `refused`
 *                 { type: 'check', id, container }   does the container have a web app? → `checked`
 * agent → server  { type: 'refused', id, reason }    no such web app, or connecting to it failed
 *                 { type: 'checked', id, ok, reason? }
 */
import { z } from 'zod';

/** Path of the control socket; data sockets are `${TUNNEL_PATH}/<id>`. */
export const TUNNEL_PATH = '/api/agent/tunnel';
/** Path of the data socket of connection `id`. */
export const tunnelDataPath = (id: string): string => `${TUNNEL_PATH}/${id}`;
/** Largest control message either side accepts, bytes (larger frames close the socket with 1009). */
export const TUNNEL_CONTROL_MAX_BYTES = 16 * 1024;
/** Largest data frame either side accepts, bytes (the sender's chunks are ≤ 64 KiB socket reads). */
export const TUNNEL_DATA_MAX_FRAME_BYTES = 4 * 1024 * 1024;
/** Close code of a control socket replaced by a newer one of the same device. */
export const TUNNEL_CLOSE_REPLACED = 4000;
/** Close code of a control socket closed for abuse (malformed or too many messages). */
export const TUNNEL_CLOSE_POLICY = 1008;

/** A connection / request id: 16–64 URL-safe characters (the server makes 22 random base64url ones). */
export const TunnelId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);
/** A container named by id (full or 12-character prefix) or name, as Docker accepts it. */
export const TunnelContainer = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/);

export const ServerToAgent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('open'), id: TunnelId, container: TunnelContainer }),
  z.object({ type: z.literal('check'), id: TunnelId, container: TunnelContainer }),
]);
export type ServerToAgent = z.infer<typeof ServerToAgent>;

export const AgentToServer = z.discriminatedUnion('type', [
  z.object({ type: z.literal('refused'), id: TunnelId, reason: z.string().max(500) }),
  z.object({
    type: z.literal('checked'),
    id: TunnelId,
    ok: z.boolean(),
    reason: z.string().max(500).optional(),
  }),
]);
export type AgentToServer = z.infer<typeof AgentToServer>;

/** Parses one control message (text) with `schema`; null when it is not JSON or not of the schema. */
export function parseControl<T>(schema: z.ZodType<T>, data: unknown, isBinary: boolean): T | null {
  if (isBinary) return null;
  const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? '' : String(data);
  if (text.length === 0 || text.length > TUNNEL_CONTROL_MAX_BYTES) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
