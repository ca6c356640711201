/**
 * One open log of one device (issue 16 "Logs": a logTail machine per open log; §7 log, endLogProcess; §8 "No
 * log file found", "Log file modified or deleted"; §9 default log count 10).
 *
 * `loading` runs the `followLog` callback actor (provided: the `log` device call with its progress batches);
 * the first batch or the end of the call leaves it. `following` shows lines as they come; `paused` keeps
 * receiving them but the view stays where it paused (`pausedAt`); `log.follow` resumes. `log.stop` leaves the
 * active state, which stops the actor (its cleanup sends endLogProcess) → `ended`. The call ending by itself
 * → `ended` (reason done/stopped/link_closed; a call failing with code link_closed — the device went offline, its
 * agent died — ends it the same way, issue 15); failing otherwise → `failed` with `error.kind` 'noLogFile' (§8 "No log
 * file found", code not_found), 'changed' (§8 "Log file modified or deleted", code log_changed) or 'other'.
 * `log.restart` runs the log again from `ended`/`failed` (new uuid, empty buffer). Lines: a bounded buffer
 * (LOG_BUFFER_MAX) with sequence numbers; `lost` counts lines the sequence numbers prove missing.
 * `log.search` sets the filter in every state.
 */
import { assign, fromCallback, setup } from 'xstate';
import { appendBatch, type LogLine } from './logLines';

export interface LogTailInput {
  /** The viewer's id (its uuid prefix); unique among open logs. */
  id: string;
  deviceId: string;
  topic: string;
  subtopic: string;
  /** Lines from the end first (§9 default 10). */
  count: number;
  /** Keep following new lines. */
  follow: boolean;
}

export type LogErrorKind = 'noLogFile' | 'changed' | 'other';

export interface LogTailContext extends LogTailInput {
  /** Runs started (the uuid of the current one is `${id}-${run}`). */
  run: number;
  lines: LogLine[];
  /** The sequence number expected next. */
  nextSeq: number;
  /** Lines proven missing by the sequence numbers (0 when none was lost). */
  lost: number;
  /** Seq the view stops at while paused, else null. */
  pausedAt: number | null;
  search: string;
  /** Why the last run ended ('done' | 'stopped' | 'link_closed'), when it ended. */
  endReason: string | null;
  /** Lines the device says it sent in all (its reply to `log`), when the call ended by itself. */
  sent: number | null;
  error: { kind: LogErrorKind; message: string } | null;
}

/** What the followLog actor sends back. */
export type FollowLogEvent =
  | { type: 'log.batch'; seq: number; lines: string[] }
  | { type: 'log.ended'; reason: string; lines: number }
  | { type: 'log.failed'; code: string; message: string };

export type LogTailEvent =
  | FollowLogEvent
  | { type: 'log.pause' }
  | { type: 'log.follow' }
  | { type: 'log.stop' }
  | { type: 'log.restart' }
  | { type: 'log.search'; search: string };

export interface FollowLogInput {
  deviceId: string;
  uuid: string;
  topic: string;
  subtopic: string;
  count: number;
  follow: boolean;
}

/** The uuid of a log's current run. */
export const runUuid = (c: Pick<LogTailContext, 'id' | 'run'>): string => `${c.id}-${c.run}`;

const kindOf = (code: string): LogErrorKind =>
  code === 'not_found' ? 'noLogFile' : code === 'log_changed' ? 'changed' : 'other';

export const logTailActors = {
  /**
   * Calls `log` (uuid, topic, subtopic, count, follow) and sends back log.batch per progress batch, then
   * log.ended or log.failed; stopped before the end, it sends endLogProcess.
   */
  followLog: fromCallback<LogTailEvent, FollowLogInput>(() => {
    throw new Error("logTail: actor 'followLog' is not provided");
  }),
};

export const logTailMachine = setup({
  types: {
    context: {} as LogTailContext,
    events: {} as LogTailEvent,
    input: {} as LogTailInput,
  },
  actors: logTailActors,
  guards: {
    /** The call failed because the device's link closed (the agent died, the device went offline). */
    linkClosed: ({ event }) => event.type === 'log.failed' && event.code === 'link_closed',
  },
  actions: {
    fresh: assign(({ context }) => ({
      run: context.run + 1,
      lines: [],
      nextSeq: 0,
      lost: 0,
      pausedAt: null,
      endReason: null,
      sent: null,
      error: null,
    })),
    append: assign(({ context, event }) => {
      if (event.type !== 'log.batch') return {};
      const next = appendBatch(context.lines, context.nextSeq, event);
      return { lines: next.lines, nextSeq: next.nextSeq, lost: context.lost + next.lost };
    }),
    end: assign(({ context, event }) => {
      if (event.type !== 'log.ended') return { endReason: 'stopped', pausedAt: null };
      return {
        endReason: event.reason,
        sent: event.lines,
        pausedAt: null,
        lost: context.lost + Math.max(0, event.lines - context.nextSeq),
      };
    }),
    fail: assign(({ event }) =>
      event.type === 'log.failed'
        ? { error: { kind: kindOf(event.code), message: event.message }, pausedAt: null }
        : {},
    ),
    endLinkClosed: assign({ endReason: 'link_closed', pausedAt: null }),
    pause: assign(({ context }) => ({ pausedAt: context.nextSeq })),
    resume: assign({ pausedAt: null }),
    search: assign(({ event }) =>
      event.type === 'log.search' ? { search: event.search.slice(0, 200) } : {},
    ),
  },
}).createMachine({
  id: 'logTail',
  context: ({ input }) => ({
    ...input,
    run: 1,
    lines: [],
    nextSeq: 0,
    lost: 0,
    pausedAt: null,
    search: '',
    endReason: null,
    sent: null,
    error: null,
  }),
  initial: 'active',
  on: { 'log.search': { actions: 'search' } },
  states: {
    active: {
      invoke: {
        id: 'followLog',
        src: 'followLog',
        input: ({ context }) => ({
          deviceId: context.deviceId,
          uuid: runUuid(context),
          topic: context.topic,
          subtopic: context.subtopic,
          count: context.count,
          follow: context.follow,
        }),
      },
      on: {
        'log.batch': { actions: 'append' },
        'log.ended': { target: 'ended', actions: 'end' },
        // §9 issue 15: a device gone (its link closed under the call) ends the follow with that reason.
        'log.failed': [
          { guard: 'linkClosed', target: 'ended', actions: 'endLinkClosed' },
          { target: 'failed', actions: 'fail' },
        ],
        'log.stop': { target: 'ended', actions: 'end' },
      },
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          on: { 'log.batch': { target: 'following', actions: 'append' } },
        },
        following: {
          tags: ['live'],
          on: { 'log.pause': { target: 'paused', actions: 'pause' } },
        },
        paused: {
          tags: ['live'],
          on: { 'log.follow': { target: 'following', actions: 'resume' } },
        },
      },
    },
    ended: {
      on: { 'log.restart': { target: 'active', actions: 'fresh' } },
    },
    failed: {
      on: { 'log.restart': { target: 'active', actions: 'fresh' } },
    },
  },
});
