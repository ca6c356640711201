/**
 * The shape of one device command (spec §7 "Device commands over the peer link", field `process`): the zod
 * schema of its request payload and of its reply data. A feature's protocol module declares its commands with
 * `defineCommands`; commands.ts merges them into the one registry both ends read.
 */
import { z } from 'zod';

export interface CommandSpec {
  readonly request: z.ZodType;
  readonly reply: z.ZodType;
}

/** Declares a feature's commands, keyed by `process`; keeps their literal types for the registry. */
export const defineCommands = <const T extends Record<string, CommandSpec>>(commands: T): T => commands;

/** A payload with no fields. */
export const Empty = z.object({}).strict();

/**
 * Longest string a command payload may carry unless its schema is stricter (an SDP offer is the largest:
 * up to 200,000 characters).
 */
export const COMMAND_TEXT_MAX_CHARS = 262_144;
