/**
 * Request → reply for one link message (ARCHITECTURE "The device link"): validates the message
 * (RequestMessage), looks the process up in the registry, validates the payload with the process's request
 * schema, runs the handler and wraps the outcome in a ReplyMessage. Never throws: every failure becomes an
 * error reply with a LINK_ERROR_CODES code. Reply data is not validated on the way out.
 */
import {
  COMMAND_TEXT_MAX_CHARS,
  LINK_ERROR_CODES,
  RequestMessage,
  deviceCommands,
  findTextProblem,
  isDeviceProcess,
} from '../../protocol';
import type { ProgressMessage, ReplyMessage } from '../../protocol';
import { CommandError } from '../commands/errors';
import type { CallScope, Handlers } from '../commands/registry';
import type { Logger } from '../log';
import { errorMessage } from '../log';

type ErrorReply = Extract<ReplyMessage, { ok: false }>;

const errorReply = (process: string, requestId: string, code: string, message: string): ErrorReply => ({
  type: 'reply',
  process,
  requestId,
  ok: false,
  error: { code, message },
});

/** A string field of an object-like value, else ''. */
const stringField = (value: unknown, key: string): string => {
  if (typeof value !== 'object' || value === null) return '';
  const v = (value as Record<string, unknown>)[key];
  return typeof v === 'string' ? v.slice(0, 100) : '';
};

/**
 * Parses a raw link message: an object, or a JSON string of one (a client without JSON serialisation).
 * Returns undefined when it is neither.
 */
export function parseRawMessage(raw: unknown): Record<string, unknown> | undefined {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Handles one message that should be a request. Resolves with the reply to send: ok with the handler's data,
 * or an error reply — malformed_message (not a request object, missing/invalid requestId or process),
 * unknown_process, invalid_payload (payload fails the request schema), the code of a thrown CommandError,
 * or internal_error (any other throw). `sendProgress` carries the handler's progress messages (link.ts
 * ProgressMessage) of this request until its reply; `signal` (CallScope.signal) aborts when the link closes.
 */
export async function dispatchRequest<C>(
  raw: unknown,
  handlers: Handlers<C>,
  ctx: C,
  logger: Logger,
  sendProgress?: (message: ProgressMessage) => void,
  signal?: AbortSignal,
): Promise<ReplyMessage> {
  const message = parseRawMessage(raw);
  if (!message) {
    return errorReply('', '', LINK_ERROR_CODES.malformedMessage, 'A message must be a JSON object');
  }
  const parsed = RequestMessage.safeParse(message);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'message'}: ${i.message}`)
      .join('; ');
    return errorReply(
      stringField(message, 'process'),
      stringField(message, 'requestId'),
      LINK_ERROR_CODES.malformedMessage,
      `Not a request message (${issues})`,
    );
  }
  const { process, requestId, payload } = parsed.data;
  if (!isDeviceProcess(process)) {
    return errorReply(process, requestId, LINK_ERROR_CODES.unknownProcess, `Unknown process '${process}'`);
  }
  // The text rule of every boundary (src/protocol/route.ts): no NUL, unpaired surrogate or oversized string.
  const textProblem = findTextProblem(payload, 'payload', COMMAND_TEXT_MAX_CHARS);
  if (textProblem) {
    return errorReply(
      process,
      requestId,
      LINK_ERROR_CODES.invalidPayload,
      `Invalid payload for '${process}': ${textProblem.path}: ${textProblem.message}`,
    );
  }
  const schema = deviceCommands[process].request;
  const input = schema.safeParse(payload ?? {});
  if (!input.success) {
    const issues = input.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ');
    return errorReply(
      process,
      requestId,
      LINK_ERROR_CODES.invalidPayload,
      `Invalid payload for '${process}': ${issues}`,
    );
  }
  try {
    const handler = handlers[process] as (payload: unknown, ctx: C, scope: CallScope) => Promise<unknown>;
    let ended = false;
    const scope: CallScope = {
      signal,
      progress: (data) => {
        if (!ended) sendProgress?.({ type: 'progress', process, requestId, data });
      },
    };
    const data = await handler(input.data, ctx, scope).finally(() => {
      ended = true;
    });
    return { type: 'reply', process, requestId, ok: true, data };
  } catch (err) {
    if (err instanceof CommandError) return errorReply(process, requestId, err.code, err.message);
    logger.error(`process '${process}' failed`, { requestId, error: errorMessage(err) });
    return errorReply(
      process,
      requestId,
      LINK_ERROR_CODES.internal,
      `The device could not run '${process}': ${errorMessage(err)}`,
    );
  }
}
