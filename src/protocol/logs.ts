/**
 * The logs feature's device commands (§7 "Logs and remote control": log, endLogProcess; §3 Log info; §8 "No log
 * file found", "Log file modified or deleted"; §9 default log count 10). Shapes the spec does not give ("not
 * shown") are ours, documented field by field with units.
 *
 * A device's logs are grouped in *topics*, each with *subtopics* (§3 Log info: topics, subtopics), one log file
 * or source each:
 * - `host` devices: topic `system` = readable text files under /var/log (subtopic: the path below /var/log,
 *   e.g. `syslog`, `apt/history.log`); topic `agent` = the agent's own `*.log` files in `<stateDir>/logs`.
 * - `sim` devices: `client` (agent, updater), `stream-engine` (one subtopic per camera id), `inference`
 *   (engine, models) and `system` (syslog, kern.log), generated believably.
 *
 * `log` sends the last `count` lines, then (with `follow`) every new line, as link **progress** messages of at
 * most LOG_BATCH_MAX_BYTES each (`LogBatch`: the log's uuid, the sequence number of its first line, the lines);
 * the sequence numbers of a log process run 0, 1, 2… without gaps, so the console can prove no line was lost.
 * A log without follow replies at once after its lines. A followed log is long-polled, so that every request
 * is answered within seconds: its call replies `more` after LOG_POLL_MS, and the console asks `log` again with
 * the same uuid to go on from where it was (lines written in between wait on the device, at most
 * LOG_QUEUE_MAX; beyond that the oldest are dropped and the sequence numbers show the gap). A followed log
 * nobody asks for again within LOG_RESUME_MS (a closed tab, a lost link) is stopped; endLogProcess stops it at
 * once (the call in progress replies `stopped`). Errors: `not_found` "No log file found" (no such topic/subtopic, or
 * its file is missing), `log_changed` "Log file modified or deleted" (truncated, rotated or deleted while
 * read), `busy` (too many logs followed on the device).
 */
import { z } from 'zod';
import { defineCommands, Empty } from './command';

/** §8 texts of the feature (English; the console translates them by key). */
export const LOG_TEXTS = {
  noLogFile: 'No log file found',
  logChanged: 'Log file modified or deleted',
} as const;

/** Error codes of the feature beyond LINK_ERROR_CODES (`not_found` is the §8 "No log file found"). */
export const LOG_ERROR_CODES = { changed: 'log_changed' } as const;

/** §9 "Default log count 10": lines sent before following when the request gives no count. */
export const LOG_DEFAULT_COUNT = 10;
/** Most lines a `log` request may ask for back in time. */
export const LOG_MAX_COUNT = 10_000;
/** A line longer than this (characters) is cut to it. */
export const LOG_LINE_MAX_CHARS = 2_000;
/** A progress message's JSON stays under this many bytes (one link message is at most 16,300). */
export const LOG_BATCH_MAX_BYTES = 12_000;
/** A followed log's call replies `more` after this long (ms); the console asks again at once. */
export const LOG_POLL_MS = 3_000;
/** A followed log not asked for again within this long (ms) after a reply is stopped. */
export const LOG_RESUME_MS = 15_000;
/** Lines a followed log keeps on the device between two calls at most (the oldest are dropped beyond). */
export const LOG_QUEUE_MAX = 50_000;
/** Logs a device follows at once (all links together); one more is refused with `busy`. */
export const LOG_MAX_FOLLOWS = 32;

/** A topic's or subtopic's name: 1–200 of letters, digits, `._-/`, no `..` segment (a path below a log root). */
const LogName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^(?!.*(?:^|\/)\.\.(?:\/|$))[A-Za-z0-9._-][A-Za-z0-9._/-]*$/, 'Not a log name')
  .meta({ examples: ['system', 'syslog', 'apt/history.log'] });

/** The console's id of one log process (a viewer): 1–64 of letters, digits, `_-`. */
export const LogUuid = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Not a log id')
  .meta({ examples: ['log-1a2b3c'] });

/** One topic of the device's logs with its subtopics (§3 Log info). */
export const LogTopic = z.object({
  topic: z.string(),
  subtopics: z.array(z.string()),
});
export type LogTopic = z.infer<typeof LogTopic>;

/** Progress data of `log`: consecutive lines of one log process. */
export const LogBatch = z.object({
  uuid: z.string(),
  /** Sequence number of `lines[0]`; the next batch starts at `seq + lines.length`. */
  seq: z.number().int().min(0),
  /** Lines without their line ending, oldest first, each at most LOG_LINE_MAX_CHARS. Empty: a heartbeat. */
  lines: z.array(z.string()),
});
export type LogBatch = z.infer<typeof LogBatch>;

export const LogRequest = z.object({
  uuid: LogUuid,
  topic: LogName,
  subtopic: LogName,
  /** Lines sent from the end of the log before following (0: none); §9 default 10. */
  count: z.number().int().min(0).max(LOG_MAX_COUNT).default(LOG_DEFAULT_COUNT),
  /**
   * Keep sending new lines until endLogProcess or the link closes (long-polled: see above). Asked again with
   * the uuid of a followed log of the same browser, it goes on with that log (topic, subtopic, count are not
   * read again).
   */
  follow: z.boolean().default(false),
  /**
   * Sim devices only (tests, bench): lines per second the simulated source writes while followed (default: the
   * topic's own pace, a few per second). Host devices ignore it.
   */
  sim_rate: z.number().int().min(1).max(5_000).optional(),
});
export type LogRequest = z.input<typeof LogRequest>;

/**
 * Why a `log` call answered: all lines sent (no follow), endLogProcess, the link closed, or `more` (a followed
 * log goes on: ask again with the same uuid).
 */
export const LogEndReason = z.enum(['done', 'stopped', 'link_closed', 'more']);
export type LogEndReason = z.infer<typeof LogEndReason>;

export const logCommands = defineCommands({
  /** §3 Log info: the device's topics and their subtopics (ours; the spec keeps them in the console's store). */
  'log-info': { request: Empty, reply: z.object({ topics: z.array(LogTopic) }) },
  /** §7 log: lines as progress `LogBatch` messages; answers when the log process ends, or `more` (polled). */
  log: {
    request: LogRequest,
    reply: z.object({
      uuid: z.string(),
      /** Lines of the log process so far (the next sequence number). */
      lines: z.number().int().min(0),
      reason: LogEndReason,
    }),
  },
  /** §7 endLogProcess: stops the followed log `uuid` of the asking browser; `ended` false when there is none. */
  endLogProcess: { request: z.object({ uuid: LogUuid }), reply: z.object({ ended: z.boolean() }) },
});
