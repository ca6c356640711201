/**
 * Messages on the device link: one PeerJS data connection per (browser, device), JSON serialisation.
 * ARCHITECTURE "The device link":
 *   browser → agent  hello { grant }                   first message; the agent closes the link without it
 *   agent → browser  hello.ok { device_id } | hello.error { error }
 *   browser → agent  request { process, requestId, payload }
 *   agent → browser  reply { process, requestId, ok: true, data } | { ..., ok: false, error: { code, message } }
 *                    progress { process, requestId, data }   (long commands, before the final reply)
 *                    event { name, data }                    (pushed by the agent: stream status, …)
 */
import { z } from 'zod';

/** Error codes of device replies. */
export const LINK_ERROR_CODES = {
  unknownProcess: 'unknown_process',
  invalidPayload: 'invalid_payload',
  malformedMessage: 'malformed_message',
  unauthorized: 'unauthorized',
  internal: 'internal_error',
  notFound: 'not_found',
  busy: 'busy',
  /** §7 send-sdp failure. */
  inferenceEngineError: 'inferenceEngineError',
  timeout: 'timeout',
} as const;

export const LinkError = z.object({ code: z.string(), message: z.string() });
export type LinkError = z.infer<typeof LinkError>;

export const HelloMessage = z.object({ type: z.literal('hello'), grant: z.string().min(1).max(4096) });
export const HelloOkMessage = z.object({ type: z.literal('hello.ok'), device_id: z.string() });
export const HelloErrorMessage = z.object({ type: z.literal('hello.error'), error: LinkError });

export const RequestMessage = z.object({
  type: z.literal('request'),
  process: z.string().min(1).max(100),
  requestId: z.string().min(1).max(100),
  payload: z.unknown().optional(),
});
export type RequestMessage = z.infer<typeof RequestMessage>;

export const ReplyMessage = z.discriminatedUnion('ok', [
  z.object({
    type: z.literal('reply'),
    process: z.string(),
    requestId: z.string(),
    ok: z.literal(true),
    data: z.unknown(),
  }),
  z.object({
    type: z.literal('reply'),
    process: z.string(),
    requestId: z.string(),
    ok: z.literal(false),
    error: LinkError,
  }),
]);
export type ReplyMessage = z.infer<typeof ReplyMessage>;

export const ProgressMessage = z.object({
  type: z.literal('progress'),
  process: z.string(),
  requestId: z.string(),
  data: z.unknown(),
});
export type ProgressMessage = z.infer<typeof ProgressMessage>;

/** Agent-pushed events. stream.status: a stream's state changed on the device (e.g. camera gone). */
export const EventMessage = z.object({
  type: z.literal('event'),
  name: z.string(),
  data: z.unknown(),
});

/**
 * §9 keep-alive, both ways: each side sends one every LINK_KEEPALIVE_INTERVAL_MS on a ready link (the agent
 * as an `event` named 'keepalive'), and closes a link silent for LINK_SILENCE_TIMEOUT_MS — a closed tab or a
 * killed agent never says goodbye, and nothing may stay half-open.
 */
export const KeepAliveMessage = z.object({ type: z.literal('keepalive') });

/** Everything the browser may send. */
export const BrowserToAgent = z.discriminatedUnion('type', [HelloMessage, RequestMessage, KeepAliveMessage]);
export type BrowserToAgent = z.infer<typeof BrowserToAgent>;
/** Everything the agent may send. */
export const AgentToBrowser = z.union([
  HelloOkMessage,
  HelloErrorMessage,
  ReplyMessage,
  ProgressMessage,
  EventMessage,
]);
export type AgentToBrowser = z.infer<typeof AgentToBrowser>;
