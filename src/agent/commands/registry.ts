/**
 * Handler types of the command registry: one handler per DeviceProcess of src/protocol/commands.ts, given
 * the request payload already parsed by that process's zod schema. `Handlers` is a mapped type over every
 * process, so a process without a handler is a compile error.
 */
import type { z } from 'zod';
import type { CommandReply, DeviceProcess, deviceCommands } from '../../protocol';
import type { CommandContext } from './context';

/** The request payload after validation (defaults applied). */
export type ParsedRequest<P extends DeviceProcess> = z.output<(typeof deviceCommands)[P]['request']>;

/** What one request may do besides answering: report progress (long commands, e.g. an image download). */
export interface CallScope {
  /** Sends a link `progress` message `{ process, requestId, data }` to the caller; ignored after the reply. */
  progress(data: unknown): void;
  /** Aborted when the link the request came on closes (long work stops then); absent outside a link. */
  signal?: AbortSignal;
}

/**
 * Answers one process: resolves with the reply data, or throws (CommandError for a coded failure).
 * `scope` reports progress of this request.
 */
export type CommandHandler<P extends DeviceProcess, C = CommandContext> = (
  payload: ParsedRequest<P>,
  ctx: C,
  scope: CallScope,
) => Promise<CommandReply<P>>;

/** One handler for every process. */
export type Handlers<C = CommandContext> = { [P in DeviceProcess]: CommandHandler<P, C> };
