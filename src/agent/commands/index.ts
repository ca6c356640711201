/**
 * The agent's command registry: every DeviceProcess of src/protocol/commands.ts mapped to its handler.
 * Typed as Handlers, so adding a process to the protocol without a handler here fails to compile.
 */
import { cameraHandlers } from './cameras';
import { containerHandlers } from './containers';
import { healthHandlers } from './health';
import type { Handlers } from './registry';
import { streamHandlers } from './streams';

export const handlers: Handlers = {
  ...healthHandlers,
  ...cameraHandlers,
  ...streamHandlers,
  ...containerHandlers,
};

export type { CommandContext } from './context';
export { CommandError } from './errors';
export type { CallScope, CommandHandler, Handlers, ParsedRequest } from './registry';
